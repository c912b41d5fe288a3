/* <stddef.h> included whole (as mpi.h includes it): its max_align_t and offsetof must not
   clash with what the generated host code includes. */
#include <stddef.h>
#include <stdio.h>

struct particle { double x, v; int id; };

int main(void) {
  struct particle p[16];
  size_t id_offset = offsetof(struct particle, id);
  ptrdiff_t span = &p[15] - &p[0];
  #pragma omp target map(from: p)
  for (int i = 0; i < 16; i++) { p[i].x = i; p[i].v = 2 * i; p[i].id = i * (int)sizeof(max_align_t) + (int)offsetof(struct particle, v); }
  printf("%zu %td %d %g\n", id_offset, span, p[3].id, p[15].v);
  return 0;
}
