/* covers: map of struct members (scalar member, fixed-array member section s.arr[lo:len], pointer member section s.data[0:n] with the struct mapped), struct member access on the device */
#include <stdio.h>
#include <stdlib.h>

struct field {
  int n;
  double scale;
  int tag[16];
  double *data;
};

int main(void) {
  struct field f;
  f.n = 500;
  f.scale = 0.5;
  for (int i = 0; i < 16; i++) f.tag[i] = i;
  f.data = malloc(f.n * sizeof *f.data);
  for (int i = 0; i < f.n; i++) f.data[i] = i;

  /* scalar members only */
  int prod = 0;
#pragma omp target map(to: f.n, f.scale) map(from: prod)
  prod = (int)(f.n * f.scale);
  printf("scalar members: prod=%d\n", prod);

  /* fixed-size array member, a section with nonzero lower bound */
#pragma omp target map(tofrom: f.tag[4:8])
  for (int i = 4; i < 12; i++) f.tag[i] *= 10;
  int tsum = 0;
  for (int i = 0; i < 16; i++) tsum += f.tag[i];
  printf("array member section: tag[3]=%d tag[4]=%d tag[11]=%d tag[12]=%d sum=%d\n", f.tag[3], f.tag[4],
         f.tag[11], f.tag[12], tsum);

  /* pointer member: the struct is mapped, then the pointee section is mapped and attached */
  int n = f.n;
#pragma omp target teams distribute parallel for map(to: f) map(tofrom: f.data[0:n])
  for (int i = 0; i < n; i++) f.data[i] = f.data[i] * f.scale + f.tag[i % 16];

  double dsum = 0.0;
  for (int i = 0; i < f.n; i++) dsum += f.data[i];
  printf("pointer member: data[0]=%.1f data[1]=%.1f data[499]=%.1f sum=%.1f\n", f.data[0], f.data[1],
         f.data[499], dsum);

  /* the common idiom: copy the member pointer into a local */
  double *d = f.data;
#pragma omp target teams distribute parallel for map(tofrom: d[0:n])
  for (int i = 0; i < n; i++) d[i] = -d[i];
  double dsum2 = 0.0;
  for (int i = 0; i < f.n; i++) dsum2 += f.data[i];
  printf("local pointer idiom: sum=%.1f\n", dsum2);
  printf("%s\n", prod == 250 && tsum == 120 + 9 * 60 && dsum2 == -dsum ? "PASS" : "FAIL");
  free(f.data);
  return 0;
}
