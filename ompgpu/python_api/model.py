"""What the Python API knows of a compiled source, without the compiler: the C types and
signatures Python can call, the module a source became, and the API's errors. Importing this
costs no parser, so that a module found in the cache (cache.py) loads without one.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ompgpu.errors import OmpgpuError, SourceCoord, UnsupportedError
from ompgpu.options import UsageError

ACCEPTED_OPTIONS = ("-D", "-U", "-I", "-std=", "-O", "--mode=", "--offload-arch=", "-w")


@dataclass(frozen=True)
class ScalarType:
    """An arithmetic C type."""

    c_name: str  # canonical spelling: 'int', 'unsigned long', 'double', ...
    dtype: str  # the NumPy dtype with the same representation
    size: int
    is_float: bool
    signed: bool
    ctype: str  # the ctypes type of the same representation ('c_int', ...)

    @property
    def bits(self) -> int:
        return 8 * self.size

    @property
    def int_range(self) -> tuple[int, int]:
        """The values an integer type holds (_Bool: 0 and 1)."""
        if self.c_name == "_Bool":
            return 0, 1
        if self.signed:
            return -(1 << (self.bits - 1)), (1 << (self.bits - 1)) - 1
        return 0, (1 << self.bits) - 1


BOOL = ScalarType("_Bool", "bool", 1, False, False, "c_bool")
CHAR = ScalarType("char", "int8", 1, False, True, "c_byte")
SCHAR = ScalarType("signed char", "int8", 1, False, True, "c_byte")
UCHAR = ScalarType("unsigned char", "uint8", 1, False, False, "c_ubyte")
SHORT = ScalarType("short", "int16", 2, False, True, "c_short")
USHORT = ScalarType("unsigned short", "uint16", 2, False, False, "c_ushort")
INT = ScalarType("int", "int32", 4, False, True, "c_int")
UINT = ScalarType("unsigned int", "uint32", 4, False, False, "c_uint")
LONG = ScalarType("long", "int64", 8, False, True, "c_long")
ULONG = ScalarType("unsigned long", "uint64", 8, False, False, "c_ulong")
LLONG = ScalarType("long long", "int64", 8, False, True, "c_longlong")
ULLONG = ScalarType("unsigned long long", "uint64", 8, False, False, "c_ulonglong")
FLOAT = ScalarType("float", "float32", 4, True, True, "c_float")
DOUBLE = ScalarType("double", "float64", 8, True, True, "c_double")


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # 'scalar' | 'pointer'
    type: ScalarType | None  # the scalar's type, or the pointer's element type (None: void *)
    c_type: str  # for messages: 'int', 'double *', 'void *'
    const: bool = False  # a pointer to const: a read-only array may be passed

    @functools.cached_property
    def dtype(self) -> np.dtype | None:
        """The NumPy dtype of the scalar or of the elements pointed to (None: void *)."""
        return np.dtype(self.type.dtype) if self.type is not None else None


@dataclass(frozen=True)
class Signature:
    name: str
    params: tuple[Param, ...]
    result: ScalarType | None  # None: void
    # Why a call must wait for its kernels before it returns, whatever its arguments ('' when it
    # need not: see why_synchronous).
    synchronous_because: str = ""

    @property
    def entry(self) -> str:
        """The C function the module defines to call it (see templates/entry.c.j2)."""
        return f"__ompgpu_py_entry_{self.name}"


@dataclass(frozen=True)
class Signatures:
    callable: dict[str, Signature]
    # name -> why it cannot be called from Python (with the coordinate to report)
    refused: dict[str, tuple[str, SourceCoord]]

    def get(self, name: str) -> Signature:
        if name in self.callable:
            return self.callable[name]
        if name in self.refused:
            message, coord = self.refused[name]
            raise UnsupportedError(message, coord)
        known = ", ".join(sorted([*self.callable, *self.refused])) or "none"
        raise UnsupportedError(f"no function named '{name}' in the source (functions defined: {known})", None)


class CompileError(OmpgpuError):
    """An error in the C source given to `ompgpu.compile` (str() is the gcc-style report)."""

    def __init__(self, message: str, coord=None, notes: tuple[str, ...] = (), text: str = ""):
        super().__init__(message, coord, notes)
        self.text = text or message

    def __str__(self) -> str:
        return self.text


class CompileFailed(RuntimeError):
    """A compiler that ompgpu runs (the host C compiler, nvcc, the linker) rejected the code
    generated for the source: an ompgpu bug or a C feature the generated code cannot hold."""


@dataclass(frozen=True)
class Module:
    """What one source became."""

    key: str
    filename: str
    offload: str  # 'cuda' | 'emu'
    library: str  # the shared object
    signatures: Signatures
    kernels: tuple[tuple[str, str], ...]  # (function, kernel), in source order
    cuda_source: str
    remarks: tuple[str, ...]
    # Loaded (RTLD_GLOBAL) before the module, which needs them by their sonames: the private
    # libgomp (toolchain.private_gomp).
    preload: tuple[str, ...] = ()


def check_options(options) -> list[str]:
    """The `ompgpu cc` options that make sense for one source string."""
    if isinstance(options, str):
        raise TypeError("options must be a sequence of strings, e.g. ('-DN=100', '--mode=generic')")
    options = [str(o) for o in (options or ())]
    for o in options:
        if not o.startswith(ACCEPTED_OPTIONS):
            raise UsageError(f"option '{o}' is not accepted by ompgpu.compile (accepted: {' '.join(ACCEPTED_OPTIONS)})")
    return options
