"""The directive IR: one frozen dataclass per `#pragma omp` line and per clause.

Produced by `ompgpu.parser.pragma.parse_pragma`; no lark object ever appears here.

Every node carries `coord`, the position of its own first character in the user's file:
a Directive points at its directive name (`target` in `#pragma omp target ...`), a clause at
its keyword, a ListItem at its base identifier, a Section at its `[`, a CExpr at the first
character of the expression.

Every clause has `kind`, the clause name as written in OpenMP ("map", "num_threads",
"reduction", ...); for classes that stand for one clause it is a class attribute, for
classes shared by several clauses (VarListClause, ExprClause, FlagClause, ...) a field.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ompgpu.errors import SourceCoord

__all__ = [
    "CExpr", "Section", "ListItem", "Iterators",
    "Clause", "MapClause", "MotionClause", "VarListClause", "LastprivateClause",
    "ReductionClause", "ExprClause", "ExprListClause", "ScheduleClause", "DistScheduleClause", "DefaultClause",
    "DefaultmapClause", "ProcBindClause", "DependClause", "AffinityClause", "LinearClause", "AlignedClause",
    "OrderClause", "BindClause", "FlagClause", "KeywordClause", "TraitSelector", "MatchClause", "WhenClause", "Directive",
    "AdjustArgsClause", "AppendArgsClause", "InteropClause", "error_directive_form",
    "SINGLE_LEAF_NAMES", "LEAF_WORDS",
]


# ---------------------------------------------------------------------------- operands

@dataclass(frozen=True)
class CExpr:
    """A C expression, kept as source text (a later pass parses it with pycparser)."""

    text: str
    coord: SourceCoord

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Section:
    """One `[...]` of a list item.

    `a[lo:len]` -> lower=lo, length=len, is_range=True (either may be None: `a[:n]`, `a[2:]`);
    `a[i]` -> lower=i, length=None, is_range=False.  `coord` is the `[`.
    """

    lower: CExpr | None
    length: CExpr | None
    is_range: bool
    coord: SourceCoord
    stride: CExpr | None = None  # a[lo:len:stride] (OpenMP 5.0; motion clauses only)


@dataclass(frozen=True)
class ListItem:
    """A variable-list item: `a`, `a[0:n]`, `s.x`, `p->x`, `s.arr[0:n][1:m]`.

    `members` are the accessed member names in order; `accessors` holds '.' or '->' for each
    (parallel to `members`); `arrow` is True when any access is `->`.  `sections` are all the
    `[...]` suffixes in order (in `s.arr[0:n]` they apply to `arr`, the last member before
    them; `text` keeps the item exactly as written for anything more unusual).
    """

    name: str
    members: tuple[str, ...]
    sections: tuple[Section, ...]
    text: str
    coord: SourceCoord
    arrow: bool = False
    accessors: tuple[str, ...] = ()
    # OpenMP 5.0 array shaping `([d1][d2]...)p`: the dimensions given to pointer `p` (the
    # sections, if any, follow the shape); only in depend, affinity and motion clauses
    shape: tuple[CExpr, ...] = ()

    @property
    def written(self) -> str:
        """The item as written, its array shaping included (`text` starts at the name)."""
        return "(" + "".join(f"[{e.text}]" for e in self.shape) + ")" + self.text if self.shape else self.text

    @property
    def is_plain(self) -> bool:
        """A bare identifier (no member access, no subscript/section)."""
        return not self.members and not self.sections

    def __str__(self) -> str:
        return self.text


# ---------------------------------------------------------------------------- clauses

class Clause:
    """Base of all clause classes (each is a frozen dataclass with `kind` and `coord`)."""

    kind: ClassVar[str]
    coord: SourceCoord


@dataclass(frozen=True)
class MapClause(Clause):
    """map([modifiers,] [map_type:] items); `map_type_explicit` False when defaulted."""

    kind: ClassVar[str] = "map"
    map_type: str
    modifiers: tuple[str, ...]
    items: tuple[ListItem, ...]
    coord: SourceCoord
    map_type_explicit: bool = True


@dataclass(frozen=True)
class MotionClause(Clause):
    """to(...) / from(...) of `target update`; modifiers: ('present',) or ()."""

    kind: str
    modifiers: tuple[str, ...]
    items: tuple[ListItem, ...]
    coord: SourceCoord


@dataclass(frozen=True)
class VarListClause(Clause):
    """private, firstprivate, shared, copyin, copyprivate, is_device_ptr, use_device_ptr,
    use_device_addr, has_device_addr, nontemporal, uniform, and declare target's
    to / link / enter."""

    kind: str
    items: tuple[ListItem, ...]
    coord: SourceCoord


@dataclass(frozen=True)
class LastprivateClause(Clause):
    kind: ClassVar[str] = "lastprivate"
    items: tuple[ListItem, ...]
    modifier: str | None  # 'conditional' or None
    coord: SourceCoord


@dataclass(frozen=True)
class ReductionClause(Clause):
    """reduction / in_reduction / task_reduction; op is '+', '-', '*', '&', '|', '^', '&&',
    '||', 'max', 'min' or a user identifier; modifier 'inscan' | 'task' | 'default' | None."""

    kind: str
    op: str
    modifier: str | None
    items: tuple[ListItem, ...]
    coord: SourceCoord


@dataclass(frozen=True)
class ExprClause(Clause):
    """A clause with one expression argument: if, num_teams, thread_limit, num_threads,
    device, collapse, safelen, simdlen, ordered, final, priority, grainsize, num_tasks,
    filter, hint, partial, indirect.  `expr` is None for bare `ordered` / `indirect`.
    `modifier`: the if directive-name modifier ('target data', 'parallel', ...), device's
    'ancestor' | 'device_num', grainsize/num_tasks 'strict'; else None."""

    kind: str
    expr: CExpr | None
    modifier: str | None
    coord: SourceCoord


@dataclass(frozen=True)
class ExprListClause(Clause):
    """A clause with a list of expressions: tile's sizes(e1, ..., en)."""

    kind: str
    exprs: tuple[CExpr, ...]
    coord: SourceCoord


