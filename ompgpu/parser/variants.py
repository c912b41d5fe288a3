"""`declare variant` for device code: calls of a base function in code that runs on the GPU
become calls of the variant whose context selector the GPU matches (OpenMP 5.0, 7.5).

One entry point, `resolve_variants(bound, offload_arch)`, after binding. The host side needs
nothing from ompgpu: the pragma stays in the host code and the host compiler picks the host's
variant (gcc and clang match `device={kind(host)}` there).

The device's traits: kind gpu, nohost and any; arch nvptx and nvptx64 (clang's names) and
the offload architecture (`sm_90`); isa the offload architecture. Construct traits: `target`
holds in all device code; the others depend on the call site and are not supported yet, nor
are implementation traits other than vendor (no vendor name is ompgpu's, so none matches)
and dynamic user conditions. Every unsupported trait is an error naming it, never a guess.
"""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass

from pycparser import c_ast

from ompgpu.errors import OmpSemanticError
from ompgpu.parser.bind import BoundUnit, OmpConstruct
from ompgpu.parser.cfront import walk_nodes
from ompgpu.parser.context import device_matches
from ompgpu.parser.directives import Directive, MatchClause, TraitSelector

__all__ = ["DeclaredVariant", "declared_variants", "resolve_variants"]


@dataclass(frozen=True)
class DeclaredVariant:
    """One declare variant directive: the base function it precedes or names, its variant, the
    traits of its match clause, and the directive (adjust_args, append_args)."""

    base: str
    variant: str
    traits: tuple[TraitSelector, ...]
    directive: Directive

    @property
    def for_dispatch(self) -> bool:
        """Whether it applies only at the call of a dispatch construct (construct={dispatch})."""
        return any(t.trait_set == "construct" and t.name == "dispatch" for t in self.traits)


def resolve_variants(bound: BoundUnit, offload_arch: str = "sm_90") -> BoundUnit:
    """The unit with calls of base functions in device code replaced by their GPU variants."""
    variants = declared_variants(bound.ast)
    if not variants:
        return bound
    chosen: dict[str, str] = {}
    for base in dict.fromkeys(v.base for v in variants):
        matching = [v for v in variants if v.base == base and device_matches(v.traits, offload_arch)]
        if matching:
            # The most specific selector wins (OpenMP scores traits; ties go to the first).
            chosen[base] = max(matching, key=lambda v: len(v.traits)).variant
    if not chosen:
        return bound
    ext = []
    for node in bound.ast.ext:
        if isinstance(node, c_ast.FuncDef) and _calls_any(node.body, chosen):
            node = copy.deepcopy(node)
            if any(isinstance(n, OmpConstruct) and "target" in n.directive.leaves for n in walk_nodes(node.body)):
                # Host code around target regions stays as written: only the regions are device code.
                for n in walk_nodes(node.body):
                    if isinstance(n, OmpConstruct) and "target" in n.directive.leaves and n.body is not None:
                        _rename_calls(n.body, chosen)
            else:
                _rename_calls(node.body, chosen)   # may run on the device (called from a region)
        ext.append(node)
    ast = copy.copy(bound.ast)
    ast.ext = ext
    return dataclasses.replace(bound, ast=ast)


def declared_variants(ast: c_ast.FileAST) -> list[DeclaredVariant]:
    """The declare variant directives of the file with the base function each one precedes."""
    found = []
    ext = ast.ext
    functions = {n.decl.name for n in ext if isinstance(n, c_ast.FuncDef)}
    functions |= {n.name for n in ext if isinstance(n, c_ast.Decl) and isinstance(n.type, c_ast.FuncDecl)}
    for i, node in enumerate(ext):
        if not (isinstance(node, OmpConstruct) and node.directive.name == "declare variant"):
            continue
        d = node.directive
        base = d.base_name
        if base is None:
            nxt = next((n for n in ext[i + 1:] if not isinstance(n, OmpConstruct)), None)
            base = (nxt.decl.name if isinstance(nxt, c_ast.FuncDef)
                    else nxt.name if isinstance(nxt, c_ast.Decl) and isinstance(nxt.type, c_ast.FuncDecl) else None)
            if base is None:
                raise OmpSemanticError("'#pragma omp declare variant' must precede the declaration or definition "
                                       "of its base function", d.coord)
        variant = d.items[0]
        if variant.name not in functions:
            raise OmpSemanticError(f"variant function '{variant.name}' of declare variant is not declared", variant.coord)
        match = d.clause("match")
        if not isinstance(match, MatchClause):
            raise OmpSemanticError("'#pragma omp declare variant' needs a match clause", d.coord)
        found.append(DeclaredVariant(base, variant.name, match.traits, d))
    return found


def _calls_any(node: c_ast.Node, names: dict[str, str]) -> bool:
    return any(isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and n.name.name in names
               for n in walk_nodes(node))


def _rename_calls(node: c_ast.Node, names: dict[str, str]) -> None:
    """In place, on a private copy: calls of a base function become calls of its variant."""
    for n in walk_nodes(node):
        if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and n.name.name in names:
            n.name = c_ast.ID(names[n.name.name], n.name.coord)
