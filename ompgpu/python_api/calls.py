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
import functools
import sys
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
        self._calls: dict[str, dict] = {}   # module path -> module_calls

    def load(self, path: str, preload: tuple[str, ...] = ()) -> ctypes.CDLL:
        """A module, after the libraries it needs by sonames of their own (loaded once, global)."""
        for lib in preload:
            if lib not in self._preloaded:
                self._preloaded[lib] = ctypes.CDLL(lib, mode=ctypes.RTLD_GLOBAL)
        return ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)

    def module_calls(self, library: ctypes.CDLL, path: str, signatures: dict) -> dict:
        """Per function of the module, by name: its Caller (the call Python writes, through ctypes)
        and the Python callable written in C (templates/pycall.c.j2), or None where the module has
        none (this Python had no headers when it was built). Made once per module."""
        if path in self._calls:
            return self._calls[path]
        callers = {name: Caller(sig, getattr(library, sig.entry), self) for name, sig in signatures.items()}
        try:
            address = ctypes.cast(getattr(library, "__ompgpu_py_bind"), ctypes.c_void_p).value
        except AttributeError:
            fast = {}
        else:
            bind = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.py_object)(address)
            cupy = sys.modules.get("cupy")
            functions = {}
            for name, sig in signatures.items():
                result = np.dtype(sig.result.dtype).type if sig.result is not None else None
                functions[name] = (callers[name].call, result, tuple(sig.params),
                                   tuple(p.dtype if p.kind == "pointer" else None for p in sig.params))
            fast = bind({
                "describe": describe_array, "fail": self._fail, "other_stream": lambda s: _other_stream(self, s),
                "cupy_ndarray": cupy.ndarray if cupy is not None else None,
                "cupy_current_stream": cupy.cuda.get_current_stream if cupy is not None else (lambda: None),
                "functions": functions})
        self._calls[path] = {name: (callers[name], fast.get(name)) for name in signatures}
        return self._calls[path]

    def _fail(self):
        raise self.error()

    def error(self) -> OffloadError:
        """The error of this thread's last failed call."""
        text = (self.lib.ompgpu_py_last_error() or b"").decode(errors="replace").rstrip("\n")
        return OffloadError("\n".join(line.removeprefix("ompgpu: ") for line in text.split("\n")))


class Caller:
    """Calls one signature's entry: converts the arguments as C passes them (a number by value,
    an array as its address) and adds what the runtime needs (sizes, kinds, the stream).

    The conversion is a Python function written for the signature (as collections.namedtuple
    writes its class): one test per argument on the common path, no loop, one ctypes call."""

    def __init__(self, sig: Signature, entry, runtime: HostRuntime):
        self.sig, self.runtime = sig, runtime
        argtypes = []
        for p in sig.params:
            if p.kind == "scalar":
                argtypes.append(getattr(ctypes, p.type.ctype))
            else:
                argtypes += [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        argtypes += [ctypes.c_void_p, ctypes.c_int]
        result_type = getattr(ctypes, sig.result.ctype) if sig.result is not None else None
        if result_type is not None:
            argtypes.append(ctypes.POINTER(result_type))
        entry.restype, entry.argtypes = ctypes.c_int, argtypes
        self._entry = entry
        self._flags = 0 if sig.synchronous_because else MAY_RETURN_EARLY
        self.call = _write_call(sig, entry, self._flags, runtime, result_type)


def _write_call(sig: Signature, entry, flags: int, runtime: HostRuntime, result_type):
    """The function that converts a call's arguments and calls the entry (see Caller)."""
    names = [f"v{i}" for i in range(len(sig.params))]
    env = {"entry": entry, "runtime": runtime, "describe_array": describe_array, "STREAM_GIVEN": STREAM_GIVEN,
           "other_stream": _other_stream, "result_type": result_type, "byref": ctypes.byref}
    body, c_args = [], []
    for i, p in enumerate(sig.params):
        v = names[i]
        env[f"p{i}"] = p
        if p.kind == "scalar":
            env[f"slow{i}"] = functools.partial(scalar_value, p)
            t = p.type
            if t.is_float:
                body.append(f"if type({v}) is not float: {v} = slow{i}({v})")
            else:
                lo, hi = t.int_range
                body.append(f"if type({v}) is not int or not {lo} <= {v} <= {hi}: {v} = slow{i}({v})")
            c_args.append(v)
            continue
        body += [f"if {v} is None: a{i} = n{i} = d{i} = 0",
                 "else:",
                 f"    a{i}, n{i}, d{i}, s, k = describe_array(p{i}, {v}, stream)",
                 "    if s is not None:",
                 "        if stream is None: stream = s",
                 "        elif s != stream: other_stream(runtime, s)",
                 "    if k is not None: keep.append(k)"]
        c_args += [f"a{i}", f"n{i}", f"d{i}"]
    c_args += ["stream", f"{flags} | (STREAM_GIVEN if stream is not None else 0)"]
    call = f"entry({', '.join(c_args)}{{}})"
    if result_type is None:
        tail = [f"if {call.format('')}: raise runtime.error()", "return None"]
    else:
        env["result_dtype"] = np.dtype(sig.result.dtype).type
        tail = ["result = result_type()", f"if {call.format(', byref(result)')}: raise runtime.error()",
                "return result_dtype(result.value)"]
    lines = [f"def call({', '.join(names)}):", "    stream = None", "    keep = []   # alive during the call (DLPack)"]
    lines += [f"    {line}" for line in body + tail]
    exec("\n".join(lines), env)   # noqa: S102 - our own text, from the signature's types
    return env["call"]


def _other_stream(runtime: HostRuntime, stream: int) -> None:
    """An array names another stream than the call's (the first array's): its work ends first."""
    runtime.lib.ompgpu_py_wait_stream(stream)


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
        lo, hi = t.int_range
        if not lo <= int(value) <= hi:
            raise OverflowError(f"argument '{p.name}' ({t.c_name}): {value} is out of range")
        return int(value)
    if not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"argument '{p.name}' ({t.c_name}) takes a number, not {type(value).__name__}")
    return float(np.dtype(t.dtype).type(value))
