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


SPIN = r"""
void spin(int n, int reps, float *y) {
  #pragma omp target teams distribute parallel for is_device_ptr(y)
  for (int i = 0; i < n; i++) {
    float v = y[i];
    for (int r = 0; r < reps; r++) v = v * 0.999f + 0.001f;
    y[i] = v;
  }
}
"""


def calls_return_before_their_kernels_end():
    """On CuPy's current stream (a stream of its own here): the call returns while its kernel
    runs, work queued after it on that stream sees its results, and a NumPy call after it waits."""
    import time

    import cupy as cp
    import ompgpu

    f = ompgpu.compile(SAXPY, "saxpy")
    spin = ompgpu.compile(SPIN, "spin")
    assert f.returns_early and spin.returns_early
    n = 1 << 22
    with cp.cuda.Stream(non_blocking=True) as stream:
        x = cp.arange(n, dtype=cp.float32)        # queued on the stream: the call must follow it
        y = cp.ones(n, dtype=cp.float32)
        spin(n, 1, y)
        stream.synchronize()
        start = time.perf_counter()
        spin(n, 20000, y)                         # tens of milliseconds of work
        returned = time.perf_counter() - start
        stream.synchronize()
        ended = time.perf_counter() - start
        assert returned < 0.25 * ended, (returned, ended)
        y.fill(1.0)
        f(n, 2.0, x, y)
        z = y * 1                                 # CuPy's next kernel on the same stream
        np.testing.assert_array_equal(cp.asnumpy(z), 2 * np.arange(n, dtype=np.float32) + 1)
        spin(n, 20000, y)                         # left running...
        assert not stream.done
        host = np.ones(4, np.float32)
        f(4, 1.0, np.ones(4, np.float32), host)   # ...a call on host arrays waits for it first
        assert stream.done
        np.testing.assert_array_equal(host, 2.0)


def torch_and_dlpack_like_cupy():
    """The same module called with CuPy arrays, PyTorch tensors (__cuda_array_interface__), and
    objects that only speak DLPack gives the same results."""
    import cupy as cp
    import ompgpu

    try:
        import torch
    except ImportError:
        print("torch_and_dlpack_like_cupy: PyTorch is not installed: only CuPy checked")
        return
    f = ompgpu.compile(SAXPY, "saxpy")
    n = 100003
    x = np.random.default_rng(1).random(n, dtype=np.float32)
    want = cp.asarray(np.ones(n, np.float32))
    f(n, 3.0, cp.asarray(x), want)
    want = cp.asnumpy(want)

    tx, ty = torch.from_numpy(x).cuda(), torch.ones(n, device="cuda")
    f(n, 3.0, tx, ty)
    np.testing.assert_array_equal(ty.cpu().numpy(), want)

    class OnlyDLPack:
        def __init__(self, t):
            self.t = t

        def __dlpack__(self, stream=None):
            return self.t.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.t.__dlpack_device__()

    ty = torch.ones(n, device="cuda")
    f(n, 3.0, OnlyDLPack(tx), OnlyDLPack(ty))
    np.testing.assert_array_equal(ty.cpu().numpy(), want)
    try:
        f(n, 3.0, tx, torch.ones(n, device="cuda", dtype=torch.float64))
    except TypeError as exc:
        assert "needs an array of dtype float32, got float64" in str(exc), str(exc)
    else:
        raise AssertionError("a float64 tensor passed as float * was not an error")
    try:
        numba_cuda = importlib.import_module("numba.cuda")
    except ImportError:
        return
    ny = numba_cuda.to_device(np.ones(n, np.float32))
    f(n, 3.0, numba_cuda.to_device(x), ny)
    np.testing.assert_array_equal(ny.copy_to_host(), want)


CASES = ["saxpy_numpy_and_cupy", "reduction_returned", "host_code_with_cupy_arrays", "runtime_error_is_an_exception",
         "program_drivers_agree_with_expected", "calls_return_before_their_kernels_end", "torch_and_dlpack_like_cupy"]


@pytest.mark.parametrize("case", CASES)
def test_on_the_gpu(case):
    pytest.importorskip("cupy")
    proc = subprocess.run([sys.executable, __file__, case], capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    globals()[sys.argv[1]]()
    print(f"{sys.argv[1]}: ok")
