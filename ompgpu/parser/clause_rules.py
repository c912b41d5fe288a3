"""Clause rules of OpenMP 5.1 that need no symbol table: `check_directive(d)`.

Raises `OmpSemanticError` at the offending clause for: a clause not allowed on the
directive, a unique clause repeated, a non-constant / non-positive collapse, ordered,
safelen or simdlen argument, a chunk on schedule(auto|runtime), a map type the construct
does not allow, a missing required clause (target update, target data, enter/exit data),
an if directive-name-modifier naming no construct of the directive, and a reduction
operator that is not built in (`UnsupportedReductionError`, both an OmpSemanticError and an
UnsupportedError).
"""
from __future__ import annotations

import re

from ompgpu.errors import OmpSemanticError, UnsupportedError

from .directives import (
    Clause, Directive, ExprClause, MapClause, ReductionClause, ScheduleClause,
)

__all__ = ["check_directive", "allowed_clauses", "UnsupportedReductionError", "int_constant"]


class UnsupportedReductionError(UnsupportedError, OmpSemanticError):
    """A user-defined reduction (declare reduction is not supported by ompgpu)."""


_F = frozenset

# Allowed clauses per leaf construct (OpenMP 5.1, plus `if` on teams from 5.2).
_LEAF_CLAUSES: dict[str, frozenset[str]] = {
    "target": _F("if device private firstprivate in_reduction map is_device_ptr has_device_addr "
                 "defaultmap nowait depend allocate uses_allocators thread_limit".split()),
    "target data": _F("if device map use_device_ptr use_device_addr".split()),
    "target enter data": _F("if device map depend nowait".split()),
    "target exit data": _F("if device map depend nowait".split()),
    "target update": _F("if device to from depend nowait".split()),
    "teams": _F("num_teams thread_limit default private firstprivate shared reduction allocate if".split()),
    "distribute": _F("private firstprivate lastprivate collapse dist_schedule allocate order".split()),
    "parallel": _F("if num_threads default private firstprivate shared copyin reduction proc_bind "
                   "allocate".split()),
    "for": _F("private firstprivate lastprivate linear reduction schedule collapse ordered nowait "
              "allocate order".split()),
    "simd": _F("if safelen simdlen linear aligned nontemporal private lastprivate reduction collapse "
               "order".split()),
    "loop": _F("bind collapse order private lastprivate reduction".split()),
    "sections": _F("private firstprivate lastprivate reduction allocate nowait".split()),
    "scope": _F("private firstprivate reduction allocate nowait".split()),
    "section": _F(),
    "single": _F("private firstprivate copyprivate allocate nowait".split()),
    "master": _F(),
    "masked": _F(["filter"]),
    "task": _F("if final untied default mergeable private firstprivate shared in_reduction depend "
               "priority allocate affinity detach".split()),
    "taskloop": _F("if shared private firstprivate lastprivate reduction in_reduction default grainsize "
                   "num_tasks collapse final priority untied mergeable nogroup allocate".split()),
    "taskgroup": _F("task_reduction allocate".split()),
    "taskwait": _F("depend nowait".split()),
    "nothing": _F(),
    "error": _F("at severity message".split()),
    "assume": _F("absent contains holds no_openmp no_openmp_routines no_parallelism ext".split()),
    "assumes": _F("absent contains holds no_openmp no_openmp_routines no_parallelism ext".split()),
    "begin assumes": _F("absent contains holds no_openmp no_openmp_routines no_parallelism ext".split()),
    "end assumes": _F(),
    "interop": _F("init use destroy device depend nowait".split()),
    "dispatch": _F("device depend nowait novariants nocontext is_device_ptr has_device_addr".split()),
    "depobj": _F("depend destroy update".split()),
    "scan": _F("inclusive exclusive".split()),
    "tile": _F(["sizes"]),
    "unroll": _F("full partial".split()),
    "taskyield": _F(),
    "barrier": _F(),
    "critical": _F(["hint"]),
    "atomic": _F("read write update capture compare weak fail seq_cst acq_rel release acquire "
                 "relaxed hint".split()),
    "flush": _F("seq_cst acq_rel release acquire".split()),
    "ordered": _F("threads simd depend".split()),
    "cancel": _F("parallel for sections taskgroup if".split()),
    "cancellation point": _F("parallel for sections taskgroup".split()),
    "declare target": _F("to link enter device_type indirect".split()),
    "begin declare target": _F("device_type indirect".split()),
    "end declare target": _F(),
    "declare simd": _F("simdlen linear aligned uniform inbranch notinbranch".split()),
    "declare variant": _F(["match", "adjust_args", "append_args"]),
    "begin declare variant": _F(["match"]),
    "end declare variant": _F([]),
    "declare mapper": _F(["map"]),
    "metadirective": _F(["when", "default", "otherwise"]),
    "threadprivate": _F(),
    "allocate": _F(["allocate"]),  # the directive's allocator(...) and align(...), as allocate clauses
    "requires": _F("unified_shared_memory unified_address reverse_offload dynamic_allocators "
                   "atomic_default_mem_order".split()),
}

