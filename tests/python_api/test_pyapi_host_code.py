"""ompgpu.compile builds the whole function, host code included, into a module that shares
the process's one host runtime: loops, calls and branches around target regions, data that
stay mapped across functions of different sources, device arrays, runtime errors as
exceptions. On the CPU emulator."""
import ctypes

import numpy as np
import pytest

import ompgpu
from ompgpu.python_api import OffloadError

from .references import jacobi_1d


def emu(source, name, options=()):
    return ompgpu.compile(source, name, options, backend="emu")


JACOBI = r"""
#include <math.h>
static double sweep(int n, double *u, double *v) {
  double diff = 0.0;
  #pragma omp target teams distribute parallel for reduction(max: diff) map(tofrom: diff)
  for (int i = 1; i < n - 1; i++) {
    v[i] = 0.5 * (u[i - 1] + u[i + 1]);
    diff = fmax(diff, fabs(v[i] - u[i]));
  }
  return diff;
}
/* Iterates until the change is below tol: a loop, calls, a branch and a swap on the host. */
int solve(int n, double *u, double *work, double tol, int max_iter) {
  int it = 0;
  double *a = u, *b = work;
  for (int i = 0; i < n; i++) work[i] = u[i];
  #pragma omp target data map(tofrom: a[0:n], b[0:n])
  {
    while (it < max_iter) {
      double d = sweep(n, a, b);
      double *t = a; a = b; b = t;
      it++;
      if (d < tol) break;
    }
  }
  if (a != u)
    for (int i = 0; i < n; i++) u[i] = a[i];
  return it;
}
"""


def test_host_loops_calls_and_branches_around_target_regions():
    solve = emu(JACOBI, "solve")
    u = np.zeros(64)
    u[-1] = 1.0
    want, want_it = jacobi_1d(u, 1e-3, 500)
    got_it = solve(64, u, np.empty(64), 1e-3, 500)
    assert got_it == want_it and 1 < got_it < 500
    np.testing.assert_allclose(u, want, rtol=0, atol=1e-12)
    assert solve.kernels == ()  # the kernel belongs to 'sweep'
    assert emu(JACOBI, "sweep").kernels == ("__omp_offloading_sweep_l5",)


def test_functions_named_like_the_c_library_call_their_own():
    src = r"""
    int step(int x) { return x + 1; }      /* libc has a 'step' (regexp.h) */
    long index(long x) { return 2 * x; }  /* and an 'index' (strings.h) */
    int both(int x) { return step(x) + (int)index(x); }
    """
    assert emu(src, "both")(5) == 16
    assert emu(src, "step")(1) == 2


def test_data_stay_mapped_across_sources():
    open_src = r"""
    void open_(int n, float *a) {
      #pragma omp target enter data map(to: a[0:n])
    }
    void close_(int n, float *a) {
      #pragma omp target exit data map(from: a[0:n])
    }"""
    use_src = r"""
    void bump(int n, float *a) {
      #pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) a[i] += 1.0f;   /* present: mapped by another module */
    }"""
    a = np.zeros(32, dtype=np.float32)
    emu(open_src, "open_")(32, a)
    emu(use_src, "bump")(32, a)
    emu(use_src, "bump")(32, a)
    assert a.sum() == 0  # still only on the device
    emu(open_src, "close_")(32, a)
    np.testing.assert_array_equal(a, np.full(32, 2.0, dtype=np.float32))


def test_if_false_runs_the_region_on_the_host():
    src = r"""
    #include <omp.h>
    int where(int on_device, int *out) {
      #pragma omp target if(on_device) map(from: out[0:1])
      out[0] = omp_is_initial_device();
      return out[0];
    }"""
    out = np.zeros(1, dtype=np.int32)
    assert emu(src, "where")(0, out) == 1
    assert emu(src, "where")(1, out) == 0


