"""Python API: OpenMP-annotated C functions compiled by ompgpu and called from Python on
NumPy/CuPy arrays (see docs/PYTHON_API.md).

Importing `ompgpu` must stay cheap for `ompgpu cc`, so this package loads its modules
(NumPy, jinja2, the host runtime) only when `compile` is first called or a name is asked for.
"""
from __future__ import annotations

__all__ = ["compile", "CompiledFunction", "CompileError", "CompileFailed", "OffloadError"]

_WHERE = {"CompiledFunction": "api", "CompileError": "model", "CompileFailed": "model", "OffloadError": "calls"}


def compile(source: str, name: str, options=(), *, backend: str = "cuda", filename: str = "<string>"):  # noqa: A001
    """Compile the C function `name` of `source` and return it as a Python callable.

    See `ompgpu.python_api.api.compile` and docs/PYTHON_API.md."""
    from ompgpu.python_api.api import compile as _compile

    return _compile(source, name, options, backend=backend, filename=filename)


def __getattr__(name: str):
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f"ompgpu.python_api.{_WHERE[name]}"), name)
    raise AttributeError(name)
