/* C11 keywords (_Static_assert, _Alignof, _Alignas, _Noreturn, _Thread_local) in host code and in
   target regions, whose device code is C++ (they are spelled as C++ spells them there). */
#include <stdio.h>
#include <stdalign.h>
#include <stdnoreturn.h>
_Static_assert(sizeof(int) == 4, "int is 4 bytes");
static _Thread_local int tl = 3;
noreturn static void die(void) { for (;;) {} }
int main(void) {
  alignas(16) double v[4] = {1, 2, 3, 4};
  int r = 0;
  #pragma omp target map(tofrom: r) map(to: v)
  {
    _Static_assert(_Alignof(double) == 8, "double alignment");
    r = (int)(v[3] + _Alignof(long long));
  }
  printf("%d %d\n", r, tl);
  if (r < 0) die();
  return 0;
}
