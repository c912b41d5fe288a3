"""Calling a compiled function: the process's host runtime, the arguments, errors.

The host runtime is `ompgpu cc`'s (ompgpu/runtime/host), loaded once per process as a
shared library with RTLD_GLOBAL; every module is loaded after it with RTLD_LOCAL, so the
module's references to the runtime bind to that one library (one present table, one set of
devices and streams for all compiled functions) while the module's own functions and
kernels stay its own.

A call is one ctypes call of the function's entry (templates/entry.c.j2) with the C
arguments, each array's size and kind, and the caller's stream; the entry hands it to the
runtime's `ompgpu_py_call` (runtime/host/embedding.cpp), which gives the runtime the arrays'
extents (a map past the end of one, or a region's use of a NumPy array that is not mapped, is
an error naming the argument), enters each device array in the present table as mapped onto
itself for the call (a `map` of it copies nothing), and runs every construct of the call on
the stream the device arrays name (their `__cuda_array_interface__` "stream": CuPy's or
PyTorch's current stream). Where the function may return before its kernels end
(signature.why_synchronous) and a kernel's data are all present, the call returns as soon as
the kernel is queued, as a CuPy launch does. Arrays are described by arrays.py.
"""
from __future__ import annotations

import ctypes
import threading

import numpy as np

from ompgpu.python_api.arrays import describe_array
from ompgpu.python_api.model import Param, Signature

STREAM_GIVEN = 1        # flags of ompgpu_py_call (runtime/host/embedding.cpp)
MAY_RETURN_EARLY = 2


class OffloadError(RuntimeError):
    """An error of the host runtime while a compiled function ran (a failed map, a bad device
    number, a kernel fault): the runtime's gcc-style text, naming the construct."""


class HostRuntime:
    """The process's host runtime library (one kind per process: the modules of the other
    kind would bind to this one's definitions)."""

    _loaded: "HostRuntime | None" = None
    _lock = threading.Lock()

    @classmethod
    def get(cls, offload: str, library: str | None = None) -> "HostRuntime":
        """The process's runtime (loaded first from `library`, else from where the toolchain keeps it)."""
        with cls._lock:
            if cls._loaded is None:
                cls._loaded = HostRuntime(offload, library)
            elif cls._loaded.offload != offload:
                raise RuntimeError(f"this process already runs compiled functions on the '{cls._loaded.offload}' "
                                   f"backend; one process can use one backend (asked for '{offload}')")
            return cls._loaded

    def __init__(self, offload: str, library: str | None = None):
        self.offload = offload
        if library is None:
            from ompgpu.toolchain import runtime_shared_library

            library = str(runtime_shared_library(offload))
        lib = ctypes.CDLL(library, mode=ctypes.RTLD_GLOBAL)
        lib.ompgpu_py_last_error.restype, lib.ompgpu_py_last_error.argtypes = ctypes.c_char_p, []
        lib.ompgpu_py_wait_stream.restype, lib.ompgpu_py_wait_stream.argtypes = ctypes.c_int, [ctypes.c_void_p]
        self.lib = lib
        self._preloaded: dict[str, ctypes.CDLL] = {}

    def load(self, path: str, preload: tuple[str, ...] = ()) -> ctypes.CDLL:
        """A module, after the libraries it needs by sonames of their own (loaded once, global)."""
        for lib in preload:
            if lib not in self._preloaded:
                self._preloaded[lib] = ctypes.CDLL(lib, mode=ctypes.RTLD_GLOBAL)
        return ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)

    def error(self) -> OffloadError:
        """The error of this thread's last failed call."""
        text = (self.lib.ompgpu_py_last_error() or b"").decode(errors="replace").rstrip("\n")
        return OffloadError("\n".join(line.removeprefix("ompgpu: ") for line in text.split("\n")))


