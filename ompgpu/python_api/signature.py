"""The C signatures Python can call: which functions of a source take arguments that come
from Python (numbers, NumPy and device arrays) and return a number or nothing.

Only functions defined in the source itself count (not the inline functions of headers it
includes). A function whose signature cannot be called keeps the reason, which becomes the
error when it is the one asked for.
"""
from __future__ import annotations

import re
from dataclasses import replace

from pycparser import c_ast

from ompgpu.analysis.symbols import Env, declare, param_decls
from ompgpu.errors import SourceCoord, UnsupportedError
from ompgpu.parser.cfront import ParsedUnit
from ompgpu.python_api.ctypes_model import is_void, pointee_type, scalar_type
from ompgpu.python_api.model import Param, Signature, Signatures


def find_signatures(parsed: ParsedUnit, main_file: str) -> Signatures:
    env = Env()
    callable_: dict[str, Signature] = {}
    refused: dict[str, tuple[str, SourceCoord]] = {}
    defined = {node.decl.name: node for node in parsed.ast.ext if isinstance(node, c_ast.FuncDef)}
    for node in parsed.ast.ext:
        declare(env, node)
        if not isinstance(node, c_ast.FuncDef):
            continue
        coord = parsed.pre.user_coord(node.decl.coord.line, node.decl.coord.column)
        if coord.file != main_file:
            continue
        name = node.decl.name
        try:
            callable_[name] = replace(_signature(node, env.child(), coord),
                                      synchronous_because=why_synchronous(node, defined))
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
            const = "const" in getattr(getattr(p.type, "type", None), "quals", ())
            params.append(Param(p.name, "pointer", elem, ("const " if const else "") + (elem.c_name if elem else "void")
                                + " *", const))
            continue
        raise UnsupportedError(f"parameter '{p.name}' of '{name}' cannot be passed from Python: parameters must be "
                               "arithmetic scalars or pointers to them", coord)
    result = None
    if not is_void(ftype.type, env):
        result = scalar_type(ftype.type, env)
        if result is None:
            raise UnsupportedError(f"'{name}' must return void or an arithmetic type to be called from Python", coord)
    return Signature(name, tuple(params), result)


# ---------------------------------------------------------------------------- returning early

# OpenMP routines a host may call without touching device memory or the order of device work.
_QUERIES = frozenset({
    "omp_get_num_devices", "omp_get_default_device", "omp_get_initial_device", "omp_is_initial_device",
    "omp_get_device_num", "omp_get_wtime", "omp_get_wtick", "omp_get_max_threads", "omp_get_num_threads",
    "omp_get_thread_num", "omp_get_num_procs", "omp_in_parallel", "omp_get_level", "omp_get_num_teams",
    "omp_get_team_num", "omp_get_max_teams", "omp_get_teams_thread_limit", "omp_get_thread_limit"})
# A target construct that runs a kernel (not a data construct), and the clauses that make it a task.
_COMPUTE = re.compile(r"omp\s+target(?!\s+(data|enter|exit|update)\b)\b")
_TASK_CLAUSE = re.compile(r"\b(nowait|depend)\b")


def why_synchronous(fn: c_ast.FuncDef, defined: dict[str, c_ast.FuncDef]) -> str:
    """Why a call of `fn` must wait for its kernels before it returns, or '' when it need not.

    A call returns before its kernels end (as a CuPy launch does) only where nothing it does on
    the host depends on the order of device work beyond its stream: the host code of `fn` and
    of the functions of the source it calls holds target compute constructs (neither `nowait`
    nor `depend`) and no other OpenMP directive, and calls no OpenMP routine but the queries
    above, and no function through a pointer. The runtime adds what only a call can tell: each
    kernel's maps find everything present and copy nothing back (runtime/host/target.cpp)."""
    return _HostEffects(defined).of(fn)


class _HostEffects:
    def __init__(self, defined: dict[str, c_ast.FuncDef]):
        self.defined = defined
        self.seen: dict[str, str] = {}

    def of(self, fn: c_ast.FuncDef) -> str:
        name = fn.decl.name
        if name not in self.seen:
            self.seen[name] = ""   # a recursive call adds nothing new
            self.seen[name] = self._statements(fn.body, name)
        return self.seen[name]

    def _statements(self, node: c_ast.Node, where: str) -> str:
        skip_next = False
        for child in (node.block_items or []) if isinstance(node, c_ast.Compound) else [c for _, c in node.children()]:
            if skip_next:   # a target region's body: device code
                skip_next = False
                continue
            if isinstance(child, c_ast.Pragma):
                text = child.string.strip()
                if not text.startswith("omp"):
                    continue
                if _COMPUTE.match(text) and not _TASK_CLAUSE.search(text):
                    skip_next = True
                    continue
                return f"'{where}' has '#pragma {' '.join(text.split()[:3])}'"
            why = self._expression(child, where) if not isinstance(child, c_ast.Compound) else ""
            why = why or self._statements(child, where)
            if why:
                return why
        return ""

    def _expression(self, node: c_ast.Node, where: str) -> str:
        if not isinstance(node, c_ast.FuncCall):
            return ""
        if not isinstance(node.name, c_ast.ID):
            return f"'{where}' calls a function through a pointer"
        callee = node.name.name
        if callee in self.defined:
            return self.of(self.defined[callee])
        if callee.startswith(("omp_", "ompgpu_")) and callee not in _QUERIES:
            return f"'{where}' calls {callee}"
        return ""
