"""Concrete cases for ompgpu.parser.parse_pragma (grammar, IR, coordinates, diagnostics)."""
from __future__ import annotations

import pytest

from ompgpu.errors import OmpgpuError, OmpSemanticError, OmpSyntaxError, SourceCoord, UnsupportedError
from ompgpu.parser import Directive, parse_pragma
from ompgpu.parser.clause_rules import check_directive, int_constant
from ompgpu.parser.directives import (
    AlignedClause, BindClause, CExpr, DefaultClause, DefaultmapClause, DependClause,
    DistScheduleClause, ExprClause, FlagClause, KeywordClause, LastprivateClause, LinearClause,
    ListItem, MapClause, MotionClause, OrderClause, ProcBindClause, ReductionClause,
    ScheduleClause, Section, VarListClause,
)

BASE = SourceCoord("t.c", 7, 9)  # `#pragma ` occupies columns 1-8


def P(text: str) -> Directive:
    d = parse_pragma(text, BASE)
    assert isinstance(d, Directive)
    return d


def col(text: str, needle: str, start: int = 0) -> int:
    """Column of the first occurrence of needle in text[start:], given BASE."""
    return BASE.col + text.index(needle, start)


def err(text: str, cls=OmpgpuError) -> OmpgpuError:
    with pytest.raises(cls) as ei:
        parse_pragma(text, BASE)
    e = ei.value
    assert isinstance(e, OmpgpuError)
    assert e.coord is not None and e.coord.file == "t.c" and e.coord.line == 7
    return e


# ---------------------------------------------------------------------------- non-omp pragmas

@pytest.mark.parametrize("text", ["once", "GCC diagnostic push", "unroll 4", "ompx foo", "  pack(1)",
                                  "", "   ", "omp_foo bar", "STDC FP_CONTRACT ON", "openmp parallel"])
def test_non_omp_pragmas_return_none(text):
    assert parse_pragma(text, BASE) is None


# ---------------------------------------------------------------------------- directive names

ALL_NAMES = [
    "target", "target data map(x)", "target enter data map(to: x)", "target exit data map(from: x)",
    "target update to(x)", "target parallel", "target parallel for", "target parallel for simd",
    "target parallel loop", "target simd", "target teams", "target teams distribute",
    "target teams distribute simd", "target teams distribute parallel for",
    "target teams distribute parallel for simd", "target teams loop", "teams", "teams distribute",
    "teams distribute simd", "teams distribute parallel for", "teams distribute parallel for simd",
    "teams loop", "distribute", "distribute simd", "distribute parallel for",
    "distribute parallel for simd", "parallel", "parallel for", "parallel for simd", "parallel loop",
    "parallel sections", "parallel master", "parallel masked", "parallel master taskloop",
    "parallel master taskloop simd", "parallel masked taskloop", "parallel masked taskloop simd",
    "for", "for simd", "simd", "loop", "sections", "section", "single", "master", "master taskloop",
    "master taskloop simd", "masked", "masked taskloop", "masked taskloop simd", "task", "taskloop",
    "taskloop simd", "taskgroup", "taskwait", "taskyield", "barrier", "critical", "atomic", "flush",
    "ordered", "cancel parallel", "cancellation point for", "declare target", "begin declare target",
    "end declare target", "declare simd", "threadprivate(x)", "requires unified_shared_memory",
]


@pytest.mark.parametrize("text", ALL_NAMES)
def test_every_directive_name(text):
    d = P("omp " + text)
    special = {"target data map(x)": "target data", "target enter data map(to: x)": "target enter data",
               "target exit data map(from: x)": "target exit data", "target update to(x)": "target update",
               "cancel parallel": "cancel", "cancellation point for": "cancellation point",
               "threadprivate(x)": "threadprivate", "requires unified_shared_memory": "requires"}
    expected = special.get(text, text)
    assert d.name == expected
    assert d.coord == SourceCoord("t.c", 7, BASE.col + 4)


def test_whitespace_is_normalised_in_names():
    d = P("  omp   target\tteams    distribute  parallel for   simd")
    assert d.name == "target teams distribute parallel for simd"
    assert d.coord.col == BASE.col + 8


def test_leaves():
    assert P("omp target teams distribute parallel for simd").leaves == (
        "target", "teams", "distribute", "parallel", "for", "simd")
    assert P("omp target enter data map(to: a)").leaves == ("target enter data",)
    assert P("omp target update from(a)").leaves == ("target update",)
    assert P("omp declare target").leaves == ("declare target",)
    assert P("omp cancellation point parallel").leaves == ("cancellation point",)
    assert P("omp parallel").leaves == ("parallel",)
    assert P("omp parallel master taskloop simd").leaves == ("parallel", "master", "taskloop", "simd")


def test_directive_helpers():
    d = P("omp parallel for private(a) private(b) nowait" .replace(" nowait", ""))
    assert d.has("private") and not d.has("shared")
    assert d.clause("private").items[0].name == "a"
    assert [c.items[0].name for c in d.clauses_of("private")] == ["a", "b"]
    assert d.clause("shared") is None
    assert d.clauses_of("shared") == ()


def test_ir_is_frozen_and_hashable():
    d = P("omp target teams map(to: a[0:n]) num_teams(4)")
    with pytest.raises(Exception):
        d.name = "x"  # type: ignore[misc]
    assert hash(d) == hash(P("omp target teams map(to: a[0:n]) num_teams(4)"))
    assert d == P("omp target teams map(to: a[0:n]) num_teams(4)")


# ---------------------------------------------------------------------------- map

def test_map_basic_and_coords():
    t = "omp target teams map(to: a[0:n]) num_teams(4)"
    d = P(t)
    assert d.name == "target teams"
    m, nt = d.clauses
    assert isinstance(m, MapClause) and m.kind == "map"
    assert m.map_type == "to" and m.modifiers == () and m.map_type_explicit
    assert m.coord == SourceCoord("t.c", 7, col(t, "map"))
    (item,) = m.items
    assert item.name == "a" and item.text == "a[0:n]" and item.coord.col == col(t, "a[")
    (s,) = item.sections
    assert s.is_range and s.lower.text == "0" and s.length.text == "n"
    assert s.coord.col == col(t, "[")
    assert s.lower.coord.col == col(t, "0") and s.length.coord.col == col(t, "n]")
    assert isinstance(nt, ExprClause) and nt.kind == "num_teams" and nt.expr.text == "4"
    assert nt.coord.col == col(t, "num_teams") and nt.expr.coord.col == col(t, "4")


def test_map_default_type():
    m = P("omp target map(a, b)").clause("map")
    assert m.map_type == "tofrom" and not m.map_type_explicit
    assert [i.name for i in m.items] == ["a", "b"]


