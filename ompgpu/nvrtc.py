"""NVRTC, NVIDIA's device compiler as a library, called in-process (issue 35).

A device image compiled here costs one call (no nvcc process chain: no gcc -E, cudafe++, cicc
and ptxas processes), and needs no CUDA toolkit: `pip install 'ompgpu[cuda]'` brings NVRTC as
NVIDIA's wheel. The library is looked up in that wheel (site-packages `nvidia/cu13/lib`, or
the CUDA 12 wheel's `nvidia/cuda_nvrtc/lib`), then in the toolkit that `$CUDA_HOME` or nvcc
names. The C and C++ headers it lacks come from runtime/device/rtc.
"""
from __future__ import annotations

import ctypes
import functools
import os
from dataclasses import dataclass
from pathlib import Path

from ompgpu.errors import ToolchainError
from ompgpu.toolchain import DEVICE_RT, HOST_RT, nvidia_libraries

NVRTC_SUCCESS = 0


def _candidates() -> list[Path]:
    found = nvidia_libraries("libnvrtc.so*", ("cu13/lib", "cuda_nvrtc/lib"))
    return [p for p in found if p.name.count(".") >= 2 and "builtins" not in p.name]


@dataclass(frozen=True)
class CompiledImage:
    cubin: bytes   # for the GPU of -arch
    ptx: bytes     # the same code as PTX, which the driver compiles for a newer GPU
    log: str


class NvrtcError(Exception):
    """NVRTC rejected the device code (the log says why)."""

    def __init__(self, log: str):
        super().__init__(log)
        self.log = log


class Nvrtc:
    def __init__(self, path: Path):
        self.path = path
        lib = ctypes.CDLL(str(path))
        self._lib = lib
        p, c, i, s = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_size_t
        self._sig("nvrtcVersion", [ctypes.POINTER(i), ctypes.POINTER(i)])
        self._sig("nvrtcCreateProgram", [ctypes.POINTER(p), c, c, i, ctypes.POINTER(c), ctypes.POINTER(c)])
        self._sig("nvrtcCompileProgram", [p, i, ctypes.POINTER(c)])
        self._sig("nvrtcGetProgramLogSize", [p, ctypes.POINTER(s)])
        self._sig("nvrtcGetProgramLog", [p, c])
        self._sig("nvrtcGetCUBINSize", [p, ctypes.POINTER(s)])
        self._sig("nvrtcGetCUBIN", [p, c])
        self._sig("nvrtcGetPTXSize", [p, ctypes.POINTER(s)])
        self._sig("nvrtcGetPTX", [p, c])
        self._sig("nvrtcDestroyProgram", [ctypes.POINTER(p)])
        lib.nvrtcGetErrorString.restype = c
        lib.nvrtcGetErrorString.argtypes = [i]
        # NVRTC opens its builtins library (libnvrtc-builtins.so.MAJOR.MINOR) by name at the first
        # compile; a copy of NVRTC without it beside it (some packages ship only the one) loads
        # but cannot compile: such a copy is passed over, and the one found is loaded first, so
        # that NVRTC's own lookup finds it whatever the library path says.
        version = self.version()
        builtins = sorted(path.parent.glob(f"libnvrtc-builtins.so.{version}*"))
        if not builtins:
            raise OSError(f"no libnvrtc-builtins.so.{version} beside {path}")
        self._builtins = ctypes.CDLL(str(builtins[0]), mode=ctypes.RTLD_GLOBAL)

    def _sig(self, name: str, args: list) -> None:
        fn = getattr(self._lib, name)
        fn.restype = ctypes.c_int
        fn.argtypes = args

    def _check(self, status: int, what: str) -> None:
        if status != NVRTC_SUCCESS:
            raise ToolchainError(f"NVRTC ({self.path}): {what} failed: {self._lib.nvrtcGetErrorString(status).decode()}")

    def version(self) -> str:
        major, minor = ctypes.c_int(), ctypes.c_int()
        self._check(self._lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)), "nvrtcVersion")
        return f"{major.value}.{minor.value}"

    def compile(self, source: str, name: str, options: list[str]) -> CompiledImage:
        """The cubin and PTX of `source` (options as nvcc spells them: -arch=sm_90, -I, -D); NvrtcError with
        NVRTC's log where it rejects the code. ctypes lets go of the GIL during the call, so the
        host compile of the same file runs meanwhile."""
        prog = ctypes.c_void_p()
        self._check(self._lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode("utf-8", "surrogateescape"),
                                                 name.encode(), 0, None, None), "nvrtcCreateProgram")
        try:
            encoded = [o.encode("utf-8", "surrogateescape") for o in options]
            argv = (ctypes.c_char_p * len(encoded))(*encoded)
            status = self._lib.nvrtcCompileProgram(prog, len(encoded), argv)
            size = ctypes.c_size_t()
            self._check(self._lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size)), "nvrtcGetProgramLogSize")
            buf = ctypes.create_string_buffer(size.value)
            self._check(self._lib.nvrtcGetProgramLog(prog, buf), "nvrtcGetProgramLog")
            log = buf.value.decode("utf-8", "replace")
            if status != NVRTC_SUCCESS:
                raise NvrtcError(log)
            self._check(self._lib.nvrtcGetCUBINSize(prog, ctypes.byref(size)), "nvrtcGetCUBINSize")
            cubin = ctypes.create_string_buffer(size.value)
            self._check(self._lib.nvrtcGetCUBIN(prog, cubin), "nvrtcGetCUBIN")
            self._check(self._lib.nvrtcGetPTXSize(prog, ctypes.byref(size)), "nvrtcGetPTXSize")
            ptx = ctypes.create_string_buffer(size.value)
            self._check(self._lib.nvrtcGetPTX(prog, ptx), "nvrtcGetPTX")
            return CompiledImage(cubin.raw, ptx.value, log)
        finally:
            self._lib.nvrtcDestroyProgram(ctypes.byref(prog))


