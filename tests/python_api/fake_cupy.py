"""A stand-in for the parts of CuPy the Python API uses, for machines without a GPU.

Device memory is host memory here (so a test's "kernel", a Python function, can read and
write it through the pointers it is launched with); every call is recorded.
"""
import ctypes
import types

import numpy as np


class FakeDeviceArray:
    """A CuPy-like device array: exposes __cuda_array_interface__, its memory lives on the host."""

    def __init__(self, host: np.ndarray):
        self.host = np.ascontiguousarray(host)
        self.__cuda_array_interface__ = {"shape": self.host.shape, "typestr": self.host.dtype.str,
                                         "data": (self.host.ctypes.data, False), "version": 3, "strides": None}


def view(ptr: int, dtype, n: int) -> np.ndarray:
    """n elements of dtype at a (fake) device address."""
    dt = np.dtype(dtype)
    buf = (ctypes.c_char * (dt.itemsize * n)).from_address(ptr)
    return np.frombuffer(buf, dtype=dt, count=n)


def kernel_params(source: str, kernel: str) -> list[str]:
    """Parameter names of `kernel` in generated CUDA (the kernels take the captures in their order)."""
    import re

    m = re.search(re.escape(kernel) + r"\(([^)]*)\)", source)
    return [re.findall(r"(\w+)$", p.strip())[0] for p in m.group(1).split(",")]


class Recorder:
    def __init__(self, kernels: dict):
        self.kernels = kernels  # name -> python function(args) standing in for the kernel
        self.modules, self.launches, self.copies, self.allocs = [], [], [], []
        self.nvrtc_programs, self.nvrtc_options = [], []

    def modules_dict(self):
        rec = self

        class Memory:
            def __init__(self, n):
                self.buf = np.zeros(n, dtype=np.uint8)
                self.ptr = self.buf.ctypes.data
                rec.allocs.append(n)

        class Function:
            def __init__(self, name):
                self.name = name

            def __call__(self, grid, block, args, shared_mem=0):
                rec.launches.append((self.name, grid, block, args, shared_mem))
                names = kernel_params(rec.nvrtc_programs[-1][0], self.name)
                assert len(names) == len(args)
                rec.kernels[self.name](**dict(zip(names, args)))

        class RawModule:
            def __init__(self, code=None, path=None, options=(), backend="nvrtc", **kw):
                rec.modules.append({"code": code, "path": path, "options": options})

            def get_function(self, name):
                return Function(name)

        def memcpy(dst, src, n, kind):
            rec.copies.append(("to_device" if kind == 1 else "from_device", n))
            ctypes.memmove(dst, src, n)

        class Device:
            def __init__(self, i=0):
                self.compute_capability = "90"

        runtime = types.SimpleNamespace(
            getDevice=lambda: 0, memcpy=memcpy, memcpyHostToDevice=1, memcpyDeviceToHost=2, deviceSynchronize=lambda: None,
            getDeviceProperties=lambda i: {"name": b"Fake H100", "multiProcessorCount": 132,
                                           "maxThreadsPerMultiProcessor": 2048, "maxThreadsPerBlock": 1024})
        cuda = types.SimpleNamespace(runtime=runtime, Device=Device, memory=types.SimpleNamespace(alloc=Memory))
        cupy = types.ModuleType("cupy")
        cupy.cuda, cupy.RawModule = cuda, RawModule

        nvrtc = types.ModuleType("cupy_backends.cuda.libs.nvrtc")
        nvrtc.getVersion = lambda: (13, 0)

        def create(src, name, headers, include_names):
            rec.nvrtc_programs.append((src, name))
            return len(rec.nvrtc_programs)

        def compile_(prog, options):
            rec.nvrtc_options.append(list(options))

        nvrtc.createProgram, nvrtc.compileProgram = create, compile_
        nvrtc.getCUBIN = lambda prog: b"fake cubin"
        nvrtc.getProgramLog = lambda prog: ""
        nvrtc.destroyProgram = lambda prog: None
        libs = types.ModuleType("cupy_backends.cuda.libs")
        libs.nvrtc = nvrtc
        return {"cupy": cupy, "cupy_backends": types.ModuleType("cupy_backends"),
                "cupy_backends.cuda": types.ModuleType("cupy_backends.cuda"), "cupy_backends.cuda.libs": libs,
                "cupy_backends.cuda.libs.nvrtc": nvrtc}