@pytest.mark.parametrize("mt", ["to", "from", "tofrom", "alloc"])
def test_map_types_on_target(mt):
    assert P(f"omp target map({mt}: x)").clause("map").map_type == mt


@pytest.mark.parametrize("text,mods,mt", [
    ("map(always, to: x)", ("always",), "to"),
    ("map(always to: x)", ("always",), "to"),
    ("map(always, close, tofrom: x)", ("always", "close"), "tofrom"),
    ("map(close present, from: x)", ("close", "present"), "from"),
    ("map(present, alloc: x)", ("present",), "alloc"),
    ("map(present: x)", ("present",), "tofrom"),
])
def test_map_modifiers(text, mods, mt):
    m = P("omp target " + text).clause("map")
    assert m.modifiers == mods and m.map_type == mt


def test_map_enter_exit_types():
    assert P("omp target enter data map(alloc: a[0:n])").clause("map").map_type == "alloc"
    for mt in ("from", "release", "delete"):
        assert P(f"omp target exit data map({mt}: a[0:n]) nowait").clause("map").map_type == mt


def test_keywords_are_identifiers_in_lists_and_exprs():
    d = P("omp target teams map(tofrom: to, from[0:static]) num_teams(to + simd)")
    assert [i.name for i in d.clause("map").items] == ["to", "from"]
    assert d.clause("map").items[1].sections[0].length.text == "static"
    assert d.clause("num_teams").expr.text == "to + simd"
    d = P("omp parallel private(target, parallel, map) shared(teams)")
    assert [i.name for i in d.clause("private").items] == ["target", "parallel", "map"]


# ---------------------------------------------------------------------------- list items

def test_list_items_all_shapes():
    t = "omp target map(tofrom: a, b[i], c[1:n][0:m], s.x, p->y, s.arr[0:n], q->r.s[2], d[:], e[3:])"
    items = P(t).clause("map").items
    names = [(i.name, i.members, i.arrow, i.text) for i in items]
    assert names == [
        ("a", (), False, "a"), ("b", (), False, "b[i]"), ("c", (), False, "c[1:n][0:m]"),
        ("s", ("x",), False, "s.x"), ("p", ("y",), True, "p->y"), ("s", ("arr",), False, "s.arr[0:n]"),
        ("q", ("r", "s"), True, "q->r.s[2]"), ("d", (), False, "d[:]"), ("e", (), False, "e[3:]"),
    ]
    assert items[0].is_plain and not items[1].is_plain
    b = items[1].sections[0]
    assert not b.is_range and b.lower.text == "i" and b.length is None
    c1, c2 = items[2].sections
    assert (c1.lower.text, c1.length.text, c2.lower.text, c2.length.text) == ("1", "n", "0", "m")
    assert items[6].accessors == ("->", ".")
    d = items[7].sections[0]
    assert d.is_range and d.lower is None and d.length is None
    e = items[8].sections[0]
    assert e.is_range and e.lower.text == "3" and e.length is None
    start = t.index("(")
    for it in items:
        assert it.coord.col == col(t, it.text, start)
        start = t.index(it.text, start) + len(it.text)


def test_list_item_whitespace_separated_and_commas():
    d = P("omp parallel private(a b, c\td) firstprivate(x,y)")
    assert [i.name for i in d.clause("private").items] == ["a", "b", "c", "d"]
    assert [i.name for i in d.clause("firstprivate").items] == ["x", "y"]


def test_sections_with_expressions():
    t = "omp target map(to: a[f(i, j) : n*(m+1)][x ? 1 : 2], b[(int)k:sizeof(b)/sizeof(b[0])])"
    a, b = P(t).clause("map").items
    s1, s2 = a.sections
    assert s1.lower.text == "f(i, j)" and s1.length.text == "n*(m+1)"
    assert not s2.is_range and s2.lower.text == "x ? 1 : 2"
    (s3,) = b.sections
    assert s3.lower.text == "(int)k" and s3.length.text == "sizeof(b)/sizeof(b[0])"
    assert s3.length.coord.col == col(t, "sizeof")


# ---------------------------------------------------------------------------- expressions

@pytest.mark.parametrize("expr", [
    "4", "n", "n / 2 + 1", "(int)x", "f(a, b)", "a ? b : c", "x ? (y ? 1 : 2) : 3",
    "a ? b ? 1 : 2 : 3", "sizeof(int) * 8", "p->n", "s.n", "a[i][j]", "*p", "-1 + ~x", "x << 2",
    "omp_get_num_devices() > 0 && use_gpu", "0x10u", "1e3", ".5f", "'a'", "\"s\"[0]", "a[i, j]",
    "g((a, b))", "x == y || z != w", "a->b->c",
])
def test_expression_text_is_captured(expr):
    t = f"omp parallel num_threads({expr})"
    e = P(t).clause("num_threads").expr
    assert isinstance(e, CExpr) and e.text == expr and e.coord.col == col(t, expr, t.index("("))
    assert str(e) == expr


def test_expression_inner_whitespace_kept():
    e = P("omp parallel num_threads(  a  +  b  )").clause("num_threads").expr
    assert e.text == "a  +  b"


# ---------------------------------------------------------------------------- clauses

def test_if_clause_modifiers():
    for mod in ("target", "target data", "target enter data", "target exit data", "target update",
                "parallel", "simd", "task", "taskloop", "cancel"):
        host = {
            "target": "target", "target data": "target data map(a)",
            "target enter data": "target enter data map(to: a)",
            "target exit data": "target exit data map(from: a)", "target update": "target update to(a)",
            "parallel": "parallel", "simd": "simd", "task": "task", "taskloop": "taskloop",
            "cancel": "cancel for",
        }[mod]
        c = P(f"omp {host} if({mod} : n > 0)").clause("if")
        assert c.modifier == mod and c.expr.text == "n > 0"
    c = P("omp target parallel for if(n > 1000)").clause("if")
    assert c.modifier is None and c.expr.text == "n > 1000"
    d = P("omp target parallel for if(target: a) if(parallel: b)")
    assert [c.modifier for c in d.clauses_of("if")] == ["target", "parallel"]


def test_device_clause():
    assert P("omp target device(1)").clause("device").modifier is None
    c = P("omp target device(ancestor: 1)").clause("device")
    assert c.modifier == "ancestor" and c.expr.text == "1"
    assert P("omp target device(device_num: d+1)").clause("device").expr.text == "d+1"


@pytest.mark.parametrize("kind", ["num_teams", "thread_limit"])
def test_teams_expr_clauses(kind):
    c = P(f"omp teams {kind}(n)").clause(kind)
    assert isinstance(c, ExprClause) and c.expr.text == "n"


