"""`parse_pragma`: the text of one `#pragma omp ...` line -> a checked `Directive`.

The grammar is `omp.lark` (LALR, contextual lexer).  A Lark transformer runs inline with
the parser (no parse tree is built) and produces the frozen IR of `directives.py`: the parser
and the transformer's rules for directives in pragma_build.py, for clauses in
pragma_clauses.py, over the helpers of pragma_tree.py; syntax errors are worded in
pragma_diagnostics.py.  Lark objects and exceptions never leave these modules: every
malformed pragma raises `OmpSyntaxError` (or `OmpSemanticError` / `UnsupportedError`) at the
offending token.
"""
from __future__ import annotations

import dataclasses

import re

from lark.exceptions import LarkError, UnexpectedInput

from ompgpu.errors import OmpgpuError, OmpSyntaxError, SourceCoord

from ompgpu.parser.directives import Directive
from ompgpu.parser.pragma_build import parser
from ompgpu.parser.pragma_diagnostics import syntax_error
from ompgpu.parser.pragma_tree import UnsupportedSyntaxError, coord_at, ctx, plain_name_positions


__all__ = ["parse_pragma", "UnsupportedSyntaxError", "MAX_PRAGMA_LENGTH"]


# Longer pragmas are rejected up front (no real directive comes near this).
MAX_PRAGMA_LENGTH = 100_000


_UNSUPPORTED_DIRECTIVES = re.compile(
    r"\s*omp\s+(declare\s+reduction|begin\s+metadirective"
    r"|allocators"
    r"|workshare|parallel\s+workshare|target\s+parallel\s+master|target\s+parallel\s+masked"
    r"|target\s+parallel\s+do|parallel\s+do|do)(?![A-Za-z0-9_$])"
)


_OMP_PREFIX = re.compile(r"\s*omp(?![A-Za-z0-9_$])")


def parse_pragma(text: str, coord: SourceCoord) -> Directive | None:
    """Parse the text after `#pragma` (one joined line) at `coord` (its first character).

    Returns None for a pragma that is not `omp` (`once`, `GCC ...`, `unroll`, ...).  Returns a
    checked Directive (see clause_rules.check_directive) or raises an OmpgpuError subclass:
    OmpSyntaxError for malformed text, OmpSemanticError for a well-formed directive that
    breaks a clause rule, UnsupportedSyntaxError for valid OpenMP that ompgpu rejects.
    """
    try:
        if not isinstance(text, str):
            raise OmpSyntaxError("pragma text is not a string", coord)
        if not _OMP_PREFIX.match(text):
            return None
        directive = _parse(text, coord)
        from .clause_rules import check_directive
        check_directive(directive)
        return merge_repeated_maps(directive)
    except OmpgpuError:
        raise
    except RecursionError:
        raise OmpSyntaxError("OpenMP directive is nested too deeply", coord) from None
    except Exception as e:  # a bug here must still not become a traceback for the user
        raise OmpSyntaxError(f"malformed OpenMP directive ({type(e).__name__})", coord) from None


def _parse(text: str, coord: SourceCoord) -> Directive:
    if len(text) > MAX_PRAGMA_LENGTH:
        raise OmpSyntaxError(f"OpenMP directive is too long ({len(text)} characters)", coord)
    m = _UNSUPPORTED_DIRECTIVES.match(text)
    ctx.text = text
    ctx.plain_names = plain_name_positions(text)
    ctx.coord = coord
    ctx.newlines = tuple(i for i, c in enumerate(text) if c == "\n") if "\n" in text else ()
    if m:
        name = " ".join(m.group(1).split())
        raise UnsupportedSyntaxError(f"OpenMP directive '{name}' is not supported by ompgpu",
                                     coord_at(m.start(1)))
    try:
        return parser().parse(text)
    except UnexpectedInput as e:
        raise syntax_error(text, e) from None
    except LarkError as e:
        raise OmpSyntaxError(f"malformed OpenMP directive: {e}", coord) from None


# How the map types of one list item in several map clauses of a construct combine (OpenMP
# 5.0 allows the repetition): as one clause that copies in whatever any of them copies in
# and out whatever any copies out; delete wins over release.
_MAP_DIRECTIONS = {"alloc": set(), "to": {"to"}, "from": {"from"}, "tofrom": {"to", "from"}}


def _combined_map_type(a: str, b: str) -> str:
    if a in ("release", "delete") or b in ("release", "delete"):
        return "delete" if "delete" in (a, b) else a if a in ("release", "delete") else b
    both = _MAP_DIRECTIONS.get(a, set()) | _MAP_DIRECTIONS.get(b, set())
    return {frozenset(): "alloc", frozenset({"to"}): "to", frozenset({"from"}): "from"}.get(frozenset(both), "tofrom")


def merge_repeated_maps(d: Directive) -> Directive:
    """The directive with a list item that several of its map clauses name (the same text)
    named once, in a clause of the combined map type and the union of the modifiers, where its
    first clause was; clauses left empty go. Every later pass then sees each item once."""
    maps = [c for c in d.clauses if c.kind == "map"]
    seen: dict[str, int] = {}
    repeated = False
    for c in maps:
        for item in c.items:
            key = "".join(item.text.split())
            repeated |= key in seen
            seen[key] = seen.get(key, 0) + 1
    if not repeated:
        return d
    combined: dict[str, tuple[str, tuple[str, ...], bool]] = {}
    for c in maps:
        for item in c.items:
            key = "".join(item.text.split())
            if key in combined:
                mtype, mods, explicit = combined[key]
                combined[key] = (_combined_map_type(mtype, c.map_type),
                                 mods + tuple(m for m in c.modifiers if m not in mods), explicit or c.map_type_explicit)
            else:
                combined[key] = (c.map_type, tuple(c.modifiers), c.map_type_explicit)
    clauses, placed = [], set()
    for c in d.clauses:
        if c.kind != "map":
            clauses.append(c)
            continue
        for item in c.items:
            key = "".join(item.text.split())
            if key in placed:
                continue
            placed.add(key)
            mtype, mods, explicit = combined[key]
            clauses.append(dataclasses.replace(c, map_type=mtype, modifiers=mods, items=(item,), map_type_explicit=explicit))
    return dataclasses.replace(d, clauses=tuple(clauses))
