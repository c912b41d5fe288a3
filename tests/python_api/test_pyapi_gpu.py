"""ompgpu.compile on a real GPU, with NumPy and CuPy arrays (marked gpu: skipped without one).

A process runs compiled functions on one backend (the runtime library it loads is either the
GPU's or the emulator's), and the emulator tests of this folder share pytest's process; so
each case here runs in a process of its own: `python test_pyapi_gpu.py CASE`.
"""
import contextlib
import importlib.util
import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
pytestmark = pytest.mark.gpu

SAXPY = r"""
void saxpy(int n, float a, const float *x, float *y) {
  #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
"""


def saxpy_numpy_and_cupy():
    import cupy as cp
    import ompgpu

    f = ompgpu.compile(SAXPY, "saxpy")
    x = np.arange(1 << 20, dtype=np.float32)
    y = np.ones_like(x)
    f(x.size, 2.0, x, y)
    np.testing.assert_array_equal(y, 2 * x + 1)
    xd, yd = cp.asarray(x), cp.ones(x.size, dtype=cp.float32)
    f(x.size, 2.0, xd, yd)  # device arrays: no copies, results stay on the device
    np.testing.assert_array_equal(cp.asnumpy(yd), 2 * x + 1)
    with contextlib.suppress(ompgpu.python_api.OffloadError):
        f(x.size + 1, 2.0, xd, yd)
        raise AssertionError("a map past the end of a CuPy array was not an error")


def reduction_returned():
    import ompgpu

    src = r"""
    double dot(int n, const double *x, const double *y) {
      double s = 0.0;
      #pragma omp target teams distribute parallel for reduction(+: s) map(to: x[0:n], y[0:n]) map(tofrom: s)
      for (int i = 0; i < n; i++) s += x[i] * y[i];
      return s;
    }"""
    x = np.arange(10001, dtype=np.float64)
    assert ompgpu.compile(src, "dot")(x.size, x, x) == float(np.dot(x, x))


HEAT = r"""
#include <math.h>
static double sweep(int n, const double *u, double *v) {
  double diff = 0.0;
  #pragma omp target teams distribute parallel for reduction(max: diff) map(tofrom: diff) is_device_ptr(u, v)
  for (int i = 1; i < n - 1; i++) {
    v[i] = 0.5 * (u[i - 1] + u[i + 1]);
    diff = fmax(diff, fabs(v[i] - u[i]));
  }
  return diff;
}
/* u and w are device arrays (CuPy): the loop, the calls and the swap run on the host, the
   sweeps on the GPU, and nothing is copied but each sweep's maximum change. */
int relax(int n, double *u, double *w, double tol, int max_iter) {
  double *a = u, *b = w;
  int it = 0;
  while (it < max_iter) {
    double d = sweep(n, a, b);
    double *t = a; a = b; b = t;
    it++;
    if (d < tol) break;
  }
  if (a != u) {
    #pragma omp target teams distribute parallel for map(u[0:n], a[0:n])
    for (int i = 0; i < n; i++) u[i] = a[i];
  }
  return it;
}
"""


def host_code_with_cupy_arrays():
    import cupy as cp
    import ompgpu
    from tests.python_api.references import jacobi_1d

    n, tol, max_iter = 48, 1e-4, 3000  # converges after 1498 sweeps
    u0 = np.zeros(n)
    u0[-1] = 1.0
    u, ref_it = jacobi_1d(u0, tol, max_iter)
    du, dw = cp.asarray(u0), cp.asarray(u0)
    it = ompgpu.compile(HEAT, "relax")(n, du, dw, tol, max_iter)
    assert it == ref_it and 1 < it < max_iter, (it, ref_it)
    np.testing.assert_allclose(cp.asnumpy(du), u, rtol=0, atol=1e-12)


def runtime_error_is_an_exception():
    import ompgpu

    src = r"""
    void need(int n, double *a) {
      #pragma omp target map(present, tofrom: a[0:n])
      a[0] += 1;
    }"""
    try:
        ompgpu.compile(src, "need")(4, np.zeros(4))
    except ompgpu.python_api.OffloadError as exc:
        assert "is not present on device 0" in str(exc), str(exc)
    else:
        raise AssertionError("no error for a map(present) of an unmapped array")
    ompgpu.compile(SAXPY, "saxpy")(3, 1.0, np.ones(3, np.float32), np.ones(3, np.float32))  # still works


def program_drivers_agree_with_expected():
    import ompgpu

    for path in sorted((HERE / "programs").glob("*.py")):
        if path.stem == "run_all":
            continue
        spec = importlib.util.spec_from_file_location(f"driver_{path.stem}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            mod.main(lambda src, fn, options=(): ompgpu.compile(src, fn, options))
        assert out.getvalue() == (ROOT / "tests" / "programs" / f"{path.stem}.expected").read_text(), path.stem


CASES = ["saxpy_numpy_and_cupy", "reduction_returned", "host_code_with_cupy_arrays", "runtime_error_is_an_exception",
         "program_drivers_agree_with_expected"]


@pytest.mark.parametrize("case", CASES)
def test_on_the_gpu(case):
    pytest.importorskip("cupy")
    proc = subprocess.run([sys.executable, __file__, case], capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    globals()[sys.argv[1]]()
    print(f"{sys.argv[1]}: ok")