@pytest.mark.parametrize("text,kind", [
    ("omp parallel num_threads(8)", "num_threads"), ("omp for collapse(2)", "collapse"),
    ("omp simd safelen(8)", "safelen"), ("omp simd simdlen(4)", "simdlen"),
    ("omp task final(d > 3)", "final"), ("omp task priority(2)", "priority"),
    ("omp taskloop grainsize(64)", "grainsize"), ("omp taskloop num_tasks(8)", "num_tasks"),
    ("omp masked filter(1)", "filter"), ("omp critical (x) hint(0)", "hint"),
    ("omp for ordered(1)", "ordered"),
])
def test_expr_clauses(text, kind):
    c = P(text).clause(kind)
    assert isinstance(c, ExprClause) and c.kind == kind and c.expr is not None


def test_grainsize_strict():
    c = P("omp taskloop grainsize(strict: 4)").clause("grainsize")
    assert c.modifier == "strict" and c.expr.text == "4"


def test_ordered_flag_clause():
    c = P("omp for ordered").clause("ordered")
    assert isinstance(c, ExprClause) and c.expr is None


@pytest.mark.parametrize("text,kind,chunk,mods", [
    ("schedule(static)", "static", None, ()),
    ("schedule(static, 4)", "static", "4", ()),
    ("schedule(dynamic, n/8)", "dynamic", "n/8", ()),
    ("schedule(guided)", "guided", None, ()),
    ("schedule(auto)", "auto", None, ()),
    ("schedule(runtime)", "runtime", None, ()),
    ("schedule(monotonic: static, 2)", "static", "2", ("monotonic",)),
    ("schedule(nonmonotonic, simd: dynamic)", "dynamic", None, ("nonmonotonic", "simd")),
    ("schedule(simd: guided, 8)", "guided", "8", ("simd",)),
])
def test_schedule(text, kind, chunk, mods):
    c = P("omp for " + text).clause("schedule")
    assert isinstance(c, ScheduleClause) and c.kind == "schedule"
    assert c.schedule_kind == kind and (c.chunk.text if c.chunk else None) == chunk and c.modifiers == mods


def test_dist_schedule():
    c = P("omp distribute dist_schedule(static, 128)").clause("dist_schedule")
    assert isinstance(c, DistScheduleClause) and c.schedule_kind == "static" and c.chunk.text == "128"
    assert P("omp distribute dist_schedule(static)").clause("dist_schedule").chunk is None


@pytest.mark.parametrize("kind", ["private", "firstprivate", "shared", "copyin"])
def test_varlist_clauses_on_parallel(kind):
    c = P(f"omp parallel {kind}(a, b)").clause(kind)
    assert isinstance(c, VarListClause) and c.kind == kind and len(c.items) == 2


@pytest.mark.parametrize("text,kind", [
    ("omp single copyprivate(x)", "copyprivate"), ("omp target is_device_ptr(p)", "is_device_ptr"),
    ("omp target data use_device_ptr(p)", "use_device_ptr"),
    ("omp target data use_device_addr(a)", "use_device_addr"),
    ("omp target has_device_addr(a)", "has_device_addr"), ("omp simd nontemporal(a, b)", "nontemporal"),
    ("omp declare simd uniform(n)", "uniform"),
])
def test_other_varlist_clauses(text, kind):
    c = P(text).clause(kind)
    assert isinstance(c, VarListClause) and c.kind == kind


def test_lastprivate():
    c = P("omp for lastprivate(x)").clause("lastprivate")
    assert isinstance(c, LastprivateClause) and c.modifier is None and c.items[0].name == "x"
    c = P("omp for lastprivate(conditional: x, y)").clause("lastprivate")
    assert c.modifier == "conditional" and len(c.items) == 2


@pytest.mark.parametrize("op", ["+", "-", "*", "&", "|", "^", "&&", "||", "max", "min"])
def test_reduction_ops(op):
    c = P(f"omp parallel for reduction({op}: s)").clause("reduction")
    assert isinstance(c, ReductionClause) and c.op == op and c.modifier is None
    assert c.items[0].name == "s"


def test_reduction_variants():
    c = P("omp parallel for reduction(task, +: s, t[0:4])").clause("reduction")
    assert c.modifier == "task" and [i.text for i in c.items] == ["s", "t[0:4]"]
    assert P("omp simd reduction(inscan, +: s)").clause("reduction").modifier == "inscan"
    assert P("omp task in_reduction(+: s)").clause("in_reduction").kind == "in_reduction"
    assert P("omp taskgroup task_reduction(*: p)").clause("task_reduction").op == "*"
    assert P("omp parallel reduction(+:a) reduction(max:b)").clauses_of("reduction")[1].op == "max"


def test_default_and_defaultmap():
    for v in ("shared", "none", "private", "firstprivate"):
        c = P(f"omp parallel default({v})").clause("default")
        assert isinstance(c, DefaultClause) and c.value == v
    c = P("omp target defaultmap(tofrom: scalar)").clause("defaultmap")
    assert isinstance(c, DefaultmapClause) and (c.behavior, c.category) == ("tofrom", "scalar")
    c = P("omp target defaultmap(firstprivate)").clause("defaultmap")
    assert (c.behavior, c.category) == ("firstprivate", None)
    for b in ("alloc", "to", "from", "tofrom", "firstprivate", "none", "default", "present"):
        for cat in ("scalar", "aggregate", "pointer", "allocatable"):
            c = P(f"omp target defaultmap({b}:{cat})").clause("defaultmap")
            assert (c.behavior, c.category) == (b, cat)


def test_proc_bind_order_bind():
    for v in ("master", "primary", "close", "spread"):
        c = P(f"omp parallel proc_bind({v})").clause("proc_bind")
        assert isinstance(c, ProcBindClause) and c.value == v
    c = P("omp loop order(concurrent) bind(teams)")
    assert isinstance(c.clause("order"), OrderClause) and c.clause("order").value == "concurrent"
    assert isinstance(c.clause("bind"), BindClause) and c.clause("bind").value == "teams"
    assert P("omp for order(reproducible: concurrent)").clause("order").modifier == "reproducible"
    for v in ("teams", "parallel", "thread"):
        assert P(f"omp loop bind({v})").clause("bind").value == v


def test_depend():
    for t in ("in", "out", "inout", "mutexinoutset", "inoutset"):
        c = P(f"omp task depend({t}: a, b[0:n])").clause("depend")
        assert isinstance(c, DependClause) and c.dep_type == t and len(c.items) == 2
    c = P("omp ordered depend(sink: i-1, j+1)").clause("depend")
    assert c.dep_type == "sink" and [e.text for e in c.sink] == ["i-1", "j+1"]
    c = P("omp ordered depend(source)").clause("depend")
    assert c.dep_type == "source" and c.items == () and c.sink == ()
    assert P("omp target enter data map(to: a) depend(in: a) nowait").has("depend")


