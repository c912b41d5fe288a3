"""Calling a compiled function: the process's host runtime, arguments, errors.

The host runtime is `ompgpu cc`'s (ompgpu/runtime/host), loaded once per process as a
shared library with RTLD_GLOBAL; every module is loaded after it with RTLD_LOCAL, so the
module's references to the runtime bind to that one library (one present table, one set of
devices and streams for all compiled functions) while the module's own functions and
kernels stay its own.

An argument is passed as C passes it: a number by value, a NumPy array as the address of
its host memory, an array with `__cuda_array_interface__` (CuPy, PyTorch) as its device
address. For the duration of the call, each device array is entered in the present table
as mapped onto itself (omp_target_associate_ptr), so that a `map` of it is found present
and copies nothing; and the extent of each array is given to the runtime, so that a map
past its end, or a target region's use of a NumPy array that is not mapped, is an error
naming the argument rather than a read past the end or a NULL pointer on the device.
"""
from __future__ import annotations

import ctypes
import threading

import numpy as np

from ompgpu.python_api.signature import Param, Signature
from ompgpu.toolchain import runtime_shared_library

MESSAGE_CAPACITY = 1 << 16


class OffloadError(RuntimeError):
    """An error of the host runtime while a compiled function ran (a failed map, a bad device
    number, a kernel fault): the runtime's gcc-style text, naming the construct."""