class DeviceArray:
    """Device memory of the emulated GPU (omp_target_alloc of the process's runtime), seen
    through __cuda_array_interface__ as CuPy arrays are."""

    def __init__(self, values: np.ndarray, stream=None):
        from ompgpu.python_api.calls import HostRuntime

        lib = HostRuntime.get("emu").lib
        lib.omp_target_alloc.restype, lib.omp_target_alloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t, ctypes.c_int]
        self.lib, self.nbytes, self.dtype, self.size = lib, values.nbytes, values.dtype, values.size
        self.ptr = lib.omp_target_alloc(values.nbytes, 0)
        ctypes.memmove(self.ptr, values.ctypes.data, values.nbytes)  # emulated device memory is host memory
        self.__cuda_array_interface__ = {"shape": values.shape, "typestr": values.dtype.str, "data": (self.ptr, False),
                                         "version": 3, "strides": None, "stream": stream}

    def get(self) -> np.ndarray:
        out = np.empty(self.size, dtype=self.dtype)
        ctypes.memmove(out.ctypes.data, self.ptr, self.nbytes)
        return out


SAXPY = r"""
void saxpy(int n, float a, const float *x, float *y) {
  #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
void saxpy_dev(int n, float a, const float *x, float *y) {
  #pragma omp target teams distribute parallel for is_device_ptr(x, y)
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
"""


def test_device_arrays_are_present_and_never_copied(capfd, monkeypatch):
    x = DeviceArray(np.arange(50, dtype=np.float32))
    y = DeviceArray(np.ones(50, dtype=np.float32))
    f = emu(SAXPY, "saxpy")
    monkeypatch.setenv("OMPGPU_INFO", "1")
    f(50, 2.0, x, y)
    log = capfd.readouterr().err
    assert "kernel __omp_offloading_saxpy_l3" in log and "copy" not in log
    np.testing.assert_array_equal(y.get(), 2 * np.arange(50) + 1)
    emu(SAXPY, "saxpy_dev")(50, 1.0, x, y)
    np.testing.assert_array_equal(y.get(), 3 * np.arange(50) + 1)
    with pytest.raises(OffloadError, match=r"<string>:3:\d+: error: map of 'x\[0:n\]'.* extends past the end of "
                                           r"the device array passed as 'x' \(50 elements\)"):
        f(60, 2.0, x, y)
    # a NumPy array and a device array in one call
    z = np.ones(50, dtype=np.float32)
    f(50, 1.0, x, z)
    np.testing.assert_array_equal(z, np.arange(50) + 1)


def test_calls_on_the_callers_stream_return_before_their_kernels_end(capfd, monkeypatch):
    """A device array's interface names the caller's stream (1: the legacy default stream, as
    CuPy's null stream says): the call's kernel runs on it, and where all its data are present
    and the function's host code has no other effect, the call does not wait for it."""
    f = emu(SAXPY, "saxpy")
    monkeypatch.setenv("OMPGPU_INFO", "1")
    for stream in (1, 2):
        x = DeviceArray(np.arange(50, dtype=np.float32), stream=stream)
        y = DeviceArray(np.ones(50, dtype=np.float32), stream=stream)
        f(50, 2.0, x, y)
        assert "left running on the caller's stream" in capfd.readouterr().err
        np.testing.assert_array_equal(y.get(), 2 * np.arange(50) + 1)
    f(50, 2.0, DeviceArray(np.zeros(50, np.float32)), DeviceArray(np.zeros(50, np.float32)))   # no stream said: waits
    assert "left running" not in capfd.readouterr().err
    z = np.ones(50, dtype=np.float32)                      # host data copied back: the call waits
    f(50, 1.0, x, z)
    assert "left running" not in capfd.readouterr().err
    np.testing.assert_array_equal(z, np.arange(50) + 1)


EFFECTS = r"""
#include <omp.h>
static void scale(int n, float *y) {
  #pragma omp target teams distribute parallel for map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] *= 2;
}
void only_kernels(int n, float *y) { if (omp_get_num_devices() > 0) scale(n, y); scale(n, y); }
void updates(int n, float *y) {
  scale(n, y);
  #pragma omp target update from(y[0:n])
}
static void copy(int n, float *y) { omp_target_memcpy(y, y, 4, 0, 0, 0, 0); }
void calls_memcpy(int n, float *y) { scale(n, y); copy(n, y); }
void nowait(int n, float *y) {
  #pragma omp target nowait map(tofrom: y[0:n])
  y[0] = 1;
  #pragma omp taskwait
}
void host_parallel(int n, float *y) {
  #pragma omp parallel for
  for (int i = 0; i < n; i++) scale(1, y + i);
}
"""