# Clauses that may appear at most once on a directive.
_UNIQUE = _F(
    "sizes full partial num_threads num_teams thread_limit collapse schedule dist_schedule default proc_bind device "
    "ordered safelen simdlen nowait final priority hint filter order bind grainsize num_tasks untied "
    "mergeable nogroup inbranch notinbranch device_type indirect read write update capture compare "
    "weak fail threads simd atomic_default_mem_order unified_shared_memory unified_address "
    "reverse_offload dynamic_allocators novariants nocontext at severity message".split()
)

_MEMORY_ORDERS = _F("seq_cst acq_rel release acquire relaxed".split())
_CONSTRUCT_TYPES = _F("parallel for sections taskgroup".split())
_BUILTIN_REDUCTIONS = _F(["+", "-", "*", "&", "|", "^", "&&", "||", "max", "min"])

_MAP_TYPES = {
    "target enter data": _F(["to", "alloc"]),
    "target exit data": _F(["from", "release", "delete"]),
}
_MAP_TYPES_TARGET = _F(["to", "from", "tofrom", "alloc"])

# If directive-name-modifiers and the leaf each names.
_IF_MODIFIER_LEAF = {
    "target": "target", "target data": "target data", "target enter data": "target enter data",
    "target exit data": "target exit data", "target update": "target update",
    "parallel": "parallel", "simd": "simd", "task": "task", "taskloop": "taskloop",
    "cancel": "cancel", "teams": "teams",
}


def allowed_clauses(d: Directive) -> frozenset[str]:
    """Clause kinds allowed on `d`: the union over its leaves, minus nowait on a combined
    construct whose nowait would belong to an inner worksharing construct."""
    leaves = d.leaves
    allowed: set[str] = set()
    for leaf in leaves:
        allowed |= _LEAF_CLAUSES.get(leaf, frozenset())
    if len(leaves) > 1 and "parallel" in leaves and "target" not in leaves:
        allowed.discard("nowait")
    return frozenset(allowed)


def _err(message: str, clause: Clause | Directive) -> OmpSemanticError:
    return OmpSemanticError(message, clause.coord)


def check_directive(d: Directive) -> None:
    """Raise OmpSemanticError at the first clause that breaks an OpenMP clause rule."""
    allowed = allowed_clauses(d)
    seen: dict[str, Clause] = {}
    for c in d.clauses:
        if c.kind not in allowed:
            raise _err(f"clause '{c.kind}' is not allowed on '{d.name}'", c)
        for item in getattr(c, "items", ()):
            if item.shape and c.kind not in ("depend", "affinity", "to", "from"):
                raise _err(f"array shaping ('{item.written}') is only allowed in depend, affinity and the to "
                           f"and from clauses of target update, not in '{c.kind}'", item)
            if item.shape and len(item.sections) > len(item.shape):
                raise _err(f"'{item.written}' has more subscripts than its shape has dimensions", item)
        if not (d.name == "target update" and c.kind in ("to", "from")):
            for item in getattr(c, "items", ()):
                strided = next((sec for sec in item.sections if sec.stride is not None), None)
                if strided is not None:
                    raise UnsupportedError(f"array section with a stride ('{item.text}') in clause '{c.kind}' is not "
                                           "supported yet (target update's to and from take them)", strided.coord)
        if c.kind in _UNIQUE and c.kind in seen:
            raise _err(f"directive '{d.name}' cannot contain more than one '{c.kind}' clause", c)
        seen.setdefault(c.kind, c)
        _check_clause(d, c)

    _check_if_clauses(d)
    _check_combinations(d)
    if d.name == "unroll" and d.has("full") and d.has("partial"):
        raise _err("'full' and 'partial' cannot both be on 'unroll'", d.clause("partial"))
    _check_inscan(d)


