"""tests/programs/stencil.c through ompgpu.compile: the step loop and the pointer swap run in
Python; the data stay mapped between calls (target enter/exit data), and each kernel finds
either buffer in the present table."""
import numpy as np

SOURCE = r"""
#include <math.h>
#define NX 66
#define NY 50
void begin(double *u, double *v) {
#pragma omp target enter data map(to: u[0:NX * NY], v[0:NX * NY])
}
void step(double *cur, double *nxt) {
#pragma omp target teams distribute parallel for collapse(2) map(cur[0:NX * NY], nxt[0:NX * NY])
      for (int i = 1; i < NX - 1; i++)
        for (int j = 1; j < NY - 1; j++)
          nxt[i * NY + j] = 0.25 * (cur[(i - 1) * NY + j] + cur[(i + 1) * NY + j] + cur[i * NY + j - 1] + cur[i * NY + j + 1]);
}
double residual(double *cur, double *nxt) {
        double res = 0.0;
#pragma omp target teams distribute parallel for collapse(2) reduction(max: res) map(tofrom: res) map(cur[0:NX * NY], nxt[0:NX * NY])
        for (int i = 1; i < NX - 1; i++)
          for (int j = 1; j < NY - 1; j++) {
            double d = fabs(nxt[i * NY + j] - cur[i * NY + j]);
            if (d > res) res = d;
          }
        return res;
}
void end(double *u, double *v) {
#pragma omp target exit data map(from: u[0:NX * NY], v[0:NX * NY])
}
"""


def main(compile):
    NX, NY, STEPS = 66, 50, 24
    u = np.zeros((NX, NY))
    u[0, :] = 100.0
    u[:, NY - 1] = 50.0
    u = u.reshape(-1)
    v = u.copy()
    ref_c, ref_n = u.copy(), v.copy()
    begin, step, residual, end = (compile(SOURCE, f) for f in ("begin", "step", "residual", "end"))
    begin(u, v)
    cur, nxt = u, v
    hist = []
    for s in range(1, STEPS + 1):
        step(cur, nxt)
        if s % 6 == 0:
            hist.append(float(residual(cur, nxt)))
        cur, nxt = nxt, cur
    end(u, v)
    for s in range(STEPS):  # host reference, same operation order as the C program
        rc, rn = ref_c.reshape(NX, NY), ref_n.reshape(NX, NY)
        rn[1:-1, 1:-1] = 0.25 * (((rc[:-2, 1:-1] + rc[2:, 1:-1]) + rc[1:-1, :-2]) + rc[1:-1, 2:])
        ref_c, ref_n = ref_n, ref_c
    ok = np.array_equal(ref_c, cur)
    total = 0.0
    for x in cur:  # sequential sum, as the C program adds
        total += float(x)
    c = cur.reshape(NX, NY)
    print(f"after {STEPS} steps: c[1][1]={c[1, 1]:.6f} c[1][25]={c[1, 25]:.6f} c[30][48]={c[30, 48]:.6f} sum={total:.6f}")
    print("residuals: " + " ".join(f"{r:.6f}" for r in hist))
    print("PASS" if ok else "FAIL")
