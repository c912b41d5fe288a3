"""`ompgpu.compile`: a C function with OpenMP target regions, callable from Python."""
from __future__ import annotations

import inspect

from ompgpu.python_api.backends import get_backend
from ompgpu.python_api.frontend import Translation, translate_source
from ompgpu.python_api.runtime import Executor


class CompiledFunction:
    """The callable `ompgpu.compile` returns. Call it with the C function's arguments:
    NumPy or CuPy arrays (or None) for pointer parameters, numbers for scalar ones."""

    def __init__(self, translation: Translation, backend):
        self.translation = translation
        self.backend = backend
        self.module = backend.load(translation)
        self._exec = Executor(backend, self.module)
        plan = translation.plan
        self.__name__ = plan.name
        self.__signature__ = inspect.Signature([inspect.Parameter(p.name, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                                                for p in plan.params])
        params = ", ".join(f"{p.c_type} {p.name}" for p in plan.params) or "void"
        self.__doc__ = f"{plan.result.c_name if plan.result else 'void'} {plan.name}({params}), compiled by ompgpu"

    @property
    def kernels(self) -> tuple[str, ...]:
        """Names of the kernels the function launches, in order."""
        return self.translation.plan.kernels

    @property
    def cuda_source(self) -> str:
        """The generated CUDA (`ompgpu cc --emit-cuda` of the same source)."""
        return self.translation.device_cu

    @property
    def remarks(self) -> tuple[str, ...]:
        """The compiler's remarks (what `-Rpass=ompgpu` prints): each kernel's mode and why."""
        return self.translation.remarks

    def __call__(self, *args, **kwargs):
        return self._exec.call(self.translation.plan, args, kwargs)

    def __repr__(self) -> str:
        return f"<ompgpu function {self.__doc__} on {self.backend.name}>"


def compile(source: str, name: str, options=(), *, backend: str = "cupy", filename: str = "<string>") -> CompiledFunction:  # noqa: A001
    """Compile the C function `name` of `source` (C with OpenMP target directives).

    options: `ompgpu cc` options that apply to one file (-D, -U, -I, -std=, -O, --mode=,
    --offload-arch=). backend: 'cupy' (a GPU, through NVRTC and cupy.RawModule) or 'emu'
    (the CPU device emulator). filename: the name errors give the source. Errors in the C
    source raise `ompgpu.CompileError`, whose text is gcc-style (`<string>:3:5: error: ...`).
    """
    if not isinstance(source, str):
        raise TypeError("source must be a string of C code")
    if not isinstance(name, str) or not name:
        raise TypeError("name must be the name of a function defined in the source")
    b = get_backend(backend)
    return CompiledFunction(translate_source(source, name, options, filename), b)
