"""The allocate directive (OpenMP 5.0/5.1) in host code, which gcc 12 does not implement ("sorry,
unimplemented"): ompgpu gives the host code what the directive means.

- `align(n)` (5.1): the variable's declaration gets `__attribute__((aligned(n)))`.
- A predefined allocator (`omp_*_mem_alloc`, or none): the variable's own storage is memory
  of that kind on the host (the host has one kind of memory), so nothing more changes.
- An allocator made by omp_init_allocator, for a variable of automatic storage: its storage
  comes from that allocator, so that its traits hold (alignment, pool, fallback). Where the
  directive stands, a pointer to storage of the variable's type is allocated from it, freed when the
  block ends (a cleanup attribute, also on return, break or goto); the uses of the variable
  after the directive use that storage. (omp_alloc, whose memory suits any type; with an align
  clause omp_aligned_alloc.) Errors name what is not supported: such a variable
  named in an OpenMP clause or used in a target region after the directive, or one with an
  initializer. A variable of static storage needs a predefined allocator (OpenMP says so).

This pass runs before pragmas.host_pragma_lines, which blanks the directive lines it leaves, and
keeps every line where it was.
"""
from __future__ import annotations

import re

from pycparser import c_ast

from ompgpu.errors import OmpSemanticError, UnsupportedError
from ompgpu.outliner.outline import PREDEFINED_ALLOCATORS
from ompgpu.parser.bind import OmpConstruct
from ompgpu.parser.cfront import walk_nodes
from ompgpu.codegen.host.source_text import apply_edits, line_offsets, next_token, tokens_from

__all__ = ["lower_allocate_directives"]

_FREE_HELPER = "__ompgpu_free_allocated"