# The constructs an inscan reduction may be on (OpenMP 5.0).
_INSCAN_CONSTRUCTS = _F(["for", "simd", "for simd", "parallel for", "parallel for simd"])


def _check_inscan(d: Directive) -> None:
    inscan = next((c for c in d.clauses if isinstance(c, ReductionClause) and c.modifier == "inscan"), None)
    if inscan is None:
        return
    if d.name not in _INSCAN_CONSTRUCTS:
        raise _err(f"a reduction with the inscan modifier is not allowed on '{d.name}' (only on for, simd, for simd, "
                   "parallel for and parallel for simd)", inscan)
    for kind in ("schedule", "ordered"):
        if d.has(kind):
            raise _err(f"'{kind}' is not allowed together with a reduction with the inscan modifier", d.clause(kind))
    other = next((c for c in d.clauses if isinstance(c, ReductionClause) and c.modifier != "inscan"), None)
    if other is not None:
        raise _err("reductions with and without the inscan modifier cannot be on the same construct", other)


def _check_clause(d: Directive, c: Clause) -> None:
    if isinstance(c, ExprClause):
        if c.kind in ("collapse", "ordered", "safelen", "simdlen") and c.expr is not None:
            v = int_constant(c.expr.text)
            if v is None or v <= 0:
                raise _err(f"argument to '{c.kind}' must be a positive integer constant", c)
        elif c.kind in ("num_threads", "num_teams", "thread_limit", "num_tasks", "grainsize") and c.expr:
            v = int_constant(c.expr.text)
            if v is not None and v <= 0:
                raise _err(f"argument to '{c.kind}' must be positive", c)
    elif isinstance(c, ScheduleClause):
        if c.schedule_kind in ("auto", "runtime") and c.chunk is not None:
            raise _err(f"schedule kind '{c.schedule_kind}' does not take a chunk size", c)
        mods = c.modifiers
        if len(set(mods)) != len(mods):
            raise _err("schedule modifier repeated", c)
        if "monotonic" in mods and "nonmonotonic" in mods:
            raise _err("schedule modifiers 'monotonic' and 'nonmonotonic' are mutually exclusive", c)
        if "nonmonotonic" in mods and c.schedule_kind not in ("dynamic", "guided"):
            raise _err("'nonmonotonic' is only allowed with schedule kind 'dynamic' or 'guided'", c)
        if c.chunk is not None:
            v = int_constant(c.chunk.text)
            if v is not None and v <= 0:
                raise _err("chunk size of 'schedule' must be positive", c)
    elif isinstance(c, MapClause):
        allowed = _MAP_TYPES.get(d.name, _MAP_TYPES_TARGET)
        if not c.map_type_explicit and d.name in _MAP_TYPES:
            raise _err(f"map type must be specified for '{d.name}'", c)
        if c.map_type not in allowed:
            names = ", ".join(f"'{t}'" for t in sorted(allowed))
            raise _err(f"map type '{c.map_type}' is not allowed on '{d.name}' (allowed: {names})", c)
        if len(set(c.modifiers)) != len(c.modifiers):
            raise _err("map-type-modifier repeated in clause 'map'", c)
    elif isinstance(c, ReductionClause):
        if c.op not in _BUILTIN_REDUCTIONS:
            raise UnsupportedReductionError(f"user-defined reduction '{c.op}' is not supported", c.coord)
    elif c.kind == "depend":
        dep_type = getattr(c, "dep_type", "")
        if d.name == "ordered":
            if dep_type not in ("source", "sink"):
                raise _err(f"depend type '{dep_type}' is not allowed on 'ordered' (use source or sink)", c)
        elif dep_type in ("source", "sink"):
            raise _err(f"depend type '{dep_type}' is only allowed on 'ordered'", c)
        if dep_type == "depobj" and getattr(c, "iterators", None) is not None:
            raise _err("the iterator modifier cannot be used with depend type 'depobj'", c)



