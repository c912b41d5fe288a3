"""The C signatures Python can call: which functions of a source take arguments that come
from Python (numbers, NumPy and device arrays) and return a number or nothing.

Only functions defined in the source itself count (not the inline functions of headers it
includes). A function whose signature cannot be called keeps the reason, which becomes the
error when it is the one asked for.
"""
from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from ompgpu.analysis.symbols import Env, declare, param_decls
from ompgpu.errors import SourceCoord, UnsupportedError
from ompgpu.parser.cfront import ParsedUnit
from ompgpu.python_api.ctypes_model import ScalarType, is_void, pointee_type, scalar_type


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # 'scalar' | 'pointer'
    type: ScalarType | None  # the scalar's type, or the pointer's element type (None: void *)
    c_type: str  # for messages: 'int', 'double *', 'void *'


@dataclass(frozen=True)
class Signature:
    name: str
    params: tuple[Param, ...]
    result: ScalarType | None  # None: void

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


def find_signatures(parsed: ParsedUnit, main_file: str) -> Signatures:
    env = Env()
    callable_: dict[str, Signature] = {}
    refused: dict[str, tuple[str, SourceCoord]] = {}
    for node in parsed.ast.ext:
        declare(env, node)
        if not isinstance(node, c_ast.FuncDef):
            continue
        coord = parsed.pre.user_coord(node.decl.coord.line, node.decl.coord.column)
        if coord.file != main_file:
            continue
        name = node.decl.name
        try:
            callable_[name] = _signature(node, env.child(), coord)
        except UnsupportedError as exc:
            refused[name] = (exc.message, exc.coord or coord)
    return Signatures(callable_, refused)


def _signature(fn: c_ast.FuncDef, env: Env, coord: SourceCoord) -> Signature:
    name = fn.decl.name
    ftype = fn.decl.type
    if any(isinstance(p, c_ast.EllipsisParam) for p in (ftype.args.params if ftype.args else ())):
        raise UnsupportedError(f"'{name}' takes a variable number of arguments: it cannot be called from Python", coord)
    params = []
    for p in param_decls(fn):
        declare(env, p, is_param=True)
        st = scalar_type(p.type, env)
        if st is not None:
            params.append(Param(p.name, "scalar", st, st.c_name))
            continue
        kind, elem = pointee_type(p.type, env)
        if kind == "pointer":
            params.append(Param(p.name, "pointer", elem, (elem.c_name if elem else "void") + " *"))
            continue
        raise UnsupportedError(f"parameter '{p.name}' of '{name}' cannot be passed from Python: parameters must be "
                               "arithmetic scalars or pointers to them", coord)
    result = None
    if not is_void(ftype.type, env):
        result = scalar_type(ftype.type, env)
        if result is None:
            raise UnsupportedError(f"'{name}' must return void or an arithmetic type to be called from Python", coord)
    return Signature(name, tuple(params), result)