_ALLOCATE_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+allocate[ \t]*\(", re.M)


def lower_allocate_directives(text: str, ast: c_ast.FileAST) -> str:
    if not _ALLOCATE_DIRECTIVE.search(text):   # (a text search: no walk of the AST for most files)
        return text
    lines = text.split("\n")
    line_starts = line_offsets(text)
    edits: list[tuple[int, int, str]] = []
    needs_helper = False
    for scope, items in _scopes(ast):
        for index, node in enumerate(items):
            if not (isinstance(node, OmpConstruct) and node.directive.name == "allocate"):
                continue
            d = node.directive
            allocator = next((c.allocator for c in d.clauses if c.allocator is not None), None)
            align = next((c.align.text for c in d.clauses if c.align is not None), None)
            declared = {n.name: n for n in items[:index] if isinstance(n, c_ast.Decl)}
            placed = []   # the directive's line becomes the storage of each item it places
            for item in d.items:
                decl = declared.get(item.name)
                if decl is None:
                    raise OmpSemanticError(f"'{item.name}' in an allocate directive must be declared before it in the "
                                           "same scope", item.coord)
                static = scope is None or "static" in (decl.storage or []) or "extern" in (decl.storage or [])
                if allocator is None or allocator in PREDEFINED_ALLOCATORS:
                    if align is not None:
                        at = _declarator_end(text, _offset(line_starts, decl.coord))
                        edits.append((at, at, f" __attribute__((aligned({align})))"))
                    continue
                if static:
                    raise OmpSemanticError(f"'{item.name}' has static storage: its allocate directive needs a "
                                           f"predefined allocator, not '{allocator}'", item.coord)
                if decl.init is not None:
                    raise UnsupportedError(f"'{item.name}' has an initializer: an allocate directive with the "
                                           f"allocator '{allocator}' for it is not supported yet", item.coord)
                pointer = f"__ompgpu_allocated_{item.name}"
                # omp_alloc's memory suits any type; omp_aligned_alloc (5.1: gcc 11 lacks it) for align
                storage = f"omp_alloc(sizeof({item.name}), {allocator})" if align is None else \
                    f"omp_aligned_alloc({align}, sizeof({item.name}), {allocator})"
                placed.append(f"__typeof__({item.name}) *{pointer} __attribute__((cleanup({_FREE_HELPER}))) = "
                              f"(__typeof__({item.name}) *){storage};")
                needs_helper = True
                for construct in _hint_uses(items[index + 1:], item.name):
                    i = construct.coord.line - 1
                    edited = _without_hint_items(lines[i], item.name)
                    if edited != lines[i]:
                        edits.append((line_starts[i], line_starts[i] + len(lines[i]), edited))
                        lines[i] = edited
                for use in _uses_after(items[index + 1:], item.name):
                    at = _offset(line_starts, use.coord)
                    tok, start, end = next_token(text, at)
                    if tok != item.name:
                        raise UnsupportedError(f"cannot rewrite a use of '{item.name}' after its allocate directive",
                                               item.coord)
                    edits.append((start, end, f"(*{pointer})"))
            if placed:
                i = node.coord.line - 1
                edits.append((line_starts[i], line_starts[i] + len(lines[i]),
                              f"void {_FREE_HELPER}(void *); " + " ".join(placed)))
    if not needs_helper:
        return apply_edits(text, edits)
    # The cleanup function (declared where each directive was): weak, so that several files may
    # define it; after everything (the declarations of omp.h included), on a line of its own.
    edits.append((len(text), len(text),
                  f"\n__attribute__((weak)) void {_FREE_HELPER}(void *pointer) {{ "
                  "omp_free(*(void **)pointer, omp_null_allocator); }\n"))
    return apply_edits(text, edits)


def _offset(line_starts: list[int], coord) -> int:
    return line_starts[coord.line - 1] + coord.column - 1


def _scopes(ast: c_ast.FileAST):
    """(None for file scope, else the compound) and its items, for every scope of the file."""
    yield None, list(ast.ext)
    for node in walk_nodes(ast):
        if isinstance(node, c_ast.Compound) and node.block_items:
            yield node, node.block_items


def _declarator_end(text: str, start: int) -> int:
    """Where a declarator that begins at `start` ends: its `,`, `=` or `;` (outside brackets)."""
    depth = 0
    for tok, at, _ in tokens_from(text, start):
        if tok in "([{":
            depth += 1
        elif tok in ")]}":
            depth -= 1
        elif depth == 0 and tok in (",", "=", ";"):
            return at
    raise UnsupportedError("cannot find the end of a declaration named in an allocate directive", None)


def _uses_after(statements: list[c_ast.Node], name: str) -> list[c_ast.ID]:
    """The uses of `name` in the statements after an allocate directive (not member names after
    `.`/`->`); an error where a clause or a target region names it, or a declaration in them
    hides it."""
    uses: list[c_ast.ID] = []
    for stmt in statements:
        members = {id(n.field) for n in walk_nodes(stmt) if isinstance(n, c_ast.StructRef)}
        for n in walk_nodes(stmt):
            if isinstance(n, c_ast.Decl) and n.name == name:
                raise UnsupportedError(f"a declaration of '{name}' after its allocate directive, in the same "
                                       "block, is not supported yet", n.coord)
            if isinstance(n, OmpConstruct):
                if _names(n.directive, name, exclude=_HINT_CLAUSES):
                    raise UnsupportedError(f"'{name}' in a clause of '#pragma omp {n.directive.name}' after an "
                                           "allocate directive with an allocator made by omp_init_allocator is not "
                                           "supported yet", n.directive.coord)
                if "target" in n.directive.leaves and n.body is not None and any(
                        isinstance(m, c_ast.ID) and m.name == name for m in walk_nodes(n.body)):
                    raise UnsupportedError(f"'{name}', placed by an allocator made by omp_init_allocator, used in a "
                                           "target region is not supported yet", n.directive.coord)
            if isinstance(n, c_ast.ID) and n.name == name and id(n) not in members:
                uses.append(n)
    return uses


def _names(d, name: str, exclude: frozenset[str] = frozenset()) -> bool:
    return any(getattr(item, "name", None) == name for c in d.clauses if c.kind not in exclude
               for item in getattr(c, "items", ()) or ())


# Clauses that only tell the compiler something it may use (alignment, non-temporal stores): a
# variable whose storage an allocator placed is left out of them (the claim is about the
# variable's own storage, which its uses no longer name).
_HINT_CLAUSES = frozenset({"aligned", "nontemporal"})
_HINT_CLAUSE_TEXT = re.compile(r"\b(aligned|nontemporal)\s*\(([^()]*)\)")


def _without_hint_items(line: str, name: str) -> str:
    """The pragma line with `name` left out of its aligned and nontemporal clauses (a clause left
    with no item goes)."""
    def edit(m: re.Match) -> str:
        items, sep, rest = m.group(2).partition(":")
        kept = [x for x in (i.strip() for i in items.split(",")) if x and x != name]
        return f"{m.group(1)}({', '.join(kept)}{sep}{rest})" if kept else ""
    return _HINT_CLAUSE_TEXT.sub(edit, line)


def _hint_uses(statements: list[c_ast.Node], name: str) -> list[OmpConstruct]:
    """The constructs after an allocate directive whose hint clauses name `name`."""
    return [n for stmt in statements for n in walk_nodes(stmt) if isinstance(n, OmpConstruct)
            and any(c.kind in _HINT_CLAUSES and any(getattr(i, "name", None) == name for i in c.items)
                    for c in n.directive.clauses)]
