/* covers: math library on the device: sqrt exp log fabs pow floor ceil sin cos tanh fmin fmax fmod, float variants sqrtf expf fabsf, in declare target functions and loops; results printed to 4-6 significant digits and compared with a tolerance */
#include <stdio.h>
#include <math.h>

#define N 1000

#pragma omp declare target
static double gaussian(double x, double mu, double sigma) {
  double t = (x - mu) / sigma;
  return exp(-0.5 * t * t) / (sigma * sqrt(2.0 * 3.14159265358979323846));
}
#pragma omp end declare target

int main(void) {
  static double x[N], y[N];
  static float fy[N];
  for (int i = 0; i < N; i++) x[i] = (i - 500) * 0.01;

#pragma omp target teams distribute parallel for map(to: x) map(from: y, fy)
  for (int i = 0; i < N; i++) {
    double v = x[i];
    y[i] = sqrt(fabs(v)) + exp(v * 0.1) + pow(fabs(v) + 1.0, 1.5) + floor(v * 3.0) + ceil(v) +
           sin(v) * cos(v) + tanh(v) + log(v * v + 1.0) + fmin(v, 0.5) + fmax(v, -0.5) + fmod(v * 10.0, 3.0);
    fy[i] = sqrtf(fabsf((float)v)) + expf((float)v * 0.5f);
  }

  double err = 0.0, s = 0.0, fs = 0.0;
  for (int i = 0; i < N; i++) {
    double v = x[i];
    double r = sqrt(fabs(v)) + exp(v * 0.1) + pow(fabs(v) + 1.0, 1.5) + floor(v * 3.0) + ceil(v) +
               sin(v) * cos(v) + tanh(v) + log(v * v + 1.0) + fmin(v, 0.5) + fmax(v, -0.5) + fmod(v * 10.0, 3.0);
    double e = fabs(r - y[i]) / (1.0 + fabs(r));
    if (e > err) err = e;
    s += y[i];
    fs += fy[i];
  }
  printf("mix: y[0]=%.5f y[250]=%.5f y[999]=%.5f sum=%.3f\n", y[0], y[250], y[999], s);
  printf("float mix: fy[0]=%.4f fy[999]=%.4f sum=%.1f\n", fy[0], fy[999], fs);
  printf("max relative error below 1e-12: %s\n", err < 1e-12 ? "yes" : "no");

  /* gaussian density summed by a reduction: printed with 6 digits */
  double area = 0.0;
#pragma omp target teams distribute parallel for reduction(+: area) map(tofrom: area)
  for (int i = 0; i < 4000; i++) {
    double t = -10.0 + i * 0.005;
    area += gaussian(t, 0.5, 1.25) * 0.005;
  }
  printf("gaussian area=%.6f\n", area);

  /* integer results from floor/ceil/round toward a lattice */
  long cells = 0;
#pragma omp target teams distribute parallel for reduction(+: cells) map(tofrom: cells)
  for (int i = 0; i < N; i++) {
    double r = sqrt((double)i);
    cells += (long)floor(r) * 10 + (long)ceil(r) + (long)(pow(2.0, (double)(i % 10)) + 0.5);
  }
  printf("lattice cells=%ld\n", cells);
  printf("%s\n", err < 1e-12 && fabs(area - 1.0) < 1e-6 ? "PASS" : "FAIL");
  return 0;
}
