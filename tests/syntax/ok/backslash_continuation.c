/* directives continued over several lines with backslashes, including breaks inside clause argument lists and between modifiers */
#include <stdio.h>

#define N 256

int main(void) {
  double a[N], b[N], c[N];
  double sum = 0.0;
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = 2 * i;
  }

#pragma omp target teams distribute parallel for \
    map(to: a[0:N], b[0:N]) \
    map(from: c[0:N]) \
    num_teams(8) thread_limit(64)
  for (int i = 0; i < N; i++) c[i] = a[i] + b[i];

#pragma omp target \
  map(tofrom: sum) \
  map(to: c)
#pragma omp parallel for \
  reduction(+ \
            : sum) \
  schedule(static, \
           4)
  for (int i = 0; i < N; i++) sum += c[i];

#pragma omp target data map(to \
                            : a[0:N]) \
                        map(tofrom: b[0 \
                                      : N])
  {
#pragma omp target teams \
    distribute \
    parallel \
    for
    for (int i = 0; i < N; i++) b[i] += a[i];
  }

#pragma \
  omp \
  target \
  map(tofrom: sum)
  sum += 1.0;

#   pragma    omp     target    map( tofrom :  c [ 0 : N ] )
  c[0] = 0.0;

	#pragma	omp	target	teams	distribute	parallel	for	map(tofrom: c)
  for (int i = 0; i < N; i++) c[i] *= 2.0;

  printf("%f %f %f\n", sum, b[N - 1], c[N - 1]);
  return 0;
}
