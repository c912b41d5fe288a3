"""`ompgpu.compile`: a C function with OpenMP target regions, callable from Python."""
from __future__ import annotations

import ctypes
import inspect

import numpy as np

from ompgpu.errors import OmpgpuError
from ompgpu.python_api.build import CompileError, Module, build_module
from ompgpu.python_api.calls import HostRuntime, array_argument, bind_arguments, block_type, scalar_value

BACKENDS = {"cuda": "cuda", "cupy": "cuda", "emu": "emu"}


class CompiledFunction:
    """The callable `ompgpu.compile` returns. Call it with the C function's arguments:
    NumPy or CuPy arrays (or None) for pointer parameters, numbers for scalar ones."""

    def __init__(self, module: Module, name: str, runtime: HostRuntime):
        try:
            self.signature = module.signatures.get(name)
        except OmpgpuError as exc:
            raise CompileError(exc.message, exc.coord, exc.notes, exc.render()) from None
        self.module, self.runtime = module, runtime
        self._library = runtime.load(module.library)
        self._entry = getattr(self._library, self.signature.entry)
        self._block_type = block_type(self.signature)
        sig = self.signature
        self.__name__ = sig.name
        self.__signature__ = inspect.Signature([inspect.Parameter(p.name, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                                                for p in sig.params])
        params = ", ".join(f"{p.c_type} {p.name}" for p in sig.params) or "void"
        self.__doc__ = f"{sig.result.c_name if sig.result else 'void'} {sig.name}({params}), compiled by ompgpu"

    @property
    def kernels(self) -> tuple[str, ...]:
        """Names of the kernels of the target regions in the function's own body, in order."""
        return tuple(k for f, k in self.module.kernels if f == self.__name__)

    @property
    def cuda_source(self) -> str:
        """The generated CUDA (`ompgpu cc --emit-cuda` of the same source)."""
        return self.module.cuda_source

    @property
    def remarks(self) -> tuple[str, ...]:
        """The compiler's remarks (what `-Rpass=ompgpu` prints): each kernel's mode and why."""
        return self.module.remarks

    def __call__(self, *args, **kwargs):
        sig = self.signature
        block = self._block_type()
        arrays = []
        for i, (p, value) in enumerate(zip(sig.params, bind_arguments(sig, args, kwargs))):
            if p.kind == "scalar":
                setattr(block, f"a{i}", scalar_value(p, value))
                continue
            a = array_argument(p, value)
            if a is not None:
                arrays.append(a)
                setattr(block, f"a{i}", a.address)
        self.runtime.call(ctypes.cast(self._entry, ctypes.c_void_p), block, arrays)
        if sig.result is None:
            return None
        return np.dtype(sig.result.dtype).type(block.result)

    def __repr__(self) -> str:
        return f"<ompgpu function {self.__doc__} on {self.module.offload}>"


def compile(source: str, name: str, options=(), *, backend: str = "cuda", filename: str = "<string>") -> CompiledFunction:  # noqa: A001
    """Compile the C function `name` of `source` (C with OpenMP target directives).

    options: `ompgpu cc` options that apply to one file (-D, -U, -I, -std=, -O, --mode=,
    --offload-arch=, -w). backend: 'cuda' (the GPU; nvcc builds the module; 'cupy' is the same)
    or 'emu' (the CPU device emulator). filename: the name diagnostics give the source.
    Errors in the C source raise `ompgpu.python_api.CompileError`, whose text is gcc-style
    (`<string>:3:5: error: ...`).
    """
    if not isinstance(source, str):
        raise TypeError("source must be a string of C code")
    if not isinstance(name, str) or not name:
        raise TypeError("name must be the name of a function defined in the source")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend '{backend}' (expected 'cuda' or 'emu')")
    offload = BACKENDS[backend]
    runtime = HostRuntime.get(offload)
    return CompiledFunction(build_module(source, options, filename, offload), name, runtime)
