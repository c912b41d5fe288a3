/* covers: n-body short-range force loop: target teams distribute parallel for over bodies with a serial inner loop over all bodies and a cutoff test on exact integer distances, sqrt and division on the device, potential energy + reduction, velocity/position update kernel in target data over several steps, arrays of structs */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NB 400
#define STEPS 3
#define CUT2 400 /* squared cutoff in lattice units */

typedef struct {
  double x, y, z;
} v3;

int main(void) {
  int *ix = malloc(NB * 3 * sizeof *ix); /* lattice positions: exact distances */
  v3 *f = malloc(NB * sizeof *f);
  double *pot = malloc(NB * sizeof *pot);
  int *nbrs = malloc(NB * sizeof *nbrs);
  unsigned s = 31337u;
  for (int i = 0; i < NB; i++)
    for (int d = 0; d < 3; d++) {
      s = s * 1103515245u + 12345u;
      ix[i * 3 + d] = (int)((s >> 10) % 64);
    }
  int *rx = malloc(NB * 3 * sizeof *rx); /* host reference copy */
  for (int i = 0; i < NB * 3; i++) rx[i] = ix[i];
  double energy[STEPS];
  long pairs[STEPS];

#pragma omp target data map(tofrom: ix[0:NB * 3]) map(from: f[0:NB], pot[0:NB], nbrs[0:NB])
  for (int step = 0; step < STEPS; step++) {
    double e = 0.0;
    long np = 0;
#pragma omp target teams distribute parallel for reduction(+: e, np) map(tofrom: e, np)
    for (int i = 0; i < NB; i++) {
      v3 acc = {0.0, 0.0, 0.0};
      double p = 0.0;
      int cnt = 0;
      for (int j = 0; j < NB; j++) {
        if (j == i) continue;
        int dx = ix[j * 3] - ix[i * 3], dy = ix[j * 3 + 1] - ix[i * 3 + 1], dz = ix[j * 3 + 2] - ix[i * 3 + 2];
        int r2 = dx * dx + dy * dy + dz * dz;
        if (r2 == 0 || r2 > CUT2) continue;
        double r = sqrt((double)r2);
        double inv3 = 1.0 / (r2 * r);
        acc.x += dx * inv3;
        acc.y += dy * inv3;
        acc.z += dz * inv3;
        p -= 1.0 / r;
        cnt++;
      }
      f[i] = acc;
      pot[i] = p;
      nbrs[i] = cnt;
      e += 0.5 * p;
      np += cnt;
    }
    energy[step] = e;
    pairs[step] = np / 2;
    /* move on the lattice: one step along the sign of the force */
#pragma omp target teams distribute parallel for
    for (int i = 0; i < NB; i++) {
      int mx = f[i].x > 1e-9 ? 1 : (f[i].x < -1e-9 ? -1 : 0);
      int my = f[i].y > 1e-9 ? 1 : (f[i].y < -1e-9 ? -1 : 0);
      int mz = f[i].z > 1e-9 ? 1 : (f[i].z < -1e-9 ? -1 : 0);
      ix[i * 3] += mx;
      ix[i * 3 + 1] += my;
      ix[i * 3 + 2] += mz;
    }
  }
  /* host reference simulation */
  int ok = 1;
  v3 *rf = malloc(NB * sizeof *rf);
  for (int step = 0; step < STEPS; step++) {
    double e = 0.0;
    long np = 0;
    for (int i = 0; i < NB; i++) {
      v3 acc = {0.0, 0.0, 0.0};
      double p = 0.0;
      for (int j = 0; j < NB; j++) {
        if (j == i) continue;
        int dx = rx[j * 3] - rx[i * 3], dy = rx[j * 3 + 1] - rx[i * 3 + 1], dz = rx[j * 3 + 2] - rx[i * 3 + 2];
        int r2 = dx * dx + dy * dy + dz * dz;
        if (r2 == 0 || r2 > CUT2) continue;
        double r = sqrt((double)r2);
        double inv3 = 1.0 / (r2 * r);
        acc.x += dx * inv3;
        acc.y += dy * inv3;
        acc.z += dz * inv3;
        p -= 1.0 / r;
        np++;
      }
      rf[i] = acc;
      e += 0.5 * p;
    }
    if (fabs(e - energy[step]) > 1e-9 * fabs(e) || np / 2 != pairs[step]) ok = 0;
    for (int i = 0; i < NB; i++) {
      rx[i * 3] += rf[i].x > 1e-9 ? 1 : (rf[i].x < -1e-9 ? -1 : 0);
      rx[i * 3 + 1] += rf[i].y > 1e-9 ? 1 : (rf[i].y < -1e-9 ? -1 : 0);
      rx[i * 3 + 2] += rf[i].z > 1e-9 ? 1 : (rf[i].z < -1e-9 ? -1 : 0);
    }
  }
  for (int i = 0; i < NB * 3; i++)
    if (rx[i] != ix[i]) ok = 0;
  double fsum = 0.0, fmax = 0.0;
  int nmax = 0;
  for (int i = 0; i < NB; i++) {
    double m = sqrt(f[i].x * f[i].x + f[i].y * f[i].y + f[i].z * f[i].z);
    fsum += m;
    if (m > fmax) fmax = m;
    if (nbrs[i] > nmax) nmax = nbrs[i];
  }
  for (int t = 0; t < STEPS; t++) printf("step %d: energy=%.5f pairs=%ld\n", t, energy[t], pairs[t]);
  printf("last forces: sum|f|=%.5f max|f|=%.5f max neighbours=%d\n", fsum, fmax, nmax);
  long lsum = 0;
  for (int i = 0; i < NB * 3; i++) lsum += ix[i] * (i % 5 + 1);
  printf("lattice checksum=%ld\n", lsum);
  printf("%s\n", ok && pairs[0] > 0 && energy[0] < 0.0 ? "PASS" : "FAIL");
  free(rx);
  free(rf);
  free(ix);
  free(f);
  free(pot);
  free(nbrs);
  return 0;
}