def test_linear():
    c = P("omp simd linear(i)").clause("linear")
    assert isinstance(c, LinearClause) and c.step is None and c.modifier is None
    c = P("omp simd linear(i, j: 2)").clause("linear")
    assert c.step.text == "2" and len(c.items) == 2
    c = P("omp declare simd linear(val(x): 4)").clause("linear")
    assert c.modifier == "val" and c.step.text == "4" and c.items[0].name == "x"
    c = P("omp declare simd linear(ref(x))").clause("linear")
    assert c.modifier == "ref" and c.step is None
    c = P("omp simd linear(x: step(s))").clause("linear")
    assert c.step.text == "s" and c.modifier is None
    c = P("omp declare simd linear(x: val, step(2))").clause("linear")
    assert c.step.text == "2" and c.modifier == "val"


def test_aligned():
    c = P("omp simd aligned(a, b: 64)").clause("aligned")
    assert isinstance(c, AlignedClause) and c.alignment.text == "64" and len(c.items) == 2
    assert P("omp simd aligned(a)").clause("aligned").alignment is None


@pytest.mark.parametrize("flag,host", [
    ("nowait", "for"), ("untied", "task"), ("mergeable", "task"), ("nogroup", "taskloop"),
    ("inbranch", "declare simd"), ("notinbranch", "declare simd"),
])
def test_flag_clauses(flag, host):
    c = P(f"omp {host} {flag}").clause(flag)
    assert isinstance(c, FlagClause) and c.kind == flag


def test_motion_clauses():
    d = P("omp target update to(a[0:n]) from(present: b, c.x)")
    to, fr = d.clauses
    assert isinstance(to, MotionClause) and to.kind == "to" and to.modifiers == ()
    assert fr.kind == "from" and fr.modifiers == ("present",) and [i.text for i in fr.items] == ["b", "c.x"]


def test_clause_separators():
    d = P("omp parallel for private(a),firstprivate(b) , shared(c)")
    assert [c.kind for c in d.clauses] == ["private", "firstprivate", "shared"]


def test_clause_coords():
    t = "omp target teams distribute parallel for map(to: x) thread_limit(128) collapse(2) schedule(static, 1)"
    d = P(t)
    for c in d.clauses:
        assert c.coord.col == col(t, c.kind) and c.coord.line == 7


def test_coords_with_multiline_text():
    d = parse_pragma("omp parallel\n  private(a)", SourceCoord("t.c", 3, 9))
    c = d.clause("private")
    assert c.coord.line == 4 and c.coord.col == 3
    assert c.items[0].coord == SourceCoord("t.c", 4, 11)


def test_comments_and_backslash_newlines_ignored():
    d = P("omp parallel /* c */ private(a) \\\n num_threads(2) // tail")
    assert [c.kind for c in d.clauses] == ["private", "num_threads"]


# ---------------------------------------------------------------------------- special directives

def test_critical():
    d = P("omp critical")
    assert d.critical_name is None and d.clauses == ()
    d = P("omp critical(lock_a) hint(omp_sync_hint_contended)")
    assert d.critical_name == "lock_a" and d.clause("hint").expr.text == "omp_sync_hint_contended"
    assert P("omp critical (x)").critical_name == "x"


@pytest.mark.parametrize("text,kinds", [
    ("atomic", []), ("atomic read", ["read"]), ("atomic write", ["write"]),
    ("atomic update", ["update"]), ("atomic capture", ["capture"]),
    ("atomic seq_cst", ["seq_cst"]), ("atomic update seq_cst", ["update", "seq_cst"]),
    ("atomic seq_cst update", ["seq_cst", "update"]), ("atomic acquire read", ["acquire", "read"]),
    ("atomic write, release", ["write", "release"]), ("atomic relaxed", ["relaxed"]),
    ("atomic acq_rel capture", ["acq_rel", "capture"]), ("atomic compare", ["compare"]),
    ("atomic compare capture", ["compare", "capture"]), ("atomic update hint(1)", ["update", "hint"]),
    ("atomic compare fail(acquire)", ["compare", "fail"]), ("atomic compare weak", ["compare", "weak"]),
])
def test_atomic(text, kinds):
    d = P("omp " + text)
    assert d.name == "atomic" and [c.kind for c in d.clauses] == kinds


def test_atomic_fail_value():
    c = P("omp atomic compare fail(relaxed)").clause("fail")
    assert isinstance(c, KeywordClause) and c.value == "relaxed"


def test_flush():
    d = P("omp flush")
    assert d.items == () and d.clauses == ()
    t = "omp flush(a, b)"
    d = P(t)
    assert [i.name for i in d.items] == ["a", "b"] and d.items[1].coord.col == col(t, "b")
    assert P("omp flush acq_rel").clause("acq_rel").kind == "acq_rel"
    assert P("omp flush release").has("release")
    assert P("omp flush seq_cst").has("seq_cst")


def test_ordered():
    assert P("omp ordered").clauses == ()
    assert [c.kind for c in P("omp ordered threads").clauses] == ["threads"]
    assert [c.kind for c in P("omp ordered simd").clauses] == ["simd"]
    assert [c.kind for c in P("omp ordered threads simd").clauses] == ["threads", "simd"]


def test_cancel():
    for ct in ("parallel", "for", "sections", "taskgroup"):
        d = P(f"omp cancel {ct}")
        assert d.name == "cancel" and d.clauses[0] == FlagClause(ct, d.clauses[0].coord)
        d = P(f"omp cancellation point {ct}")
        assert d.name == "cancellation point" and d.clauses[0].kind == ct
    d = P("omp cancel for if(cancel: err != 0)")
    assert d.clause("if").modifier == "cancel"


def test_declare_target_forms():
    d = P("omp declare target")
    assert d.name == "declare target" and d.items == () and d.clauses == ()
    t = "omp declare target(a, b)"
    d = P(t)
    assert [i.name for i in d.items] == ["a", "b"] and d.items[0].coord.col == col(t, "a,")
    d = P("omp declare target to(f, g) link(tbl) device_type(nohost)")
    to, link, dt = d.clauses
    assert isinstance(to, VarListClause) and to.kind == "to" and [i.name for i in to.items] == ["f", "g"]
    assert link.kind == "link" and isinstance(dt, KeywordClause) and dt.value == "nohost"
    d = P("omp declare target enter(f) indirect")
    assert d.clause("enter").items[0].name == "f" and d.clause("indirect").expr is None
    for v in ("host", "nohost", "any"):
        assert P(f"omp declare target device_type({v}) enter(x)").clause("device_type").value == v
    d = P("omp begin declare target device_type(any)")
    assert d.name == "begin declare target" and d.clause("device_type").value == "any"
    assert P("omp begin declare target").clauses == ()
    assert P("omp end declare target").name == "end declare target"


def test_threadprivate():
    d = P("omp threadprivate(x, y)")
    assert d.name == "threadprivate" and [i.name for i in d.items] == ["x", "y"]


