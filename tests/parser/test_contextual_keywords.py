"""Every keyword of the pragma grammar is also an ordinary C identifier: wherever a C
expression or a list item stands, a variable of that name must parse as that variable
(`device(device_num)`, `map(always)`, `if(target)`, `map(to: close)`, `a[to:from]`)."""
from __future__ import annotations

import re

import lark
import pytest

from ompgpu.parser import parse_pragma
from ompgpu.parser.pragma_build import parser as _parser
from ompgpu.errors import SourceCoord

BASE = SourceCoord("t.c", 3, 9)


def _keywords() -> list[str]:
    words = {t.pattern.value for t in _parser().terminals
             if isinstance(t.pattern, lark.lexer.PatternStr) and re.fullmatch(r"[A-Za-z_]\w*", t.pattern.value)}
    return sorted(words - {"omp"})


KEYWORDS = _keywords()


def test_the_grammar_has_the_modifier_words():
    for w in ("always", "close", "present", "to", "from", "tofrom", "alloc", "release", "delete", "device_num",
              "ancestor", "target", "simd", "teams", "conditional", "static"):
        assert w in KEYWORDS


def _clause(d, kind):
    return next(c for c in d.clauses if c.kind == kind)


@pytest.mark.parametrize("w", KEYWORDS)
def test_keyword_as_a_variable_in_expressions(w):
    d = parse_pragma(f"omp target device({w}) if({w}) thread_limit({w})", BASE)
    assert _clause(d, "device").expr.text == w and _clause(d, "device").modifier is None
    assert _clause(d, "if").expr.text == w and _clause(d, "if").modifier is None
    assert _clause(d, "thread_limit").expr.text == w
    d = parse_pragma(f"omp parallel num_threads({w} + 1) if(parallel: {w})", BASE)
    assert _clause(d, "num_threads").expr.text == f"{w} + 1"
    assert _clause(d, "if").expr.text == w
    d = parse_pragma(f"omp for schedule(static, {w}) collapse(1)", BASE)
    assert _clause(d, "schedule").chunk.text == w
    d = parse_pragma(f"omp target teams num_teams({w}) device(device_num: {w})", BASE)
    assert _clause(d, "num_teams").expr.text == w and _clause(d, "device").expr.text == w


@pytest.mark.parametrize("w", KEYWORDS)
def test_keyword_as_a_variable_in_lists(w):
    d = parse_pragma(f"omp target map({w}) map(always, to: a[{w}:{w}])", BASE)
    maps = [c for c in d.clauses if c.kind == "map"]
    assert [m.items[0].name for m in maps] == [w, "a"]
    assert maps[0].map_type == "tofrom" and not maps[0].modifiers
    sec = maps[1].items[0].sections[0]
    assert (sec.lower.text, sec.length.text) == (w, w) and maps[1].modifiers == ("always",)
    d = parse_pragma(f"omp target map(tofrom: {w})", BASE)
    assert [c.items[0].name for c in d.clauses] == [w]
    d = parse_pragma(f"omp target update to({w}) from(present: {w})", BASE)
    assert [c.items[0].name for c in d.clauses] == [w, w]
    d = parse_pragma(f"omp parallel for firstprivate({w}) lastprivate({w}) reduction(+: {w}) private({w})", BASE)
    assert all(c.items[0].name == w for c in d.clauses)


def _names(d, kind):
    return [i.name for c in d.clauses if c.kind == kind for i in c.items]


@pytest.mark.parametrize("w", KEYWORDS)
def test_keyword_as_a_variable_in_every_clause_slot(w):
    """Each clause slot where a program name stands, with and without the clause's modifiers
    (issue 32): the keyword is the variable, and a modifier stays a modifier."""
    d = parse_pragma(f"omp parallel for linear({w}: 2) reduction(+: {w}) lastprivate(conditional: {w}) firstprivate({w})", BASE)
    assert _names(d, "linear") == [w] and _clause(d, "linear").modifier is None
    assert _names(d, "reduction") == [w] and _names(d, "lastprivate") == [w] and _names(d, "firstprivate") == [w]
    d = parse_pragma(f"omp simd linear({w}) linear(val({w}): 2) linear({w}, {w}x: step(2)) aligned({w}: 8) nontemporal({w})", BASE)
    linears = [c for c in d.clauses if c.kind == "linear"]
    assert [[i.name for i in c.items] for c in linears] == [[w], [w], [w, w + "x"]]
    assert [c.modifier for c in linears] == [None, "val", None]
    assert _names(d, "aligned") == [w] and _names(d, "nontemporal") == [w]
    d = parse_pragma(f"omp target map({w}, {w}x) map(always, tofrom: {w}y) map({w}z) if(target: {w}) device({w}) "
                     f"is_device_ptr({w}) has_device_addr({w}) depend(in: {w}) thread_limit({w})", BASE)
    maps = [c for c in d.clauses if c.kind == "map"]
    assert [[i.name for i in m.items] for m in maps] == [[w, w + "x"], [w + "y"], [w + "z"]]
    assert [m.modifiers for m in maps] == [(), ("always",), ()] and maps[1].map_type == "tofrom"
    assert _clause(d, "if").expr.text == w and _clause(d, "if").modifier == "target"
    assert _names(d, "depend") == [w] and _names(d, "is_device_ptr") == [w] and _names(d, "has_device_addr") == [w]
    d = parse_pragma(f"omp target if({w} ? 1 : 0) map(to: {w}[{w}:{w}])", BASE)
    assert _clause(d, "if").modifier is None and _clause(d, "if").expr.text == f"{w} ? 1 : 0"
    d = parse_pragma(f"omp taskloop grainsize({w}) in_reduction(+: {w}) priority({w}) final({w})", BASE)
    assert _clause(d, "grainsize").expr.text == w
    assert _clause(parse_pragma(f"omp taskloop num_tasks(strict: {w})", BASE), "num_tasks").expr.text == w
    assert _clause(parse_pragma(f"omp taskloop num_tasks({w})", BASE), "num_tasks").expr.text == w
    assert _names(d, "in_reduction") == [w]
    d = parse_pragma(f"omp task affinity({w}) depend(out: {w}) private({w}) shared({w})", BASE)
    assert _names(d, "affinity") == [w] and _names(d, "depend") == [w]
    d = parse_pragma(f"omp parallel allocate({w}) allocate(omp_default_mem_alloc: {w}) private({w}) num_threads({w}) "
                     f"reduction(task, +: {w}) copyin({w})", BASE)
    assert _names(d, "allocate") == [w, w] and _names(d, "reduction") == [w] and _names(d, "copyin") == [w]
    d = parse_pragma(f"omp target data map(tofrom: {w}) use_device_ptr({w}) use_device_addr({w})", BASE)
    assert _names(d, "use_device_ptr") == [w] and _names(d, "use_device_addr") == [w]
    d = parse_pragma(f"omp taskgroup task_reduction(+: {w})", BASE)
    assert _names(d, "task_reduction") == [w]
    d = parse_pragma(f"omp distribute dist_schedule(static, {w})", BASE)
    assert _clause(d, "dist_schedule").chunk.text == w
