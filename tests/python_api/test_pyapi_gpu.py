"""ompgpu.compile with CuPy on a real GPU (marked gpu: skipped without one)."""
import importlib.util
import io
import contextlib
from pathlib import Path

import numpy as np
import pytest

import ompgpu

pytestmark = pytest.mark.gpu
HERE = Path(__file__).resolve().parent

SAXPY = r"""
void saxpy(int n, float a, const float *x, float *y) {
  #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
"""


def test_saxpy_numpy_and_cupy():
    cp = pytest.importorskip("cupy")
    f = ompgpu.compile(SAXPY, "saxpy")
    x = np.arange(1 << 20, dtype=np.float32)
    y = np.ones_like(x)
    f(x.size, 2.0, x, y)
    np.testing.assert_array_equal(y, 2 * x + 1)
    xd, yd = cp.asarray(x), cp.ones(x.size, dtype=cp.float32)
    f(x.size, 2.0, xd, yd)  # device arrays: no copies, results stay on the device
    np.testing.assert_array_equal(cp.asnumpy(yd), 2 * x + 1)


def test_reduction_returned():
    pytest.importorskip("cupy")
    src = r"""
    double dot(int n, const double *x, const double *y) {
      double s = 0.0;
      #pragma omp target teams distribute parallel for reduction(+: s) map(to: x[0:n], y[0:n]) map(tofrom: s)
      for (int i = 0; i < n; i++) s += x[i] * y[i];
      return s;
    }"""
    x = np.arange(10001, dtype=np.float64)
    assert ompgpu.compile(src, "dot")(x.size, x, x) == float(np.dot(x, x))


@pytest.mark.parametrize("name", sorted(p.stem for p in (HERE / "programs").glob("*.py") if p.stem != "run_all"))
def test_program_agrees_with_expected(name):
    pytest.importorskip("cupy")
    spec = importlib.util.spec_from_file_location(f"driver_{name}", HERE / "programs" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        mod.main(lambda src, fn, options=(): ompgpu.compile(src, fn, options))
    assert out.getvalue() == (HERE.parent / "programs" / f"{name}.expected").read_text()