def test_requires():
    d = P("omp requires unified_shared_memory, unified_address reverse_offload dynamic_allocators")
    assert [c.kind for c in d.clauses] == ["unified_shared_memory", "unified_address",
                                           "reverse_offload", "dynamic_allocators"]
    c = P("omp requires atomic_default_mem_order(seq_cst)").clause("atomic_default_mem_order")
    assert isinstance(c, KeywordClause) and c.value == "seq_cst"


def test_declare_simd():
    d = P("omp declare simd simdlen(8) uniform(n) linear(i:1) aligned(p:32) notinbranch")
    assert d.name == "declare simd" and [c.kind for c in d.clauses] == [
        "simdlen", "uniform", "linear", "aligned", "notinbranch"]


def test_barrier_taskwait_taskyield():
    assert P("omp barrier").clauses == ()
    assert P("omp taskwait").clauses == ()
    assert P("omp taskwait depend(in: x) nowait").has("nowait")
    assert P("omp taskyield").name == "taskyield"


def test_task_and_taskloop_clauses():
    d = P("omp task if(task: c) final(1) untied mergeable default(shared) private(a) firstprivate(b) "
          "shared(c) depend(out: d) priority(1)")
    assert len(d.clauses) == 10
    d = P("omp taskloop simd grainsize(4) collapse(2) nogroup reduction(+:s) simdlen(4)")
    assert d.name == "taskloop simd" and d.has("simdlen")
    assert P("omp master taskloop num_tasks(3)").name == "master taskloop"


def test_big_combined_construct():
    t = ("omp target teams distribute parallel for simd map(tofrom: a[0:n]) map(to: b[0:n]) "
         "num_teams(nt) thread_limit(256) collapse(2) reduction(+:sum) schedule(static, 4) "
         "dist_schedule(static) private(i) firstprivate(x) lastprivate(y) shared(z) default(shared) "
         "if(target: n > 1) if(parallel: n > 2) if(simd: n > 3) nowait safelen(8) simdlen(4) "
         "linear(k: 1) aligned(a: 64) device(0) is_device_ptr(p) defaultmap(tofrom: scalar) "
         "proc_bind(spread) num_threads(128) depend(in: a) order(concurrent)")
    d = P(t)
    assert len(d.clauses) == 28


# ---------------------------------------------------------------------------- syntax errors

@pytest.mark.parametrize("text,msg,at", [
    ("omp paralel for", "unknown OpenMP directive 'paralel'", "paralel"),
    ("omp parallel for nowiat", "unknown clause 'nowiat' on directive 'parallel for'", "nowiat"),
    ("omp parallel for private(x) nowiat", "unknown clause 'nowiat' on directive 'parallel for'", "nowiat"),
    ("omp parallel num_threads(4", "expected ')' after clause 'num_threads'", None),
    ("omp parallel num_threads(4, 5)", "expected ')' after clause 'num_threads'", ","),
    ("omp parallel num_threads()", "expected expression in clause 'num_threads'", ")"),
    ("omp target map(: a)", "expected map type or list item", ":"),
    ("omp target map()", "expected map type or list item", ")"),
    ("omp target map(to a)", "expected ':'", "a)"),
    ("omp target map(to: a[0:n)", "expected ']'", ")"),
    ("omp target enter map(to: a)", "expected 'data' after 'target enter'", "map"),
    ("omp target enter", "expected 'data' after 'target enter'", None),
    ("omp cancellation", "expected 'point'", None),
    ("omp cancel", "'for', 'parallel', 'sections' or 'taskgroup'", None),
    ("omp declare", "expected 'mapper', 'simd', 'target' or 'variant'", None),
    ("omp", "expected an OpenMP directive name", None),
    ("omp 42", "expected an OpenMP directive name", "42"),
    ("omp parallel private", "expected '(' after 'private'", None),
    ("omp parallel private(", "expected list item in clause 'private'", None),
    ("omp parallel private()", "expected list item in clause 'private'", ")"),
    ("omp parallel private(a -b)", "expected ')' after clause 'private'", "-"),
    ("omp parallel default(foo)", "in clause 'default'", "foo"),
    ("omp for schedule(static,)", "expected expression in clause 'schedule'", ")"),
    ("omp for schedule(fast)", "'static'", "fast"),
    ("omp parallel proc_bind(near)", "in clause 'proc_bind'", "near"),
    ("omp parallel @", "unexpected character '@'", "@"),
    ("omp parallel \"abc", "unexpected character", "\""),
    ("omp parallel \x00", "unexpected character", "\x00"),
    ("omp critical(a", "expected ')'", None),
    ("omp flush(a", "expected ')'", None),
    ("omp target parallel teams", "'target parallel teams' is not a valid OpenMP directive", "teams"),
    ("omp target teams distribute parallel simd", "expected 'for'", "simd"),
    ("omp parallel (x)", "unexpected '('", "("),
    ("omp parallel for reduction(+ x)", "expected ':'", "x)"),
    ("omp requires", "expected clause", None),
    ("omp target teamsx", "unknown clause 'teamsx'", "teamsx"),
    ("omp target update to(a[1:2][)", "expected expression", ")"),
    ("omp parallel private(a) , , shared(b)", "unexpected ','", ", shared"),
    ("omp parallel for, private(a)", "unexpected ','", ","),
    ("omp parallel if(parallel n)", "", "n)"),
    ("omp atomic update update2", "unknown clause 'update2' on directive 'atomic'", "update2"),
])
def test_syntax_errors(text, msg, at):
    e = err(text, OmpSyntaxError)
    assert msg in e.message
    expected_col = BASE.col + (len(text.rstrip()) if at is None else text.index(at, 4))
    assert e.coord.col == expected_col, (e.message, e.coord)


def test_error_renders_gcc_style(tmp_path):
    src = tmp_path / "x.c"
    src.write_text("int main(void) {\n#pragma omp parallel for nowiat\n}\n")
    with pytest.raises(OmpSyntaxError) as ei:
        parse_pragma("omp parallel for nowiat", SourceCoord(str(src), 2, 9))
    out = ei.value.render()
    assert f"{src}:2:26: error: unknown clause 'nowiat'" in out
    assert out.splitlines()[-1] == " " * 25 + "^"


@pytest.mark.parametrize("text", [
    "omp declare reduction(merge: int: omp_out += omp_in)",
])
def test_unsupported_directives(text):
    e = err(text, UnsupportedError)
    assert isinstance(e, OmpSyntaxError)
    assert "not supported" in e.message and e.coord.col == BASE.col + 4


@pytest.mark.parametrize("text,clause", [
    ("omp task detach(ev)", "detach"),
])
def test_unsupported_clauses(text, clause):
    e = err(text, UnsupportedError)
    assert f"clause '{clause}' is not supported" in e.message and e.coord.col == col(text, clause)


