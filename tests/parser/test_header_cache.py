"""Tier 1: the parse of a file's leading system headers comes from ompgpu's cache (cfront's
header cache, a precompiled header of sorts); the tree must be the one a whole parse gives:
every node, attribute and line/column, on the first compile (cache filled) and the next (read)."""
from pathlib import Path

import pytest
from pycparser import c_ast

from ompgpu.driver import run_deep
from ompgpu.parser import cfront
from ompgpu.parser.cfront import parse_c, preprocess
from ompgpu.toolchain import host_cc

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "tests" / "programs" / f"{name}.c" for name in (
    "c_headers", "whole_stddef", "latin1_source", "long_expressions", "c11_keywords", "local_types", "vla_declarators",
    "struct_pointer_members", "math_funcs", "keyword_names")] + [ROOT / "bench" / "heartwall" / "heartwall.c"]


def dump(node: c_ast.Node) -> list:
    """Every node of the tree in order: its class, attributes, and line and column."""
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        coord = (n.coord.line, n.coord.column) if n.coord is not None else None
        out.append((type(n).__name__, tuple(repr(getattr(n, a)) for a in n.attr_names), coord))
        todo.extend(reversed([child for _, child in n.children()]))
    return out


@pytest.mark.parametrize("src", SOURCES, ids=lambda p: p.stem)
def test_cached_headers_give_the_whole_parse(src, tmp_path, monkeypatch):
    monkeypatch.setenv("OMPGPU_CACHE", str(tmp_path))
    pre = preprocess(str(src), host_cc(), [], False)
    monkeypatch.setattr(cfront, "HEADER_CACHE_MIN_LINES", 10 ** 9)   # no cache: the whole file
    whole = run_deep(lambda: dump(parse_c(pre).ast))   # (deep expressions: the compiler's stack)
    monkeypatch.setattr(cfront, "HEADER_CACHE_MIN_LINES", 1)
    first = run_deep(lambda: dump(parse_c(pre).ast))   # parses the headers and fills the cache
    assert list((tmp_path / "headers").glob("*.pickle")), "the headers were not cached"
    second = run_deep(lambda: dump(parse_c(pre).ast))  # reads them from the cache
    assert first == whole
    assert second == whole


def test_headers_that_end_inside_a_declaration_are_parsed_whole(tmp_path, monkeypatch):
    monkeypatch.setenv("OMPGPU_CACHE", str(tmp_path))
    monkeypatch.setattr(cfront, "HEADER_CACHE_MIN_LINES", 1)
    header = tmp_path / "sys" / "open.h"
    header.parent.mkdir()
    header.write_text("typedef int width_t;\nstruct opened {\n  int a;\n")   # the user's file closes it
    src = tmp_path / "user.c"
    src.write_text("#include <open.h>\n  width_t b;\n};\nint main(void) { struct opened o = {1, 2}; return o.b - 2; }\n")
    pre = preprocess(str(src), host_cc(), [f"-isystem{header.parent}"], False)
    assert pre.system_files   # the header counts as a system header
    ast = parse_c(pre).ast
    assert [type(n).__name__ for n in ast.ext] == ["Typedef", "Decl", "FuncDef"]
    assert not list((tmp_path / "headers").glob("*.pickle"))


def test_a_damaged_cache_entry_is_parsed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("OMPGPU_CACHE", str(tmp_path))
    monkeypatch.setattr(cfront, "HEADER_CACHE_MIN_LINES", 1)
    src = ROOT / "tests" / "programs" / "c_headers.c"
    pre = preprocess(str(src), host_cc(), [], False)
    whole = run_deep(lambda: dump(parse_c(pre).ast))
    for entry in (tmp_path / "headers").glob("*.pickle"):
        entry.write_bytes(b"\x80\x05not a pickle at all")
    assert run_deep(lambda: dump(parse_c(pre).ast)) == whole
    for entry in (tmp_path / "headers").glob("*.pickle"):
        entry.write_bytes(__import__("pickle").dumps({"a": "foreign value"}))
    assert run_deep(lambda: dump(parse_c(pre).ast)) == whole
