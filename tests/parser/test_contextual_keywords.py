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
    d = parse_pragma(f"omp target map({w}) map(tofrom: {w}) map(always, to: a[{w}:{w}])", BASE)
    maps = [c for c in d.clauses if c.kind == "map"]
    assert [m.items[0].name for m in maps] == [w, w, "a"]
    assert maps[0].map_type == "tofrom" and not maps[0].modifiers
    sec = maps[2].items[0].sections[0]
    assert (sec.lower.text, sec.length.text) == (w, w) and maps[2].modifiers == ("always",)
    d = parse_pragma(f"omp target update to({w}) from(present: {w})", BASE)
    assert [c.items[0].name for c in d.clauses] == [w, w]
    d = parse_pragma(f"omp parallel for firstprivate({w}) lastprivate({w}) reduction(+: {w}) private({w})", BASE)
    assert all(c.items[0].name == w for c in d.clauses)