@dataclass(frozen=True)
class ScheduleClause(Clause):
    """schedule([modifiers:] schedule_kind[, chunk]); schedule_kind is
    static | dynamic | guided | auto | runtime (`kind` itself is 'schedule')."""

    kind: ClassVar[str] = "schedule"
    schedule_kind: str
    chunk: CExpr | None
    modifiers: tuple[str, ...]
    coord: SourceCoord


@dataclass(frozen=True)
class DistScheduleClause(Clause):
    """dist_schedule(static[, chunk]) (`kind` itself is 'dist_schedule')."""

    kind: ClassVar[str] = "dist_schedule"
    schedule_kind: str
    chunk: CExpr | None
    coord: SourceCoord


@dataclass(frozen=True)
class DefaultClause(Clause):
    kind: ClassVar[str] = "default"
    value: str  # shared | none | private | firstprivate
    coord: SourceCoord


@dataclass(frozen=True)
class DefaultmapClause(Clause):
    kind: ClassVar[str] = "defaultmap"
    behavior: str
    category: str | None
    coord: SourceCoord

    @property
    def categories(self) -> tuple[str, ...]:
        """The C variable categories the clause covers: without a category (or with `all`) every one."""
        return ("scalar", "aggregate", "pointer") if self.category in (None, "all") else (self.category,)


@dataclass(frozen=True)
class ProcBindClause(Clause):
    kind: ClassVar[str] = "proc_bind"
    value: str  # master | primary | close | spread
    coord: SourceCoord


@dataclass(frozen=True)
class Iterators:
    """The iterator modifier of depend and affinity (OpenMP 5.0): `iterator(int i = 0:n, j = 0:m:2)`.
    `text` is what stands between the parentheses, `names` the iterators it declares, which
    the clause's list items may use."""

    text: str
    names: tuple[str, ...]
    coord: SourceCoord


