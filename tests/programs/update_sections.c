/* target update of sections that are not contiguous (OpenMP 5.0): strides (a[lo:len:stride])
   and dimensions after the first that are not whole (m[1:2:3][1:2:2], a[1:4][0:2]); only the
   section's elements move. */
#include <stdio.h>
int main(void) {
  int a[10], m[6][5];
  for (int i = 0; i < 10; i++) a[i] = i;
  for (int i = 0; i < 6; i++) for (int j = 0; j < 5; j++) m[i][j] = 0;
  #pragma omp target data map(tofrom: a, m)
  {
    #pragma omp target
    for (int i = 0; i < 10; i++) a[i] = 100 + i;
    #pragma omp target update from(a[0:5:2])
    for (int i = 0; i < 10; i++) printf("%d ", a[i]);
    printf("\n");
    for (int i = 0; i < 10; i++) a[i] = -i;
    #pragma omp target update to(a[1:3:3])
    #pragma omp target
    for (int i = 0; i < 6; i++) for (int j = 0; j < 5; j++) m[i][j] = a[(i + j) % 10];
    #pragma omp target update from(m[1:2:3][1:2:2])
    for (int i = 0; i < 6; i++) { for (int j = 0; j < 5; j++) printf("%d ", m[i][j]); printf("| "); }
    printf("\n");
  }
  /* rows 1..4, columns 0..1 of an 8x8 array: 8 elements, not the 32 of whole rows */
  int b[8][8];
  for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) b[i][j] = 0;
  #pragma omp target enter data map(to: b)
  #pragma omp target
  for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) b[i][j] = 1;
  #pragma omp target update from(b[1:4][0:2])
  int ones = 0;
  for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) ones += b[i][j];
  printf("copied back: %d\n", ones);
  #pragma omp target exit data map(release: b)
  return 0;
}
