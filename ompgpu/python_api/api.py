"""`ompgpu.compile`: a C function with OpenMP target regions, callable from Python."""
from __future__ import annotations

import inspect

from ompgpu.errors import OmpgpuError
from ompgpu.python_api import cache
from ompgpu.python_api.calls import HostRuntime, bind_arguments
from ompgpu.python_api.model import CompileError, Module, check_options

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
        self._library = runtime.load(module.library, module.preload)
        self._caller, fast = runtime.module_calls(self._library, module.library, module.signatures.callable)[name]
        self._arity = len(self.signature.params)
        self._call = fast or self._caller.call
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
        if kwargs or len(args) != self._arity:
            return self._caller.call(*bind_arguments(self.signature, args, kwargs))
        return self._call(*args)

    @property
    def returns_early(self) -> bool:
        """Whether a call may return before its kernels end (where their data are all on the
        device and nothing comes back to host memory), as a CuPy kernel launch does."""
        return not self.signature.synchronous_because

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
    options = check_options(options)
    found = cache.lookup(source, options, filename, offload)   # no compiler import when it is found
    if found is not None:
        return CompiledFunction(found.module, name, HostRuntime.get(offload, found.runtime_library))
    from ompgpu.python_api.build import build_module

    module = build_module(source, options, filename, offload)
    return CompiledFunction(module, name, HostRuntime.get(offload))