class HostRuntime:
    """The process's host runtime library (one kind per process: the modules of the other
    kind would bind to this one's definitions)."""

    _loaded: "HostRuntime | None" = None
    _lock = threading.Lock()

    @classmethod
    def get(cls, offload: str) -> "HostRuntime":
        with cls._lock:
            if cls._loaded is None:
                cls._loaded = HostRuntime(offload)
            elif cls._loaded.offload != offload:
                raise RuntimeError(f"this process already runs compiled functions on the '{cls._loaded.offload}' "
                                   f"backend; one process can use one backend (asked for '{offload}')")
            return cls._loaded

    def __init__(self, offload: str):
        self.offload = offload
        lib = ctypes.CDLL(str(runtime_shared_library(offload)), mode=ctypes.RTLD_GLOBAL)
        for name, restype, argtypes in (
                ("ompgpu_call_protected", ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]),
                ("ompgpu_host_extent_add", None, [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]),
                ("ompgpu_host_extents_clear", None, []),
                ("ompgpu_reread_launch_environment", None, []),
                ("omp_get_default_device", ctypes.c_int, []),
                ("omp_target_associate_ptr", ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                                                            ctypes.c_size_t, ctypes.c_int]),
                ("omp_target_disassociate_ptr", ctypes.c_int, [ctypes.c_void_p, ctypes.c_int])):
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = restype, argtypes
        self.lib = lib
        self._buffers = threading.local()  # each calling thread's buffer for a runtime error's text

    def _message_buffer(self):
        buffer = getattr(self._buffers, "message", None)
        if buffer is None:
            buffer = self._buffers.message = ctypes.create_string_buffer(MESSAGE_CAPACITY)
        return buffer

    def load(self, path: str) -> ctypes.CDLL:
        return ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)

    def call(self, entry, block, arrays: list["ArrayArgument"]) -> None:
        """entry(&block) inside ompgpu_call_protected, with the arrays' extents given to the
        runtime and the device arrays present; an error of the runtime raises OffloadError."""
        lib = self.lib
        device = lib.omp_get_default_device()
        associated = []
        lib.ompgpu_reread_launch_environment()  # os.environ may have changed since the last call
        lib.ompgpu_host_extents_clear()
        try:
            for a in arrays:
                lib.ompgpu_host_extent_add(a.address, a.nbytes, a.description.encode())
            for begin, size in _merged([(a.address, a.nbytes) for a in arrays if a.on_device]):
                # Fails where the range is already present (mapped or associated): then it stays as it is.
                if lib.omp_target_associate_ptr(begin, begin, size, 0, device) == 0:
                    associated.append(begin)
            message = self._message_buffer()
            failed = lib.ompgpu_call_protected(entry, ctypes.byref(block), message, MESSAGE_CAPACITY)
        finally:
            for begin in associated:
                lib.omp_target_disassociate_ptr(begin, device)
            lib.ompgpu_host_extents_clear()
        if failed:
            text = message.value.decode(errors="replace").rstrip("\n")
            raise OffloadError("\n".join(line.removeprefix("ompgpu: ") for line in text.split("\n")))


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping or touching [begin, begin+size) ranges joined (views of one device array)."""
    out: list[list[int]] = []
    for begin, size in sorted(r for r in ranges if r[1] > 0):
        if out and begin <= out[-1][0] + out[-1][1]:
            out[-1][1] = max(out[-1][1], begin + size - out[-1][0])
        else:
            out.append([begin, size])
    return [(b, s) for b, s in out]


# ---------------------------------------------------------------------------- arguments

class ArrayArgument:
    def __init__(self, address: int, nbytes: int, on_device: bool, description: str, keep):
        self.address, self.nbytes, self.on_device, self.description = address, nbytes, on_device, description
        self.keep = keep  # the caller's object: its memory stays alive during the call


def block_type(sig: Signature) -> type:
    """The ctypes.Structure of the entry's argument block (templates/entry.c.j2's struct)."""
    fields = [(f"a{i}", ctypes.c_void_p if p.kind == "pointer" else getattr(ctypes, p.type.ctype))
              for i, p in enumerate(sig.params)]
    if sig.result is not None:
        fields.append(("result", getattr(ctypes, sig.result.ctype)))
    fields.append(("unused", ctypes.c_char))
    return type(f"{sig.name}_block", (ctypes.Structure,), {"_fields_": fields})


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
        lo, hi = (-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1) if t.signed else (0, (1 << t.bits) - 1)
        if t.c_name == "_Bool":
            lo, hi = 0, 1
        if not lo <= int(value) <= hi:
            raise OverflowError(f"argument '{p.name}' ({t.c_name}): {value} is out of range")
        return int(value)
    if not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"argument '{p.name}' ({t.c_name}) takes a number, not {type(value).__name__}")
    return float(np.dtype(t.dtype).type(value))


def array_argument(p: Param, value) -> ArrayArgument | None:
    """A pointer parameter's argument: None (NULL), a NumPy array, or a device array."""
    if value is None:
        return None
    if hasattr(value, "__cuda_array_interface__"):
        cai = value.__cuda_array_interface__
        dt = np.dtype(cai["typestr"])
        shape = tuple(cai["shape"])
        strides = cai.get("strides")
        if strides is not None and tuple(strides) != _c_strides(shape, dt.itemsize):
            raise ValueError(f"argument '{p.name}': the device array is not C-contiguous")
        _check_dtype(p, dt)
        n = int(np.prod(shape)) if shape else 1
        return ArrayArgument(int(cai["data"][0]), n * dt.itemsize, True,
                             f"the device array passed as '{p.name}' ({n} elements)", value)
    if isinstance(value, np.ndarray):
        if not value.flags.c_contiguous:
            raise ValueError(f"argument '{p.name}': the NumPy array is not C-contiguous (np.ascontiguousarray makes "
                             "a contiguous copy, but results written to the copy do not reach the original)")
        _check_dtype(p, value.dtype)
        if not value.flags.writeable:
            raise ValueError(f"argument '{p.name}': the NumPy array is read-only")
        return ArrayArgument(value.ctypes.data, value.nbytes, False,
                             f"the array passed as '{p.name}' ({value.size} elements)", value)
    raise TypeError(f"argument '{p.name}' ({p.c_type}) takes a NumPy or CuPy array (or None), not "
                    f"{type(value).__name__}")


def _c_strides(shape, itemsize) -> tuple[int, ...]:
    out, acc = [], itemsize
    for s in reversed(shape):
        out.append(acc)
        acc *= s
    return tuple(reversed(out))


def _check_dtype(p: Param, dt: np.dtype) -> None:
    if p.type is None:
        return
    want = np.dtype(p.type.dtype)
    ok = dt == want or (p.type.c_name == "char" and dt in (np.dtype(np.uint8), np.dtype(np.int8)))
    if not ok:
        raise TypeError(f"argument '{p.name}' ({p.c_type}) needs an array of dtype {want}, got {dt}")