def test_huge_input_is_an_error_not_a_crash():
    e = err("omp parallel " + "private(a) " * 20000, OmpSyntaxError)
    assert "too long" in e.message
    d = P("omp parallel " + "private(a) " * 2000)
    assert len(d.clauses) == 2000


def test_deep_nesting():
    d = P("omp parallel num_threads(" + "(" * 3000 + "1" + ")" * 3000 + ")")
    assert d.clause("num_threads").expr.text.count("(") == 3000
    e = err("omp parallel num_threads(" + "(" * 3000, OmpSyntaxError)
    assert "expected ')'" in e.message


# ---------------------------------------------------------------------------- semantic errors

@pytest.mark.parametrize("text,msg,at", [
    ("omp target teams distribute num_threads(4)",
     "clause 'num_threads' is not allowed on 'target teams distribute'", "num_threads"),
    ("omp for nowait nowait", "more than one 'nowait'", "nowait"),
    ("omp parallel for simd nowait", "clause 'nowait' is not allowed on 'parallel for simd'", "nowait"),
    ("omp teams distribute parallel for nowait", "not allowed", "nowait"),
    ("omp parallel num_threads(2) num_threads(4)", "more than one 'num_threads'", "num_threads(4)"),
    ("omp teams num_teams(2) num_teams(4)", "more than one 'num_teams'", "num_teams(4)"),
    ("omp for collapse(2) collapse(2)", "more than one 'collapse'", "collapse(2)", ),
    ("omp parallel if(a) if(b)", "more than one 'if'", "if(b)"),
    ("omp target parallel if(target: a) if(target: b)", "more than one 'if'", "if(target: b)"),
    ("omp for collapse(0)", "argument to 'collapse' must be a positive integer constant", "collapse"),
    ("omp for collapse(n)", "argument to 'collapse' must be a positive integer constant", "collapse"),
    ("omp for collapse(-1)", "positive integer constant", "collapse"),
    ("omp for ordered(x)", "argument to 'ordered' must be a positive integer constant", "ordered"),
    ("omp simd safelen(0)", "'safelen'", "safelen"),
    ("omp simd simdlen(2.0)", "'simdlen'", "simdlen"),
    ("omp for schedule(auto, 4)", "schedule kind 'auto' does not take a chunk size", "schedule"),
    ("omp for schedule(runtime, 4)", "'runtime'", "schedule"),
    ("omp for schedule(nonmonotonic: static)", "nonmonotonic", "schedule"),
    ("omp target enter data map(from: a)", "map type 'from' is not allowed on 'target enter data'", "map"),
    ("omp target enter data map(tofrom: a)", "not allowed", "map"),
    ("omp target enter data map(a)", "map type must be specified", "map"),
    ("omp target exit data map(to: a)", "map type 'to' is not allowed on 'target exit data'", "map"),
    ("omp target exit data map(alloc: a)", "not allowed", "map"),
    ("omp target map(delete: a)", "map type 'delete' is not allowed on 'target'", "map"),
    ("omp target data map(release: a)", "not allowed", "map"),
    ("omp target update", "requires at least one 'to' or 'from'", "target"),
    ("omp target update device(0)", "'to' or 'from'", "target"),
    ("omp target data", "'target data' requires", "target"),
    ("omp target data if(1)", "'target data' requires", "target"),
    ("omp target enter data", "requires at least one 'map'", "target"),
    ("omp target exit data nowait", "requires at least one 'map'", "target"),
    ("omp parallel if(target: x)", "directive-name-modifier 'target' does not name a construct of 'parallel'", "if"),
    ("omp target teams distribute parallel for if(simd: x)", "'simd'", "if"),
    ("omp target if(target data: x)", "'target data'", "if"),
    ("omp parallel map(to: a)", "clause 'map' is not allowed on 'parallel'", "map"),
    ("omp for num_teams(2)", "not allowed on 'for'", "num_teams"),
    ("omp barrier nowait", "not allowed on 'barrier'", "nowait"),
    ("omp atomic private(x)", "clause 'private' is not allowed on 'atomic'", "private"),
    ("omp ordered nowait", "clause 'nowait' is not allowed on 'ordered'", "nowait"),
    ("omp atomic read write", "more than one of", "write"),
    ("omp atomic seq_cst relaxed", "more than one memory-order", "relaxed"),
    ("omp atomic read release", "'release'", "release"),
    ("omp atomic weak", "requires 'compare'", "weak"),
    ("omp flush relaxed", "not allowed", "relaxed"),
    ("omp flush acq_rel (a)", "cannot be combined with a list", "acq_rel"),
    ("omp ordered depend(in: x)", "not allowed on 'ordered'", "depend"),
    ("omp task depend(source)", "only allowed on 'ordered'", "depend"),
    ("omp ordered threads depend(source)", "cannot be combined", "depend"),
    ("omp taskloop grainsize(2) num_tasks(2)", "cannot be used together", "num_tasks"),
    ("omp simd safelen(4) simdlen(8)", "must not be greater", "simdlen"),
    ("omp for collapse(3) ordered(2)", "must not be less", "ordered"),
    ("omp parallel num_threads(0)", "must be positive", "num_threads"),
    ("omp target map(always, always, to: a)", "repeated", "map"),
    ("omp declare simd inbranch notinbranch", "mutually exclusive", "notinbranch"),
    ("omp section nowait", "not allowed on 'section'", "nowait"),
    ("omp masked filter(0) filter(1)", "more than one 'filter'", "filter(1)"),
    ("omp critical hint(1) hint(2)", "more than one 'hint'", "hint(2)"),
    ("omp loop bind(teams) bind(thread)", "more than one 'bind'", "bind(thread)"),
    ("omp cancel for if(parallel: 1)", "does not name a construct", "if"),
])
def test_semantic_errors(text, msg, at):
    e = err(text, OmpSemanticError)
    assert msg in e.message
    pos = text.rindex(at) if text.count(at) > 1 else text.index(at, 4)
    assert e.coord.col == BASE.col + pos, (e.message, e.coord)


def test_user_defined_reduction_is_unsupported():
    e = err("omp parallel for reduction(merge: x)", OmpSemanticError)
    assert isinstance(e, UnsupportedError)
    assert "user-defined reduction 'merge' is not supported" in e.message
    assert e.coord.col == col("omp parallel for reduction(merge: x)", "reduction")


@pytest.mark.parametrize("text", [
    "omp target parallel for nowait", "omp target teams distribute parallel for simd nowait",
    "omp for simd nowait", "omp for nowait", "omp single nowait copyprivate(x)".replace(" copyprivate(x)", ""),
    "omp sections nowait", "omp target enter data map(to: a) nowait", "omp target update to(a) nowait",
    "omp target parallel for if(target: a) if(parallel: b)", "omp for collapse(2) ordered(2)",
    "omp for collapse((1+1)*2)", "omp simd safelen(0x10) simdlen(8)", "omp for collapse(2u)",
    "omp target data use_device_ptr(p)", "omp target data use_device_addr(a)",
    "omp teams if(teams: x)", "omp for schedule(nonmonotonic: dynamic, 4)",
    "omp target teams distribute parallel for map(always, tofrom: a) num_threads(4)",
])
def test_semantically_valid(text):
    assert P(text) is not None


