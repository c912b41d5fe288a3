/* covers: a simd loop in a target region's serial code with linear (with a body that advances
   the variable, and one not used in the body), reduction and lastprivate items: of variables the
   region maps (shared by the team: an SPMD kernel's threads must not each write them back while
   others still read them) and of the region's own locals */
#include <stdio.h>

int main(void) {
  /* mapped variables */
  int r = 0, v = 16;
#pragma omp target map(tofrom: r, v)
#pragma omp simd linear(r, v: 2)
  for (int i = 0; i < 4; i++) { r += 2; v += 2; }
  int q = 0;
#pragma omp target map(tofrom: q)
  {
#pragma omp simd linear(q: 2)
    for (int i = 0; i < 4; i++) { q += 2; }
  }
  int z = 0;
#pragma omp target map(tofrom: z)
#pragma omp simd linear(z: 3)
  for (int i = 0; i < 5; i++) { }
  int s = 0, l = -1;
#pragma omp target map(tofrom: s, l)
#pragma omp simd reduction(+: s) lastprivate(l)
  for (int i = 0; i < 10; i++) { s += i; l = i * 3; }
  printf("mapped: r %d v %d q %d z %d s %d l %d\n", r, v, q, z, s, l);

  /* the region's own locals */
  int out[4];
#pragma omp target map(from: out)
  {
    int lq = 1, ls = 0, ll = -1, lz = 0;
#pragma omp simd linear(lq: 2) reduction(+: ls) lastprivate(ll)
    for (int i = 0; i < 4; i++) { lq += 2; ls += i; ll = i * 3; }
#pragma omp simd linear(lz: 3)
    for (int i = 0; i < 5; i++) { }
    out[0] = lq; out[1] = ls; out[2] = ll; out[3] = lz;
  }
  printf("locals: q %d s %d l %d z %d\n", out[0], out[1], out[2], out[3]);
  return 0;
}