@dataclass(frozen=True)
class DependClause(Clause):
    """depend([iterator(...),] dep_type: items); dep_type 'source' has no items; 'sink' has
    `sink` exprs."""

    kind: ClassVar[str] = "depend"
    dep_type: str
    items: tuple[ListItem, ...]
    coord: SourceCoord
    sink: tuple[CExpr, ...] = ()
    iterators: Iterators | None = None


@dataclass(frozen=True)
class AffinityClause(Clause):
    """affinity([iterator(...):] items) of task (OpenMP 5.0): a hint where the task's data lives."""

    kind: ClassVar[str] = "affinity"
    items: tuple[ListItem, ...]
    coord: SourceCoord
    iterators: Iterators | None = None


@dataclass(frozen=True)
class LinearClause(Clause):
    """linear([modifier(]items[)] [: step]); modifier val | ref | uval | None.
    The OpenMP 5.2 form `linear(x: step(s), val)` gives the same fields."""

    kind: ClassVar[str] = "linear"
    items: tuple[ListItem, ...]
    step: CExpr | None
    modifier: str | None
    coord: SourceCoord


@dataclass(frozen=True)
class AllocateClause(Clause):
    """allocate([allocator:] items) and its 5.1 allocator()/align() modifiers; on the
    allocate directive, its allocator(...) or align(...) clause (no items)."""

    kind: ClassVar[str] = "allocate"
    items: tuple[ListItem, ...]
    allocator: str | None
    align: CExpr | None
    coord: SourceCoord


@dataclass(frozen=True)
class UsesAllocatorsClause(Clause):
    """uses_allocators(a[(traits)], ...): (allocator, traits array or None) pairs."""

    kind: ClassVar[str] = "uses_allocators"
    allocators: tuple[tuple[str, str | None], ...]
    coord: SourceCoord


@dataclass(frozen=True)
class AlignedClause(Clause):
    kind: ClassVar[str] = "aligned"
    items: tuple[ListItem, ...]
    alignment: CExpr | None
    coord: SourceCoord


@dataclass(frozen=True)
class OrderClause(Clause):
    kind: ClassVar[str] = "order"
    value: str  # concurrent
    coord: SourceCoord
    modifier: str | None = None  # reproducible | unconstrained


@dataclass(frozen=True)
class BindClause(Clause):
    kind: ClassVar[str] = "bind"
    value: str  # teams | parallel | thread
    coord: SourceCoord


@dataclass(frozen=True)
class FlagClause(Clause):
    """An argument-less clause: nowait, untied, mergeable, nogroup, inbranch, notinbranch;
    ordered's threads/simd; atomic's read/write/update/capture/compare/weak; memory orders
    seq_cst/acq_rel/release/acquire/relaxed; requires' unified_shared_memory,
    unified_address, reverse_offload, dynamic_allocators; the construct-type clause of
    cancel / cancellation point (parallel, for, sections, taskgroup)."""

    kind: str
    coord: SourceCoord


@dataclass(frozen=True)
class KeywordClause(Clause):
    """A clause whose argument is one keyword: device_type(host|nohost|any),
    atomic_default_mem_order(seq_cst|acq_rel|relaxed), atomic fail(memory-order)."""

    kind: str
    value: str
    coord: SourceCoord


@dataclass(frozen=True)
class TraitSelector:
    """One trait of a context selector: `kind(gpu)` of `device={kind(gpu)}` has trait_set
    'device', name 'kind', properties ('gpu',). A property is kept as its source text: a
    name, a string literal (quotes included) or an expression (`condition(N > 2)`)."""

    trait_set: str
    name: str
    properties: tuple[CExpr, ...]
    coord: SourceCoord


@dataclass(frozen=True)
class MatchClause(Clause):
    """match(context-selector) of declare variant: its traits in source order."""

    kind: ClassVar[str] = "match"
    traits: tuple[TraitSelector, ...]
    coord: SourceCoord


@dataclass(frozen=True)
class InteropClause(Clause):
    """init([prefer_type(...),] target, targetsync: obj), use(obj) or destroy(obj) of the
    interop construct (OpenMP 5.1); `types` are init's interop types."""

    kind: str
    types: tuple[str, ...]
    item: ListItem
    coord: SourceCoord