def test_check_directive_directly():
    d = P("omp parallel")
    check_directive(d)
    bad = Directive("parallel", (ExprClause("num_teams", CExpr("1", BASE), None, BASE),), BASE)
    with pytest.raises(OmpSemanticError):
        check_directive(bad)


@pytest.mark.parametrize("text,value", [
    ("1", 1), ("010", 8), ("0x1f", 31), ("4u", 4), ("2UL", 2), ("(2)", 2), ("1+1", 2), ("7/2", 3),
    ("-7/2", -3), ("7%3", 1), ("1<<3", 8), ("-(1)", -1), ("2*(3+4)", 14), ("~0", -1),
    ("n", None), ("1.0", None), ("08", None), ("1/0", None), ("1<<100", None), ("(1", None),
    ("", None), ("2 3", None), ("sizeof(int)", None), ("1e3", None),
])
def test_int_constant(text, value):
    assert int_constant(text) == value


@pytest.mark.parametrize("text,what", [
    ("omp target map(iterator(it = 0:n), to: a[it])", "map-type-modifier 'iterator'"),
])
def test_unsupported_map_modifiers(text, what):
    e = err(text, UnsupportedError)
    assert what in e.message and e.coord.col == col(text, what.split("'")[1])


def test_iterator_modifier_of_depend_and_affinity():
    d = parse_pragma("omp task depend(iterator(int i = 0:n, j=1:m:2), out: a[i][j]) affinity(iterator(k=0:n): b[k]) "
                     "depend(in: c)", BASE)
    dep, aff, plain = d.clauses
    assert (dep.dep_type, dep.iterators.text, dep.iterators.names, [i.text for i in dep.items]) == \
        ("out", "int i = 0:n, j=1:m:2", ("i", "j"), ["a[i][j]"])
    assert (aff.kind, aff.iterators.names, [i.text for i in aff.items]) == ("affinity", ("k",), ["b[k]"])
    assert plain.iterators is None
    d = parse_pragma("omp taskwait depend(iterator(char *p = q:q + 4:-1), inout: p[0])", BASE)
    assert d.clauses[0].iterators.names == ("p",)


@pytest.mark.parametrize("text,what", [
    ("omp task depend(iterator(i), in: a[i])", "iterator specifier 'i' is not of the form"),
    ("omp task depend(iterator(i = 0:n), depobj: o)", "iterator modifier cannot be used with depend type 'depobj'"),
    ("omp target map(tofrom: ([4])p)", "array shaping ('([4])p') is only allowed in depend, affinity"),
    ("omp target update to(([4])p[0:2][1])", "has more subscripts than its shape has dimensions"),
    ("omp depobj(o) depend(in: a, b)", "exactly one list item"),
    ("omp depobj(o) depend(depobj: p)", "depend type 'depobj' is not allowed on 'depobj'"),
    ("omp depobj(o) destroy(p)", "must name the depobj construct's object"),
    ("omp depobj(o) nowait", "clause 'nowait' is not allowed on 'depobj'"),
])
def test_iterator_shaping_and_depobj_errors(text, what):
    e = err(text, OmpgpuError)
    assert what in e.message, e.message


def test_array_shaping_items():
    d = parse_pragma("omp target update from(([nx][ny+2])a[0:nx][1]) to(present: ([n])p)", BASE)
    a, p = d.clauses[0].items[0], d.clauses[1].items[0]
    assert ([e.text for e in a.shape], a.name, a.text, len(a.sections)) == (["nx", "ny+2"], "a", "a[0:nx][1]", 2)
    assert ([e.text for e in p.shape], p.text, d.clauses[1].modifiers) == (["n"], "p", ("present",))
    d = parse_pragma("omp task depend(in: ([2][3])q)", BASE)
    assert [e.text for e in d.clauses[0].items[0].shape] == ["2", "3"]


def test_scan_directive_and_inscan_rules():
    d = parse_pragma("omp scan exclusive(x, y)", BASE)
    assert (d.name, d.clauses[0].kind, [i.name for i in d.clauses[0].items]) == ("scan", "exclusive", ["x", "y"])
    assert parse_pragma("omp parallel for simd reduction(inscan, +: x)", BASE).clauses[0].modifier == "inscan"
    for text, what in [
        ("omp target teams distribute parallel for reduction(inscan, +: x)", "inscan modifier is not allowed on"),
        ("omp for reduction(inscan, +: x) schedule(static)", "'schedule' is not allowed together"),
        ("omp for reduction(inscan, +: x) reduction(+: y)", "with and without the inscan modifier"),
    ]:
        assert what in err(text, OmpgpuError).message


def test_depobj_directive():
    d = parse_pragma("omp depobj(o) depend(inout: x[2])", BASE)
    assert (d.name, d.items[0].name, d.clauses[0].dep_type, d.clauses[0].items[0].text) == ("depobj", "o", "inout", "x[2]")
    d = parse_pragma("omp depobj(o) update(mutexinoutset)", BASE)
    assert (d.clauses[0].kind, d.clauses[0].value) == ("update", "mutexinoutset")
    assert parse_pragma("omp depobj(o) destroy(o)", BASE).clauses[0].kind == "destroy"


def test_allocators_and_mappers_parse():
    """OpenMP 5.0 memory management and mappers (the compiler's handling: tests/programs)."""
    d = parse_pragma("omp parallel private(s, t) allocate(omp_pteam_mem_alloc: s) allocate(t)", BASE)
    (a, b) = d.clauses_of("allocate")
    assert (a.allocator, [i.name for i in a.items], b.allocator, [i.name for i in b.items]) == \
        ("omp_pteam_mem_alloc", ["s"], None, ["t"])
    a = parse_pragma("omp parallel private(s) allocate(allocator(omp_low_lat_mem_alloc), align(64): s)", BASE).clause("allocate")
    assert (a.allocator, a.align.text) == ("omp_low_lat_mem_alloc", "64")
    u = parse_pragma("omp target uses_allocators(omp_pteam_mem_alloc, mine(traits))", BASE).clause("uses_allocators")
    assert u.allocators == (("omp_pteam_mem_alloc", None), ("mine", "traits"))
    d = parse_pragma("omp allocate(x, y) allocator(omp_cgroup_mem_alloc)", BASE)
    assert (d.name, [i.name for i in d.items], d.clause("allocate").allocator) == ("allocate", ["x", "y"], "omp_cgroup_mem_alloc")
    d = parse_pragma("omp declare mapper(id: struct s v) map(to: v, v.p[0:v.n]) map(from: v.q[0:1])", BASE)
    assert d.mapper == ("id", "struct s") and d.items[0].name == "v"
    assert [(c.map_type, [i.text for i in c.items]) for c in d.clauses] == [("to", ["v", "v.p[0:v.n]"]), ("from", ["v.q[0:1]"])]
    assert parse_pragma("omp declare mapper(vec_t w) map(w)", BASE).mapper == ("default", "vec_t")
    assert parse_pragma("omp target map(mapper(id), to: x)", BASE).clause("map").modifiers == ("mapper(id)",)