def test_which_calls_may_return_before_their_kernels_end():
    expected = {"only_kernels": "", "updates": "'updates' has '#pragma omp target update'",
                "calls_memcpy": "'copy' calls omp_target_memcpy", "nowait": "'nowait' has '#pragma omp target nowait'",
                "host_parallel": "'host_parallel' has '#pragma omp parallel for'"}
    for name, why in expected.items():
        f = emu(EFFECTS, name)
        assert (f.signature.synchronous_because, f.returns_early) == (why, not why), name
    y = np.ones(8, np.float32)
    emu(EFFECTS, "only_kernels")(8, y)
    np.testing.assert_array_equal(y, 4.0)


class OnlyDLPack:
    """An array that speaks DLPack only (as JAX's do), over host memory or, claiming to be CUDA
    memory, over the emulated device's (which is host memory)."""

    def __init__(self, view: np.ndarray, device_type: int):
        self.view, self.device_type, self.streams = view, device_type, []

    def __dlpack_device__(self):
        return (self.device_type, 0)

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return self.view.__dlpack__()


def test_dlpack_arrays_host_and_device():
    f = emu(SAXPY, "saxpy")
    x = np.arange(50, dtype=np.float32)
    y = np.ones(50, dtype=np.float32)
    f(50, 2.0, OnlyDLPack(x, 1), OnlyDLPack(y, 1))   # kDLCPU: host memory, mapped and copied back
    np.testing.assert_array_equal(y, 2 * x + 1)
    dy = DeviceArray(np.ones(50, dtype=np.float32))
    on_device = np.ctypeslib.as_array((ctypes.c_float * 50).from_address(dy.ptr))
    cuda_y = OnlyDLPack(on_device, 2)                 # kDLCUDA: present, never copied
    f(50, 2.0, DeviceArray(x), cuda_y)
    np.testing.assert_array_equal(dy.get(), 2 * x + 1)
    assert cuda_y.streams == [1]                      # the producer is asked for the legacy default stream
    f(50, 2.0, DeviceArray(x, stream=2), cuda_y)      # ...or for the stream another argument names
    assert cuda_y.streams == [1, 2]
    with pytest.raises(TypeError, match=r"argument 'y' \(float \*\) needs an array of dtype float32, got float64"):
        f(50, 2.0, x, OnlyDLPack(np.ones(50), 1))
    with pytest.raises(ValueError, match="'y': the DLPack tensor is not C-contiguous"):
        f(25, 2.0, x, OnlyDLPack(np.ones(50, np.float32)[::2], 1))
    with pytest.raises(ValueError, match="DLPack device type 7 is neither CUDA nor host memory"):
        f(50, 2.0, x, OnlyDLPack(y, 7))


def test_read_only_arrays_only_for_pointers_to_const():
    f = emu(SAXPY, "saxpy")
    x = np.arange(50, dtype=np.float32)
    x.flags.writeable = False
    y = np.ones(50, dtype=np.float32)
    f(50, 2.0, x, y)                                  # const float *x
    np.testing.assert_array_equal(y, 2 * x + 1)
    with pytest.raises(ValueError, match="'y': the NumPy array is read-only, and 'y' is not a pointer to const"):
        f(50, 2.0, y, x)


def test_a_runtime_error_is_an_exception_and_the_process_goes_on():
    src = r"""
    void need(int n, double *a) {
      #pragma omp target map(present, tofrom: a[0:n])
      a[0] += 1;
    }
    void open_(int n, double *a) {
      #pragma omp target enter data map(to: a[0:n])
    }
    void close_(int n, double *a) {
      #pragma omp target exit data map(from: a[0:n])
    }"""
    a = np.zeros(8)
    with pytest.raises(OffloadError, match=r"<string>:3:\d+: error: 'a\[0:n\]' is not present on device 0"):
        emu(src, "need")(8, a)
    emu(src, "open_")(8, a)
    emu(src, "need")(8, a)
    emu(src, "close_")(8, a)
    assert a[0] == 1


def test_signatures_python_cannot_pass_are_errors():
    from ompgpu.python_api import CompileError

    with pytest.raises(CompileError, match="'f' takes a variable number of arguments"):
        emu("int f(int n, ...) { return n; }", "f")
    with pytest.raises(CompileError, match="'g' must return void or an arithmetic type"):
        emu("struct p { int x; };\nstruct p g(int n) { struct p r = {n}; return r; }", "g")
    with pytest.raises(TypeError, match=r"takes an array \(NumPy, CuPy, PyTorch"):
        emu("void h(double *a) { a[0] = 1; }", "h")([1.0])