@dataclass(frozen=True)
class AdjustArgsClause(Clause):
    """adjust_args(need_device_ptr | nothing: parameters) of declare variant (OpenMP 5.1): how a
    dispatch construct passes those arguments to the variant."""

    kind: ClassVar[str] = "adjust_args"
    operation: str
    items: tuple[ListItem, ...]
    coord: SourceCoord


@dataclass(frozen=True)
class AppendArgsClause(Clause):
    """append_args(interop(...), ...) of declare variant (OpenMP 5.1), kept as its text."""

    kind: ClassVar[str] = "append_args"
    text: str
    coord: SourceCoord


@dataclass(frozen=True)
class WhenClause(Clause):
    """A clause of metadirective: when(traits: variant), or default/otherwise(variant) with no
    traits. `variant` is the directive variant's source text ("" for none: nothing happens),
    `variant_coord` where it starts."""

    kind: str
    traits: tuple[TraitSelector, ...]
    variant: str
    variant_coord: SourceCoord
    coord: SourceCoord


# ---------------------------------------------------------------------------- directive

# Directive names that are one leaf although they have several words.
SINGLE_LEAF_NAMES = frozenset({
    "target data", "target enter data", "target exit data", "target update",
    "declare target", "begin declare target", "end declare target", "declare simd",
    "cancellation point", "declare variant", "begin declare variant", "end declare variant", "declare mapper",
})

# The leaf constructs that combined / composite names split into.
LEAF_WORDS = frozenset({
    "target", "teams", "distribute", "parallel", "for", "simd", "loop", "sections",
    "master", "masked", "taskloop",
})


@dataclass(frozen=True)
class Directive:
    """One `#pragma omp` line.

    `name` is canonical: leaf words joined by single spaces ("target teams distribute
    parallel for simd", "target enter data", "cancellation point").  `items` is the
    parenthesised list of flush(list), declare target(list), threadprivate(list), the
    optional (name) of declare simd and the variant function of declare variant (whose
    `base_name` is set when written `declare variant(base:variant)`). `critical_name` is
    critical's (name).
    """

    name: str
    clauses: tuple[Clause, ...]
    coord: SourceCoord
    critical_name: str | None = None
    items: tuple[ListItem, ...] = ()
    base_name: str | None = None     # declare variant(base:variant): the base function
    # declare mapper: (mapper identifier, 'default' when none is written; the type as written,
    # e.g. 'struct vec' or 'vec_t'); its variable is items[0], its maps the clauses
    mapper: tuple[str, str] | None = None

    @property
    def leaves(self) -> tuple[str, ...]:
        """Leaf constructs: 'target teams distribute' -> ('target', 'teams', 'distribute');
        'target enter data' -> ('target enter data',)."""
        if self.name in SINGLE_LEAF_NAMES:
            return (self.name,)
        return tuple(self.name.split(" "))

    @property
    def is_combined(self) -> bool:
        return len(self.leaves) > 1

    def clause(self, kind: str) -> Clause | None:
        """The first clause of that kind, or None."""
        for c in self.clauses:
            if c.kind == kind:
                return c
        return None

    def if_clause(self, leaf: str) -> Clause | None:
        """The if clause that applies to the leaf construct `leaf` of the directive: one without a
        directive-name modifier, or one whose modifier names that leaf (OpenMP 5.0, 2.15)."""
        for c in self.clauses:
            if c.kind == "if" and getattr(c, "modifier", None) in (None, leaf):
                return c
        return None

    def clauses_of(self, kind: str) -> tuple[Clause, ...]:
        return tuple(c for c in self.clauses if c.kind == kind)

    def has(self, kind: str) -> bool:
        return any(c.kind == kind for c in self.clauses)


def error_directive_form(d: Directive) -> tuple[str, str, str | None]:
    """(at, severity, the message's expression text or None) of an error directive (OpenMP 5.1),
    with the defaults: at(compilation), severity(fatal)."""
    words = {c.kind: c.value for c in d.clauses if c.kind in ("at", "severity")}
    message = d.clause("message")
    return (words.get("at", "compilation"), words.get("severity", "fatal"),
            message.expr.text if message is not None else None)
