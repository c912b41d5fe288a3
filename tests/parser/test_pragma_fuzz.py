"""Fuzzing parse_pragma: whatever the text, the result is a Directive, None, or an
OmpgpuError subclass with a coordinate inside the pragma -- never another exception."""
from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ompgpu.errors import OmpgpuError, SourceCoord
from ompgpu.parser import Directive, parse_pragma
from ompgpu.parser.directives import CExpr, ListItem, Section

BASE = SourceCoord("fuzz.c", 12, 9)

FUZZ = settings(max_examples=1200, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])

VALID = [
    "omp target teams distribute parallel for simd map(tofrom: a[0:n], b[:n]) num_teams(nt) "
    "thread_limit(256) collapse(2) reduction(+:sum) schedule(static, 4)",
    "omp parallel for private(i,j) firstprivate(x) if(parallel: n > 100) num_threads(f(a, b))",
    "omp target data map(always, to: s.arr[0:n], p->x) use_device_ptr(q) if(target data: c ? 1 : 0)",
    "omp target enter data map(to: a[0:n]) depend(in: a) nowait",
    "omp target exit data map(delete: a[0:n]) device(ancestor: 1)",
    "omp target update from(present: a[1:n-1]) to(b)",
    "omp atomic seq_cst update", "omp atomic compare capture fail(acquire)",
    "omp critical(name) hint(omp_sync_hint_none)", "omp flush(a, b)", "omp flush acq_rel",
    "omp ordered depend(sink: i-1, j)", "omp ordered threads simd", "omp barrier", "omp taskwait",
    "omp declare target(f, g)", "omp declare target to(f) link(t) device_type(nohost) indirect",
    "omp begin declare target device_type(any)", "omp end declare target",
    "omp threadprivate(tp)", "omp cancel for if(cancel: e)", "omp cancellation point parallel",
    "omp requires unified_shared_memory atomic_default_mem_order(acq_rel)",
    "omp simd linear(val(i): 2) aligned(p: 64) safelen(8) simdlen(4) nontemporal(a)",
    "omp for lastprivate(conditional: x) ordered(2) collapse(2) schedule(nonmonotonic, simd: dynamic, 8)",
    "omp task depend(inout: a[0:n]) in_reduction(max: m) priority(3) untied mergeable final(d > 2)",
    "omp taskloop simd grainsize(strict: 8) nogroup", "omp teams loop bind(teams) order(concurrent)",
    "omp target defaultmap(tofrom: scalar) is_device_ptr(p) has_device_addr(q)",
    "omp parallel proc_bind(spread) default(none) shared(a) copyin(t)",
    "omp declare simd uniform(n) linear(i: step(1)) notinbranch", "omp masked filter(0)",
    "omp parallel master taskloop simd", "omp sections nowait", "omp section", "omp single copyprivate(x)",
    "once", "GCC diagnostic ignored \"-Wall\"",
]

VOCAB = sorted(set(re.findall(r"[A-Za-z_]+", " ".join(VALID)))) + [
    "(", ")", "[", "]", ":", ",", ".", "->", "*", "?", "+", "-", "&&", "||", "<<", "'a'", "\"s\"",
    "0", "1", "42", "0x1f", "1e3", ".5", "@", "#", "\\", "\n", "\t", "/*", "*/", "//", "\x00",
    "é", "\u200b", "\ud800", "omp", "reduction", "declare", "begin", "end", "point", "sink", "source",
]

_TOKEN = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*|\d+|->|&&|\|\||\s+|.", re.S)


def _check(text: str) -> None:
    try:
        d = parse_pragma(text, BASE)
    except OmpgpuError as e:
        assert e.message and isinstance(e.message, str)
        assert not e.message.startswith("malformed OpenMP directive ("), e.message  # internal bug
        assert e.coord is not None and e.coord.file == BASE.file
        if "\n" not in text:
            assert e.coord.line == BASE.line
            assert BASE.col <= e.coord.col <= BASE.col + len(text), (text, e.coord)
        e.render({BASE.file: [""] * 11 + [" " * 8 + text]})
        return
    if d is None:
        return
    assert isinstance(d, Directive)
    if "\n" not in text:
        _check_coords(text, d)


def _offset(text: str, coord: SourceCoord) -> int:
    assert coord.file == BASE.file and coord.line == BASE.line
    off = coord.col - BASE.col
    assert 0 <= off <= len(text)
    return off


def _check_coords(text: str, d: Directive) -> None:
    """Every CExpr / ListItem in the IR sits at its own source text."""
    _offset(text, d.coord)
    assert text[_offset(text, d.coord):].startswith(d.name.split()[0])
    todo: list[object] = [d.items, d.clauses]
    while todo:
        x = todo.pop()
        if isinstance(x, tuple):
            todo.extend(x)
        elif isinstance(x, CExpr):
            assert text[_offset(text, x.coord):].startswith(x.text)
        elif isinstance(x, ListItem):
            assert text[_offset(text, x.coord):].startswith(x.text)
            todo.extend(x.sections)
        elif isinstance(x, Section):
            assert text[_offset(text, x.coord)] == "["
            todo.extend([x.lower, x.length])
        elif x is not None and hasattr(x, "coord"):
            off = _offset(text, x.coord)
            assert text[off:].startswith(x.kind), (x, text[off:])
            todo.extend(getattr(x, f) for f in x.__dataclass_fields__ if f != "coord")


def test_every_valid_corpus_entry_parses():
    for text in VALID:
        d = parse_pragma(text, BASE)
        assert d is None or isinstance(d, Directive)
        if d is not None:
            _check_coords(text, d)


@FUZZ
@given(st.text(max_size=80))
def test_random_text(s):
    _check(s)
    _check("omp " + s)


@FUZZ
@given(st.binary(max_size=60))
def test_random_bytes_decoded(b):
    s = b.decode("latin-1")
    _check("omp " + s)
    _check("omp parallel " + s)


@FUZZ
@given(st.lists(st.sampled_from(VOCAB), max_size=25), st.sampled_from(["omp ", "omp parallel ", "omp target "]))
def test_token_soup(tokens, prefix):
    sep = " " if len(tokens) % 2 else ""
    _check(prefix + sep.join(tokens))


_OPS = ["delete", "insert", "replace", "swap", "char_delete", "char_insert", "char_replace", "truncate"]


@FUZZ
@given(st.sampled_from(VALID),
       st.lists(st.tuples(st.sampled_from(_OPS), st.integers(0, 10_000), st.sampled_from(VOCAB),
                          st.characters()), min_size=1, max_size=4))
def test_mutated_valid_pragmas(text, mutations):
    for op, where, tok, ch in mutations:
        if op.startswith("char_") or op == "truncate":
            i = where % (len(text) + 1)
            if op == "char_delete":
                text = text[:i] + text[i + 1:]
            elif op == "char_insert":
                text = text[:i] + ch + text[i:]
            elif op == "char_replace":
                text = text[:i] + ch + text[i + 1:]
            else:
                text = text[:i]
            continue
        toks = _TOKEN.findall(text)
        i = where % (len(toks) + 1)
        if op == "delete":
            del toks[i:i + 1]
        elif op == "insert":
            toks[i:i] = [" ", tok, " "]
        elif op == "replace":
            toks[i:i + 1] = [tok]
        elif op == "swap" and i + 1 < len(toks):
            toks[i], toks[i + 1] = toks[i + 1], toks[i]
        text = "".join(toks)
    _check(text)