# NVRTC's split compilation (its optimizer's passes on every core): a quarter of a bench file's
# NVRTC time on two cores (kmeans 0.40 -> 0.29 s), the same kernels' speed (H100, 2026-11-28,
# every benchmark's ompgpu builds with and without it in one call, kernel time geomean 0.998;
# bench/results/s7-h100-2026-11-28-run5). NVRTC has it from CUDA 12.4 on.
SPLIT_COMPILE_FROM = (12, 4)


def image_options(arch: str, debug: bool = False, version: str = "") -> list[str]:
    """NVRTC's options for a device image of generated code (what nvcc's image compile does,
    in NVRTC's terms): unannotated functions are device functions (the host runtime's header
    declares host functions), OMPGPU_DEVICE_IMAGE leaves out the host side, and ompgpu's
    stand-ins for the C headers come first on the include path. `version`: NVRTC's ("13.0"),
    which decides whether it compiles in parallel."""
    numbers = tuple(int(x) for x in version.split(".") if x.isdigit())
    split = ["-split-compile=0"] if numbers >= SPLIT_COMPILE_FROM else []
    return ["-std=c++17", f"-arch={arch}", "-default-device", "-DOMPGPU_DEVICE_IMAGE", f"-I{DEVICE_RT / 'rtc'}",
            f"-I{DEVICE_RT}", f"-I{HOST_RT}", "-w", *split, *(["-lineinfo"] if debug else [])]


@functools.lru_cache(maxsize=None)
def find_nvrtc() -> Nvrtc | None:
    """NVRTC, or None where no copy loads (OMPGPU_DEVICE_COMPILER=nvcc: None, nvcc compiles)."""
    if os.environ.get("OMPGPU_DEVICE_COMPILER", "") == "nvcc":
        return None
    for path in _candidates():
        try:
            return Nvrtc(path)
        except (OSError, AttributeError):
            continue
    return None
