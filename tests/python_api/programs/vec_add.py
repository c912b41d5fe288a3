"""tests/programs/vec_add.c through ompgpu.compile: static arrays become parameters."""
import numpy as np

SOURCE = r"""
#define N 10000
void vec_add(const double *a, const double *b, double *c) {
#pragma omp target teams distribute parallel for map(to: a[0:N], b[0:N]) map(from: c[0:N])
  for (int i = 0; i < N; i++)
    c[i] = a[i] + b[i];
}
void vec_axpy(const double *a, double *c) {
#pragma omp target teams distribute parallel for map(tofrom: c[0:N]) map(to: a[0:N])
  for (int i = 0; i < N; i++)
    c[i] = 2.0 * c[i] - a[i];
}
void int_mul(int n, const int *x, const int *y, int *z) {
#pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) map(from: z[0:n])
  for (int i = 0; i < n; i++)
    z[i] = x[i] * y[i] - i;
}
"""


def main(compile):
    N = 10000
    i = np.arange(N, dtype=np.float64)
    a, b, c = i.copy(), 2 * i + 1, np.full(N, -1.0)
    compile(SOURCE, "vec_add")(a, b, c)
    errs = int(np.sum(c != 3.0 * i + 1.0))
    print(f"vec_add: sum={c.sum():.0f} errors={errs}")
    compile(SOURCE, "vec_axpy")(a, c)
    errs = int(np.sum(c != 5.0 * i + 2.0))
    print(f"vec_axpy: sum={c.sum():.0f} errors={errs}")
    n = 4099
    k = np.arange(n, dtype=np.int32)
    x, y, z = k % 97, (k * 7) % 101, np.zeros(n, dtype=np.int32)
    compile(SOURCE, "int_mul")(n, x, y, z)
    errs = int(np.sum(z != x * y - k))
    print(f"int_mul: sum={int(z.astype(np.int64).sum())} errors={errs}")
    print("PASS" if errs == 0 else "FAIL")