def _check_if_clauses(d: Directive) -> None:
    leaves = d.leaves
    seen: dict[str | None, Clause] = {}
    for c in d.clauses_of("if"):
        mod = c.modifier  # type: ignore[attr-defined]
        if mod is not None:
            leaf = _IF_MODIFIER_LEAF.get(mod, mod)
            if leaf not in leaves or "if" not in _LEAF_CLAUSES.get(leaf, frozenset()):
                raise _err(f"directive-name-modifier '{mod}' does not name a construct of '{d.name}'", c)
        if mod in seen:
            which = f"with modifier '{mod}'" if mod else "without a directive-name-modifier"
            raise _err(f"directive '{d.name}' cannot contain more than one 'if' clause {which}", c)
        seen[mod] = c


def _check_combinations(d: Directive) -> None:
    name = d.name
    categories: set[str] = set()
    for c in d.clauses_of("defaultmap"):  # one clause per category; none named: all of them
        cats = set(c.categories)  # type: ignore[attr-defined]
        for cat in sorted(cats & categories):
            raise _err(f"more than one defaultmap clause for the {cat} category", c)
        categories |= cats
    if name == "target update" and not (d.has("to") or d.has("from")):
        raise _err("'target update' requires at least one 'to' or 'from' clause", d)
    if name == "target data" and not (d.has("map") or d.has("use_device_ptr") or d.has("use_device_addr")):
        raise _err("'target data' requires at least one 'map', 'use_device_ptr' or 'use_device_addr' clause", d)
    if name in ("target enter data", "target exit data") and not d.has("map"):
        raise _err(f"'{name}' requires at least one 'map' clause", d)
    if d.has("grainsize") and d.has("num_tasks"):
        raise _err("'grainsize' and 'num_tasks' cannot be used together", d.clause("num_tasks"))  # type: ignore[arg-type]
    safelen, simdlen = d.clause("safelen"), d.clause("simdlen")
    if isinstance(safelen, ExprClause) and isinstance(simdlen, ExprClause) and safelen.expr and simdlen.expr:
        a, b = int_constant(safelen.expr.text), int_constant(simdlen.expr.text)
        if a is not None and b is not None and b > a:
            raise _err("the value of 'simdlen' must not be greater than the value of 'safelen'", simdlen)
    collapse, ordered = d.clause("collapse"), d.clause("ordered")
    if isinstance(collapse, ExprClause) and isinstance(ordered, ExprClause) and collapse.expr and ordered.expr:
        a, b = int_constant(collapse.expr.text), int_constant(ordered.expr.text)
        if a is not None and b is not None and b < a:
            raise _err("the argument of 'ordered' must not be less than the argument of 'collapse'", ordered)
    if name == "ordered":
        flags = [c for c in d.clauses if c.kind in ("threads", "simd")]
        if flags and d.has("depend"):
            raise _err("'depend' cannot be combined with 'threads' or 'simd' on 'ordered'", d.clause("depend"))  # type: ignore[arg-type]
    if name == "atomic":
        _check_atomic(d)
    if name in ("flush", "atomic"):
        orders = [c for c in d.clauses if c.kind in _MEMORY_ORDERS]
        if len(orders) > 1:
            raise _err(f"directive '{name}' cannot contain more than one memory-order clause", orders[1])
        if name == "flush" and orders and d.items:
            raise _err("a memory-order clause cannot be combined with a list on 'flush'", orders[0])
    if name in ("declare simd",) and d.has("inbranch") and d.has("notinbranch"):
        raise _err("'inbranch' and 'notinbranch' are mutually exclusive", d.clause("notinbranch"))  # type: ignore[arg-type]


