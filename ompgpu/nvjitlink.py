"""nvJitLink, NVIDIA's device linker as a library, called in-process (issue 35).

Relocatable device code (device functions and variables that several files share) is linked
here where there is no nvcc: each such file's device code is a relocatable cubin compiled by
NVRTC (-rdc) and kept in its object (device_image.py, section RELOCATABLE_IMAGE_SECTION); the
program's link gathers them and links them into one cubin, which the runtime loads as one module
for all of those files. The library comes from NVIDIA's wheel (`pip install 'ompgpu[cuda]'`:
site-packages `nvidia/cu13/lib`) or the toolkit nvcc belongs to. Its functions carry the ABI's
version in their names (`__nvJitLinkCreate_13_0`); the first of the library's major is used,
which every later release of that major keeps.
"""
from __future__ import annotations

import ctypes
import functools
import re
from pathlib import Path

from ompgpu.errors import ToolchainError
from ompgpu.toolchain import nvidia_libraries

NVJITLINK_SUCCESS = 0
NVJITLINK_INPUT_CUBIN = 1   # nvJitLinkInputType


def _candidates() -> list[Path]:
    return [p for p in nvidia_libraries("libnvJitLink.so*", ("cu13/lib", "nvjitlink/lib")) if re.search(r"\.so\.\d+", p.name)]


class NvJitLinkError(Exception):
    """nvJitLink could not link the inputs (the log says why)."""

    def __init__(self, log: str):
        super().__init__(log)
        self.log = log


class NvJitLink:
    def __init__(self, path: Path):
        self.path = path
        self._lib = ctypes.CDLL(str(path))
        self.major = int(re.search(r"\.so\.(\d+)", path.name).group(1))
        p, c, s, u = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32
        self._create = self._fn("Create", [ctypes.POINTER(p), u, ctypes.POINTER(c)])
        self._destroy = self._fn("Destroy", [ctypes.POINTER(p)])
        self._add_data = self._fn("AddData", [p, ctypes.c_int, ctypes.c_void_p, s, c])
        self._complete = self._fn("Complete", [p])
        self._cubin_size = self._fn("GetLinkedCubinSize", [p, ctypes.POINTER(s)])
        self._cubin = self._fn("GetLinkedCubin", [p, ctypes.c_void_p])
        self._log_size = self._fn("GetErrorLogSize", [p, ctypes.POINTER(s)])
        self._log = self._fn("GetErrorLog", [p, c])

    def _fn(self, name: str, args: list):
        fn = getattr(self._lib, f"__nvJitLink{name}_{self.major}_0")
        fn.restype = ctypes.c_int
        fn.argtypes = args
        return fn

    def link(self, cubins: list[tuple[str, bytes]], arch: str) -> bytes:
        """One cubin for `arch` (sm_90) from relocatable cubins (name, bytes); NvJitLinkError with
        nvJitLink's log where they do not link (an undefined or twice-defined symbol)."""
        handle = ctypes.c_void_p()
        options = [f"-arch={arch}".encode()]
        argv = (ctypes.c_char_p * len(options))(*options)
        status = self._create(ctypes.byref(handle), len(options), argv)
        if status != NVJITLINK_SUCCESS:
            raise ToolchainError(f"nvJitLink ({self.path}): nvJitLinkCreate failed (error {status})")
        try:
            for name, data in cubins:
                buf = ctypes.create_string_buffer(data, len(data))
                if self._add_data(handle, NVJITLINK_INPUT_CUBIN, buf, len(data), name.encode()) != NVJITLINK_SUCCESS:
                    raise NvJitLinkError(self._error_log(handle) or f"nvJitLink rejected {name}")
            if self._complete(handle) != NVJITLINK_SUCCESS:
                raise NvJitLinkError(self._error_log(handle) or "nvJitLink could not link the device code")
            size = ctypes.c_size_t()
            self._cubin_size(handle, ctypes.byref(size))
            out = ctypes.create_string_buffer(size.value)
            self._cubin(handle, out)
            return out.raw
        finally:
            self._destroy(ctypes.byref(handle))

    def _error_log(self, handle) -> str:
        size = ctypes.c_size_t()
        if self._log_size(handle, ctypes.byref(size)) != NVJITLINK_SUCCESS or size.value <= 1:
            return ""
        buf = ctypes.create_string_buffer(size.value)
        self._log(handle, buf)
        return buf.value.decode("utf-8", "replace")


@functools.lru_cache(maxsize=None)
def find_nvjitlink() -> NvJitLink | None:
    """nvJitLink, or None where no copy loads."""
    for path in _candidates():
        try:
            return NvJitLink(path)
        except (OSError, AttributeError):
            continue
    return None
