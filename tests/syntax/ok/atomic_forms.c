/* atomic in every form and with memory-order clauses, on the device */
#include <stdio.h>

int main(void) {
  int x = 0, v = 0;
  long lx = 0;
  double dx = 0.0, dv;
  unsigned ux = 0;
  float fx = 1.0f;

#pragma omp target teams distribute parallel for map(tofrom: x, v, lx, dx, dv, ux, fx)
  for (int i = 0; i < 100; i++) {
#pragma omp atomic
    x++;
#pragma omp atomic
    x--;
#pragma omp atomic
    ++x;
#pragma omp atomic
    --x;
#pragma omp atomic
    x += i;
#pragma omp atomic
    x -= 1;
#pragma omp atomic
    x *= 1;
#pragma omp atomic
    x /= 1;
#pragma omp atomic
    ux &= 0xffu;
#pragma omp atomic
    ux |= 1u;
#pragma omp atomic
    ux ^= 2u;
#pragma omp atomic
    ux <<= 0;
#pragma omp atomic
    ux >>= 0;
#pragma omp atomic
    x = x + 2;
#pragma omp atomic
    x = 2 + x;
#pragma omp atomic update
    lx += (long)i * i;
#pragma omp atomic update
    dx += 0.5;
#pragma omp atomic
    fx *= 1.0f;
#pragma omp atomic read
    v = x;
#pragma omp atomic write
    dv = 3.0 * i;
#pragma omp atomic capture
    v = x++;
#pragma omp atomic capture
    v = x--;
#pragma omp atomic capture
    v = ++x;
#pragma omp atomic capture
    v = --x;
#pragma omp atomic capture
    v = x += 3;
#pragma omp atomic capture
    v = x = x - 3;
#pragma omp atomic capture
    {
      v = x;
      x += 5;
    }
#pragma omp atomic capture
    {
      x -= 5;
      v = x;
    }
#pragma omp atomic capture
    {
      v = x;
      x = 7;
    }
#pragma omp atomic capture
    {
      v = x;
      x++;
    }
#pragma omp atomic capture
    {
      --x;
      v = x;
    }
#pragma omp atomic seq_cst
    x++;
#pragma omp atomic relaxed
    x += 1;
#pragma omp atomic read acquire
    v = x;
#pragma omp atomic write release
    x = v;
#pragma omp atomic update acq_rel
    x -= 1;
#pragma omp atomic capture seq_cst
    v = x++;
#pragma omp atomic seq_cst, read
    v = x;
  }
  printf("%d %d %ld %f %f %u %f\n", x, v, lx, dx, dv, ux, fx);
  return 0;
}