def test_error_context_skips_comments():
    e = err("omp parallel num_threads(/* ( */ 4", OmpSyntaxError)
    assert "expected ')' after clause 'num_threads'" in e.message


def test_error_messages_name_the_found_token():
    assert "found 'x'" in err("omp parallel default(x)").message
    assert "found end of line" in err("omp parallel default(").message
    assert "unexpected character '\\x01'" in err("omp parallel \x01").message


def test_keyword_prefix_never_splits_an_identifier():
    # `teamsdistribute` is one identifier, not `teams distribute`
    e = err("omp target teamsdistribute", OmpSyntaxError)
    assert "'teamsdistribute'" in e.message
    assert P("omp parallel private(parallelx, privatey)").clause("private").items[0].name == "parallelx"


def test_parser_is_built_once():
    from ompgpu.parser.pragma_build import parser
    assert parser() is parser()


# ---------------------------------------------------------------------------- declare variant

def test_declare_variant_keeps_every_trait_with_its_properties_and_position():
    text = 'omp declare variant(f:f_gpu) match(construct={target}, device={arch("nvptx", nvptx64), isa(sm_90)}, ' \
           'user={condition(N > 2)})'
    d = P(text)
    assert d.name == "declare variant" and d.items[0].name == "f_gpu" and d.base_name == "f"
    traits = d.clause("match").traits
    assert [(t.trait_set, t.name, [p.text for p in t.properties]) for t in traits] == [
        ("construct", "target", []), ("device", "arch", ['"nvptx"', "nvptx64"]), ("device", "isa", ["sm_90"]),
        ("user", "condition", ["N > 2"])]
    assert traits[2].coord.col == col(text, "isa")


@pytest.mark.parametrize("text, cls, message", [
    ("omp declare variant(g) match(devic={kind(gpu)})", OmpSyntaxError, "unknown context selector set 'devic'"),
    ("omp declare variant(g) match(device:{kind(gpu)})", OmpSyntaxError, "found ':'"),
    ("omp declare variant(g)", OmpSyntaxError, "'match'"),
    ("omp declare variant(g) match(construct={dispatch}) adjust_args(need_device: p)", OmpSyntaxError,
     "unknown adjust-op 'need_device' in adjust_args"),
])
def test_bad_declare_variant_forms_are_named(text, cls, message):
    assert message in str(err(text, cls))


def test_dispatch_and_adjust_args():
    """The dispatch construct and declare variant's adjust_args/append_args (OpenMP 5.1)."""
    d = P("omp declare variant(g) match(construct={dispatch}) adjust_args(need_device_ptr: p, q) "
          "adjust_args(nothing: n) append_args(interop(targetsync))")
    adjust = d.clauses_of("adjust_args")
    assert [(a.operation, [i.name for i in a.items]) for a in adjust] == [("need_device_ptr", ["p", "q"]),
                                                                         ("nothing", ["n"])]
    assert d.clause("append_args").text == "interop(targetsync)"
    d = P("omp dispatch device(2) novariants(x > 1) nocontext(0) is_device_ptr(p) depend(in: a) nowait")
    assert d.name == "dispatch"
    assert (d.clause("novariants").expr.text, d.clause("nocontext").expr.text) == ("x > 1", "0")
    assert [i.name for i in d.clause("is_device_ptr").items] == ["p"]


# ---------------------------------------------------------------------------- metadirective

def test_metadirective_keeps_each_variant_as_text_with_its_position():
    text = "omp metadirective when(device={kind(gpu)}: teams distribute parallel for num_threads(4)) " \
           "when(user={condition(1)}: ) default(parallel for)"
    d = P(text)
    assert d.name == "metadirective"
    assert [(c.kind, [t.name for t in c.traits], c.variant) for c in d.clauses] == [
        ("when", ["kind"], "teams distribute parallel for num_threads(4)"), ("when", ["condition"], ""),
        ("default", [], "parallel for")]
    assert d.clauses[0].variant_coord.col == col(text, "teams")


def test_metadirective_needs_a_clause():
    assert "expected clause after 'metadirective'" in str(err("omp metadirective", OmpSyntaxError))


def test_strided_sections_belong_to_target_update():
    d = parse_pragma("omp target update from(a[0:5:2], m[1:2:3][:])", BASE)
    (a, m) = d.clause("from").items
    assert (a.sections[0].lower.text, a.sections[0].length.text, a.sections[0].stride.text) == ("0", "5", "2")
    assert m.sections[0].stride.text == "3" and m.sections[1].stride is None
    text = "omp target map(tofrom: a[0:5:2])"
    e = err(text, UnsupportedError)
    assert "array section with a stride" in str(e) and "clause 'map'" in str(e)




def test_interop_construct():
    """The interop construct (OpenMP 5.1): init with its interop types, use, destroy."""
    d = P("omp interop init(prefer_type(\"cuda\"), target, targetsync: obj) device(1) depend(inout: a) nowait")
    init = d.clause("init")
    assert (init.types, init.item.name) == (("target", "targetsync"), "obj")
    assert d.clause("device").expr.text == "1" and d.has("nowait")
    d = P("omp interop use(o1) destroy(o2)")
    assert [(c.kind, c.item.name) for c in d.clauses] == [("use", "o1"), ("destroy", "o2")]
    assert "needs an init, use or destroy clause" in str(err("omp interop device(1)", OmpSyntaxError))


def test_utility_and_assumption_directives():
    """nothing, error and the assumption directives (OpenMP 5.1)."""
    assert P("omp nothing").name == "nothing"
    d = P('omp error at(execution) severity(warning) message("m")')
    assert (d.name, d.clause("at").value, d.clause("severity").value, d.clause("message").expr.text) == \
        ("error", "execution", "warning", '"m"')
    assert P("omp assume holds(n > 0) no_openmp absent(critical)").name == "assume"
    assert [c.kind for c in P("omp assumes no_openmp_routines ext_mine").clauses] == ["no_openmp_routines", "ext"]
    assert P("omp begin assumes contains(target)").name == "begin assumes"
    assert P("omp end assumes").name == "end assumes"
    assert "unknown assumption clause 'maybe'" in str(err("omp assume maybe", OmpSyntaxError))
