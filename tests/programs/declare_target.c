/* covers: declare target (begin/end form) on global variables and functions, declare target to(list), global arrays used in target regions without map, target update to/from on globals, static initialisers on device globals */
#include <stdio.h>

#define TABLE 32

#pragma omp declare target
int table[TABLE];
double coeffs[4] = {1.0, -2.0, 0.5, 3.0};
int call_count = 0;

static int square(int x) { return x * x; }

double poly(double x) {
  /* Horner, uses the global coefficient table */
  double r = 0.0;
  for (int k = 3; k >= 0; k--) r = r * x + coeffs[k];
  return r;
}
#pragma omp end declare target

long scale_factor = 3;
int cube(int x) { return x * x * x; }
#pragma omp declare target to(scale_factor, cube)

int main(void) {
  for (int i = 0; i < TABLE; i++) table[i] = i;
#pragma omp target update to(table)

  /* globals are referenced without map clauses */
#pragma omp target teams distribute parallel for
  for (int i = 0; i < TABLE; i++) table[i] = square(table[i]) + cube(i) * (int)scale_factor;

#pragma omp target update from(table)
  long s = 0;
  for (int i = 0; i < TABLE; i++) s += table[i];
  printf("table: t[0]=%d t[5]=%d t[31]=%d sum=%ld\n", table[0], table[5], table[31], s);

  /* device function reading a device global initialised statically */
  double res[5];
#pragma omp target map(from: res)
  for (int i = 0; i < 5; i++) res[i] = poly((double)i);
  printf("poly: %.1f %.1f %.1f %.1f %.1f\n", res[0], res[1], res[2], res[3], res[4]);

  /* change coefficients on the host and push them */
  coeffs[3] = 0.0;
  coeffs[0] = 10.0;
#pragma omp target update to(coeffs)
#pragma omp target map(from: res)
  for (int i = 0; i < 5; i++) res[i] = poly((double)i);
  printf("poly after update: %.1f %.1f %.1f %.1f %.1f\n", res[0], res[1], res[2], res[3], res[4]);

  /* a device global counter incremented in several regions, read back with update from */
  for (int rep = 0; rep < 3; rep++) {
#pragma omp target
    call_count += 10 + rep;
  }
#pragma omp target update from(call_count)
  printf("call_count=%d\n", call_count);

  scale_factor = 5;
#pragma omp target update to(scale_factor)
  long sf = 0;
#pragma omp target map(from: sf)
  sf = scale_factor * cube(2);
  printf("scale_factor*cube(2)=%ld\n", sf);
  int pass = table[5] == 25 + 375 && res[2] == 8.0 && call_count == 33 && sf == 40;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return 0;
}
