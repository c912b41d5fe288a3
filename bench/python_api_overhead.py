"""Where the host time of an ompgpu.compile call goes (run on a GPU machine, beside
python_api_timing.py): each piece timed alone, per call, over N calls on CuPy arrays of 1024
float32 (after warm-up; the device synchronised at the end of each loop).

    python3 bench/python_api_overhead.py [N]

- the entry of a function with no target region (ctypes, ompgpu_py_call: extents, device arrays
  entered and left), with arguments ready;
- the same with a target region on is_device_ptr arrays and on mapped (present) arrays;
- what CuPy's own calls cost for comparison: an empty RawKernel launch, cudaEventRecord,
  cudaEventQuery, cudaSetDevice; reading an array's pointer, flags, dtype and the current stream.
"""
import sys
import time

import cupy as cp

import ompgpu

SRC = r"""
void nothing(int n, float a, const float *x, float *y) { }
void saxpy(int n, float a, const float *x, float *y) {
  #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
void saxpy_dev(int n, float a, const float *x, float *y) {
  #pragma omp target teams distribute parallel for is_device_ptr(x, y)
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
"""


def timed(label, fn, reps):
    for _ in range(10):
        fn()
    cp.cuda.runtime.deviceSynchronize()
    t = time.perf_counter()
    for _ in range(reps):
        fn()
    cp.cuda.runtime.deviceSynchronize()
    print(f"{label:55} {(time.perf_counter() - t) / reps * 1e6:8.2f} us")


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    n = 1024
    x, y = cp.ones(n, dtype=cp.float32), cp.ones(n, dtype=cp.float32)
    for name in ("nothing", "saxpy_dev", "saxpy"):
        f = ompgpu.compile(SRC, name)
        c = f._caller
        ready = (n, 2.0, x.data.ptr, x.nbytes, 1, y.data.ptr, y.nbytes, 1, 1, c._flags | 1)
        timed(f"entry of {name}, arguments ready, stream given", lambda: c._entry(*ready), reps)
        ready_no_stream = ready[:-2] + (None, c._flags)
        timed(f"entry of {name}, arguments ready, no stream", lambda: c._entry(*ready_no_stream), reps)
        timed(f"{name}(n, 2.0, x, y)", lambda: f(n, 2.0, x, y), reps)
    empty = cp.RawKernel(r'extern "C" __global__ void empty(int n) {}', "empty")
    timed("cupy RawKernel launch, empty kernel", lambda: empty((4,), (256,), (n,)), reps)
    ev = cp.cuda.Event(disable_timing=True)
    rt = cp.cuda.runtime
    timed("cudaEventRecord (CuPy)", lambda: rt.eventRecord(ev.ptr, 0), reps)
    timed("cudaEventQuery (CuPy)", lambda: rt.eventQuery(ev.ptr), reps)
    timed("cudaSetDevice (CuPy)", lambda: rt.setDevice(0), reps)
    timed("x.data.ptr", lambda: x.data.ptr, reps)
    timed("x.flags.c_contiguous", lambda: x.flags.c_contiguous, reps)
    timed("x.dtype", lambda: x.dtype, reps)
    timed("cupy.cuda.get_current_stream().ptr", lambda: cp.cuda.get_current_stream().ptr, reps)
    timed("x.__cuda_array_interface__", lambda: x.__cuda_array_interface__, reps)


if __name__ == "__main__":
    main()