def _check_atomic(d: Directive) -> None:
    kinds = [c for c in d.clauses if c.kind in ("read", "write", "update")]
    if len(kinds) > 1:
        raise _err("directive 'atomic' cannot contain more than one of 'read', 'write', 'update'", kinds[1])
    kind = kinds[0].kind if kinds else None
    has = d.has
    if kind in ("read", "write") and (has("capture") or has("compare")):
        c = d.clause("capture") or d.clause("compare")
        raise _err(f"'{c.kind}' cannot be combined with '{kind}' on 'atomic'", c)  # type: ignore[union-attr]
    if kind == "read" and has("release"):
        raise _err("memory order 'release' is not allowed on 'atomic read'", d.clause("release"))  # type: ignore[arg-type]
    if kind == "write" and has("acquire"):
        raise _err("memory order 'acquire' is not allowed on 'atomic write'", d.clause("acquire"))  # type: ignore[arg-type]
    if (has("fail") or has("weak")) and not has("compare"):
        c = d.clause("fail") or d.clause("weak")
        raise _err(f"'{c.kind}' requires 'compare' on 'atomic'", c)  # type: ignore[union-attr]


# ---------------------------------------------------------------------------- constants

_CONST_TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)[uUlL]*(?![0-9A-Za-z_.])|(<<|>>|[-+*/%()~]))")
_LIMIT = 1 << 64


def int_constant(text: str) -> int | None:
    """Value of a C integer constant expression made of integer literals, parentheses and
    + - * / % << >> ~ (what is left of `N` or `2*N` after the preprocessor); None if it is
    anything else or too large."""
    if len(text) > 200:
        return None
    toks: list[object] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _CONST_TOKEN.match(text, pos)
        if not m or m.end() == pos:
            return None
        pos = m.end()
        if m.group(1) is not None:
            lit = m.group(1)
            try:
                if lit[:2] in ("0x", "0X"):
                    toks.append(int(lit, 16))
                elif lit[:2] in ("0b", "0B"):
                    toks.append(int(lit[2:], 2))
                elif len(lit) > 1 and lit[0] == "0":
                    toks.append(int(lit, 8))
                else:
                    toks.append(int(lit))
            except ValueError:
                return None
        else:
            toks.append(m.group(2))
    try:
        value, i = _additive(toks, 0, 0)
    except _NotConstant:
        return None
    if i != len(toks):
        return None
    return value


class _NotConstant(Exception):
    pass


def _check(v: int) -> int:
    if not -_LIMIT < v < _LIMIT:
        raise _NotConstant
    return v


def _shift(toks, i, depth):
    a, i = _additive(toks, i, depth, shift_level=False)
    while i < len(toks) and toks[i] in ("<<", ">>"):
        op = toks[i]
        b, i = _additive(toks, i + 1, depth, shift_level=False)
        if not 0 <= b < 64:
            raise _NotConstant
        a = _check(a << b if op == "<<" else a >> b)
    return a, i


def _additive(toks, i, depth, shift_level=True):
    if shift_level:
        return _shift(toks, i, depth)
    a, i = _multiplicative(toks, i, depth)
    while i < len(toks) and toks[i] in ("+", "-"):
        op = toks[i]
        b, i = _multiplicative(toks, i + 1, depth)
        a = _check(a + b if op == "+" else a - b)
    return a, i


def _multiplicative(toks, i, depth):
    a, i = _unary(toks, i, depth)
    while i < len(toks) and toks[i] in ("*", "/", "%"):
        op = toks[i]
        b, i = _unary(toks, i + 1, depth)
        if op == "*":
            a = _check(a * b)
        else:
            if b == 0:
                raise _NotConstant
            q = abs(a) // abs(b)
            if (a < 0) != (b < 0):
                q = -q
            a = q if op == "/" else a - q * b
    return a, i


def _unary(toks, i, depth):
    if depth > 40 or i >= len(toks):
        raise _NotConstant
    t = toks[i]
    if t == "-":
        v, i = _unary(toks, i + 1, depth + 1)
        return -v, i
    if t == "+":
        return _unary(toks, i + 1, depth + 1)
    if t == "~":
        v, i = _unary(toks, i + 1, depth + 1)
        return ~v, i
    if t == "(":
        v, i = _additive(toks, i + 1, depth + 1)
        if i >= len(toks) or toks[i] != ")":
            raise _NotConstant
        return v, i + 1
    if isinstance(t, int):
        return t, i + 1
    raise _NotConstant