class Caller:
    """Calls one signature's entry: converts the arguments as C passes them (a number by value,
    an array as its address) and adds what the runtime needs (sizes, kinds, the stream)."""

    def __init__(self, sig: Signature, entry, runtime: HostRuntime):
        self.sig, self.runtime = sig, runtime
        argtypes = []
        self._convert = []   # per parameter: value -> the C arguments it becomes
        for p in sig.params:
            if p.kind == "scalar":
                argtypes.append(getattr(ctypes, p.type.ctype))
                self._convert.append(_scalar_converter(p))
            else:
                argtypes += [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
                self._convert.append(None)
        argtypes += [ctypes.c_void_p, ctypes.c_int]
        self._result_type = getattr(ctypes, sig.result.ctype) if sig.result is not None else None
        if self._result_type is not None:
            argtypes.append(ctypes.POINTER(self._result_type))
        entry.restype, entry.argtypes = ctypes.c_int, argtypes
        self._entry = entry
        self._flags = 0 if sig.synchronous_because else MAY_RETURN_EARLY
        self._result_dtype = np.dtype(sig.result.dtype).type if sig.result is not None else None

    def __call__(self, args):
        c_args = []
        keep = []   # what must stay alive during the call (DLPack capsules)
        stream = None
        others = None   # further streams the device arrays name
        for p, convert, value in zip(self.sig.params, self._convert, args):
            if convert is not None:
                c_args.append(convert(value))
                continue
            if value is None:
                c_args += (None, 0, 0)
                continue
            address, nbytes, on_device, array_stream, alive = describe_array(p, value, stream)
            c_args += (address, nbytes, on_device)
            if alive is not None:
                keep.append(alive)
            if array_stream is not None:
                if stream is None:
                    stream = array_stream
                elif array_stream != stream:
                    others = (others or set()) | {array_stream}
        if others:   # the call runs on the first array's stream: the work on the others' ends first
            for s in others:
                self.runtime.lib.ompgpu_py_wait_stream(s)
        flags = self._flags | (STREAM_GIVEN if stream is not None else 0)
        c_args += (stream, flags)
        if self._result_type is None:
            if self._entry(*c_args):
                raise self.runtime.error()
            return None
        result = self._result_type()
        if self._entry(*c_args, ctypes.byref(result)):
            raise self.runtime.error()
        return self._result_dtype(result.value)


def bind_arguments(sig: Signature, args, kwargs) -> list:
    """The arguments in parameter order (Python's rules for positional and keyword ones)."""
    names = [p.name for p in sig.params]
    if len(args) > len(names):
        raise TypeError(f"{sig.name}() takes {len(names)} arguments ({len(args)} given)")
    values = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names:
            raise TypeError(f"{sig.name}() has no parameter '{k}'")
        if k in values:
            raise TypeError(f"{sig.name}() got two values for '{k}'")
        values[k] = v
    missing = [n for n in names if n not in values]
    if missing:
        raise TypeError(f"{sig.name}() is missing argument(s): {', '.join(missing)}")
    return [values[n] for n in names]


def _scalar_converter(p: Param):
    """value -> what ctypes passes for p: Python ints in range and floats go as they are (the
    common case, checked cheaply); anything else through scalar_value."""
    t = p.type
    if t.is_float:
        return lambda v: v if type(v) is float else scalar_value(p, v)
    lo, hi = (-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1) if t.signed else (0, (1 << t.bits) - 1)
    if t.c_name == "_Bool":
        lo, hi = 0, 1
    return lambda v: v if type(v) is int and lo <= v <= hi else scalar_value(p, v)


def scalar_value(p: Param, value):
    t = p.type
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]
    if isinstance(value, (bool, np.bool_)):
        value = int(value)
    if not t.is_float:
        if isinstance(value, (float, np.floating)):
            raise TypeError(f"argument '{p.name}' ({t.c_name}) takes an integer, not {value!r}")
        if not isinstance(value, (int, np.integer)):
            raise TypeError(f"argument '{p.name}' ({t.c_name}) takes an integer, not {type(value).__name__}")
        lo, hi = (-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1) if t.signed else (0, (1 << t.bits) - 1)
        if t.c_name == "_Bool":
            lo, hi = 0, 1
        if not lo <= int(value) <= hi:
            raise OverflowError(f"argument '{p.name}' ({t.c_name}): {value} is out of range")
        return int(value)
    if not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"argument '{p.name}' ({t.c_name}) takes a number, not {type(value).__name__}")
    return float(np.dtype(t.dtype).type(value))
