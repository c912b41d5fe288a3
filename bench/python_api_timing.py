"""What a call of a function compiled by ompgpu.compile costs, beside the same saxpy written
with CuPy (RawKernel, ElementwiseKernel), Numba-CUDA and PyTorch (run on a GPU machine).

    python3 bench/python_api_timing.py [--csv FILE] [--calls N]

Per call: N calls after warm-up with one synchronisation at the end (what a loop of kernel
launches costs a Python program), for n = 1024 and 2^24 float32 elements (12 bytes moved per
element), every implementation on the same arrays and the result of each checked. ompgpu is
called with CuPy arrays and with PyTorch tensors, through `map` clauses (the arrays are found
present) and through `is_device_ptr`. Compile latency: the first `ompgpu.compile` of a source
never seen (in a process that has the runtime library built) and of a cached one, in this
process and in a fresh one. Prints a table; --csv writes the rows (raw).
"""
import argparse
import csv
import random
import subprocess
import sys
import time

import numpy as np

import ompgpu

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
RAW = r"""
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""
SIZES = (1024, 1 << 24)


def compile_latency(rows):
    fresh = SAXPY.replace("a * x[i]", f"a * x[i] + {random.random()!r}f * 0")   # a source never compiled
    t = time.perf_counter()
    ompgpu.compile(fresh, "saxpy")
    first = time.perf_counter() - t
    t = time.perf_counter()
    ompgpu.compile(fresh, "saxpy")
    again = time.perf_counter() - t
    probe = ("import time, numpy, ompgpu; src = open(0).read(); t = time.perf_counter(); "
             "ompgpu.compile(src, 'saxpy'); print(time.perf_counter() - t)")
    other = float(subprocess.run([sys.executable, "-c", probe], input=fresh, capture_output=True, text=True,
                                 check=True).stdout)
    for what, s in (("first compile of new source", first), ("cached, same process", again),
                    ("cached, fresh process (numpy imported)", other)):
        rows.append({"what": "compile", "impl": what, "arrays": "", "n": "", "us_per_call": f"{s * 1e6:.0f}",
                     "ns_per_element": "", "gb_per_s": "", "check": ""})


def breakdown(rows, f, cp, reps):
    """Where an ompgpu call's time goes at n = 1024 on CuPy arrays: describing the arrays
    (Python), the entry's ctypes call with arguments ready (the runtime and the launch), and
    whether a call returns before its kernel ends (n = 2^24, null stream and a stream of its own)."""
    from ompgpu.python_api.arrays import describe_array

    n = 1024
    x, y = cp.ones(n, dtype=cp.float32), cp.ones(n, dtype=cp.float32)
    px, py = f.signature.params[2], f.signature.params[3]
    t = time.perf_counter()
    for _ in range(reps):
        describe_array(px, x, None)
        describe_array(py, y, None)
    described = (time.perf_counter() - t) / reps
    caller = f._caller
    ready = (n, 2.0, x.data.ptr, x.nbytes, 1, y.data.ptr, y.nbytes, 1, 1, caller._flags | 1)
    entry = caller._entry
    dt = per_call(lambda: entry(*ready), cp.cuda.runtime.deviceSynchronize, reps)
    for what, s in (("describe two CuPy arrays", described), ("entry with arguments ready", dt)):
        rows.append({"what": "part", "impl": what, "arrays": "cupy", "n": n, "us_per_call": f"{s * 1e6:.2f}",
                     "ns_per_element": "", "gb_per_s": "", "check": ""})
    n = 1 << 24
    for label, stream in (("null stream", cp.cuda.Stream.null), ("own stream", cp.cuda.Stream(non_blocking=True))):
        with stream:
            x, y = cp.ones(n, dtype=cp.float32), cp.ones(n, dtype=cp.float32)
            f(n, 2.0, x, y)
            stream.synchronize()
            t = time.perf_counter()
            f(n, 2.0, x, y)
            returned = time.perf_counter() - t
            stream.synchronize()
            ended = time.perf_counter() - t
        rows.append({"what": "early", "impl": f"returns / ends, {label}", "arrays": "cupy", "n": n,
                     "us_per_call": f"{returned * 1e6:.1f} / {ended * 1e6:.1f}", "ns_per_element": "", "gb_per_s": "",
                     "check": "early" if returned < 0.5 * ended else "waited"})


def per_call(calls, sync, reps):
    for _ in range(5):
        calls()
    sync()
    t = time.perf_counter()
    for _ in range(reps):
        calls()
    sync()
    return (time.perf_counter() - t) / reps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv")
    ap.add_argument("--calls", type=int, default=2000)
    args = ap.parse_args()
    import cupy as cp

    rows = []
    t = time.perf_counter()
    f = ompgpu.compile(SAXPY, "saxpy")   # in a fresh cache this builds the runtime library too
    rows.append({"what": "compile", "impl": "first of this process", "arrays": "", "n": "",
                 "us_per_call": f"{(time.perf_counter() - t) * 1e6:.0f}", "ns_per_element": "", "gb_per_s": "",
                 "check": ""})
    compile_latency(rows)
    fdev = ompgpu.compile(SAXPY, "saxpy_dev")
    raw = cp.RawKernel(RAW, "saxpy")
    elementwise = cp.ElementwiseKernel("float32 a, float32 x", "float32 y", "y = a * x + y", "saxpy_ew")
    impls = {}   # name -> (arrays, make(n) -> (call, result array to check))
    cp_sync = cp.cuda.runtime.deviceSynchronize

    def cupy_arrays(n):
        return cp.arange(n, dtype=cp.float32) % 1000, cp.ones(n, dtype=cp.float32)

    impls["ompgpu map"] = ("cupy", lambda n, x, y: (lambda: f(n, 2.0, x, y)))
    impls["ompgpu is_device_ptr"] = ("cupy", lambda n, x, y: (lambda: fdev(n, 2.0, x, y)))
    impls["cupy RawKernel"] = ("cupy", lambda n, x, y: (
        lambda: raw(((n + 255) // 256,), (256,), (np.int32(n), np.float32(2.0), x, y))))
    impls["cupy ElementwiseKernel"] = ("cupy", lambda n, x, y: (lambda: elementwise(np.float32(2.0), x, y)))
    try:
        from numba import cuda as numba_cuda

        @numba_cuda.jit
        def numba_saxpy(n, a, x, y):
            i = numba_cuda.grid(1)
            if i < n:
                y[i] = a * x[i] + y[i]

        def numba_call(n, x, y):
            xa, ya = numba_cuda.as_cuda_array(x), numba_cuda.as_cuda_array(y)   # Numba's own arrays, once
            return lambda: numba_saxpy[(n + 255) // 256, 256](n, np.float32(2.0), xa, ya)

        impls["numba-cuda"] = ("cupy", numba_call)
    except ImportError as exc:
        print(f"numba-cuda not measured: {exc}")
    try:
        import torch

        impls["ompgpu map (torch)"] = ("torch", lambda n, x, y: (lambda: f(n, 2.0, x, y)))
        impls["torch add_"] = ("torch", lambda n, x, y: (lambda: y.add_(x, alpha=2.0)))
    except ImportError as exc:
        torch = None
        print(f"PyTorch not measured: {exc}")

    for n in SIZES:
        reps = args.calls if n <= 1 << 16 else max(50, args.calls // 20)
        for name, (kind, make) in impls.items():
            if kind == "torch":
                x = torch.arange(n, dtype=torch.float32, device="cuda") % 1000
                y = torch.ones(n, dtype=torch.float32, device="cuda")
                sync = torch.cuda.synchronize
            else:
                x, y = cupy_arrays(n)
                sync = cp_sync
            call = make(n, x, y)
            try:
                dt = per_call(call, sync, reps)
            except Exception as exc:   # noqa: BLE001 - a peer that does not run here is reported, not fatal
                if name.startswith("ompgpu"):
                    raise
                print(f"{name} not measured: {type(exc).__name__}: {exc}")
                rows.append({"what": "saxpy", "impl": name, "arrays": kind, "n": n, "us_per_call": "",
                             "ns_per_element": "", "gb_per_s": "", "check": f"NOT RUN ({type(exc).__name__})"})
                continue
            # check: one call on fresh ones
            y.fill_(1.0) if kind == "torch" else y.fill(1.0)
            call()
            sync()
            got = y.cpu().numpy() if kind == "torch" else cp.asnumpy(y)
            xs = np.arange(n, dtype=np.float32) % 1000
            ok = bool(np.array_equal(got, 2 * xs + 1))
            rows.append({"what": "saxpy", "impl": name, "arrays": kind, "n": n, "us_per_call": f"{dt * 1e6:.2f}",
                         "ns_per_element": f"{dt * 1e9 / n:.4f}", "gb_per_s": f"{12 * n / dt / 1e9:.1f}",
                         "check": "PASS" if ok else "FAIL"})
    breakdown(rows, f, cp, args.calls)
    width = max(len(r["impl"]) for r in rows)
    for r in rows:
        print(f"{r['what']:8} {r['impl']:{width}} {r['arrays']:6} {str(r['n']):>9} {r['us_per_call']:>10} us "
              f"{r['gb_per_s']:>7} GB/s {r['check']}")
    if args.csv:
        with open(args.csv, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
