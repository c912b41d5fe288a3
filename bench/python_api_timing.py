"""Per-call cost of a function compiled by ompgpu.compile, on CuPy arrays (run on a GPU machine).

    python3 bench/python_api_timing.py
Prints the first and the cached compile time, then for n = 1024 and 2^24 the time per call of
saxpy on device arrays (200 calls after 3 warm-ups) and the bandwidth (12 bytes per element),
with the result checked.
"""
import time

import cupy as cp

import ompgpu

SAXPY = r"""
void saxpy(int n, float a, const float *x, float *y) {
  #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
"""

t0 = time.time()
f = ompgpu.compile(SAXPY, "saxpy")
t1 = time.time()
ompgpu.compile(SAXPY, "saxpy")
t2 = time.time()
print(f"compile: first {t1 - t0:.2f} s, cached {t2 - t1:.3f} s")
for n in (1024, 1 << 24):
    x = cp.arange(n, dtype=cp.float32)
    y = cp.ones(n, dtype=cp.float32)
    for _ in range(3):
        f(n, 2.0, x, y)
    cp.cuda.runtime.deviceSynchronize()
    reps = 200
    t = time.perf_counter()
    for _ in range(reps):
        f(n, 2.0, x, y)
    cp.cuda.runtime.deviceSynchronize()
    dt = (time.perf_counter() - t) / reps
    y0 = cp.ones(n, dtype=cp.float32)
    f(n, 2.0, x, y0)
    ok = bool(cp.all(y0 == 2 * x + 1))
    print(f"saxpy CuPy n={n}: {dt * 1e6:.1f} us per call, {12 * n / dt / 1e9:.0f} GB/s, check {'PASS' if ok else 'FAIL'}")
