"""`declare variant`: each call of a base function becomes a call of the variant whose context
selector matches where the call stands (OpenMP 5.0, 7.5; 5.1, 7.2 for `begin declare variant`).

One entry point, `resolve_variants(bound, offload_arch)`, after binding. Where a call stands
is device code (a target region; a function without target regions, which a region may call)
or host code, and the constructs that lexically enclose it: its construct set (device code's
starts with target). Among the variants that match there, the most specific selector wins
(context.selector_score; ties go to the first declared).

Device code: the calls are renamed in the unit. Host code: the host compiler resolves the
`declare variant` directives it is given (gcc and clang match `device={kind(host)}`); ompgpu
resolves those it is not given, and renames their calls in the host code (host_renames): the
variants of `begin declare variant` blocks with construct traits (the binder renamed their
functions), and `declare variant` directives with construct traits other than target and
dispatch, whose lines leave the host code. Every unsupported trait is an error naming it,
never a guess.
"""
from __future__ import annotations

import copy
import dataclasses

from pycparser import c_ast

from ompgpu.errors import OmpSemanticError, UnsupportedError
from ompgpu.parser.bind import BoundUnit, OmpConstruct
from ompgpu.parser.bound import DeclaredVariant
from ompgpu.parser.cfront import walk_nodes
from ompgpu.parser.context import CONSTRUCT_TRAITS, construct_traits, device_matches, host_matches, selector_score
from ompgpu.parser.directives import MatchClause

__all__ = ["DeclaredVariant", "declared_variants", "resolve_variants"]


def resolve_variants(bound: BoundUnit, offload_arch: str = "sm_90") -> BoundUnit:
    """The unit with calls of base functions in device code replaced by the variants chosen
    where they stand, and the host code's renames of the variants ompgpu resolves there."""
    variants = declared_variants(bound.ast) + list(bound.block_variants)
    if not variants:
        return bound
    by_base: dict[str, list[DeclaredVariant]] = {}
    for v in variants:
        by_base.setdefault(v.base, []).append(v)
    for_host = {id(v) for v in variants if _resolved_for_host(v, bound)}
    host_renames = list(bound.host_renames)
    ext = []
    for node in bound.ast.ext:
        if isinstance(node, c_ast.FuncDef) and _calls_any(node.body, by_base):
            node = copy.deepcopy(node)
            has_regions = any(isinstance(n, OmpConstruct) and "target" in n.directive.leaves
                              for n in walk_nodes(node.body))
            for call, context, in_region, in_dispatch in _calls_with_context(node.body, by_base):
                base = call.name.name
                host = _choice(by_base[base], context, offload_arch, host_matches)
                if host is not None and id(host) in for_host:
                    if in_dispatch is not None:
                        raise UnsupportedError(f"a call of '{base}', whose variant is chosen where it stands, in the "
                                               "statement of a dispatch construct is not supported yet", in_dispatch.coord)
                    host_renames.append((call.name.coord.line, call.name.coord.column, base, host.variant))
                if in_region or not has_regions:   # device code (host code around regions stays as written)
                    device = _choice(by_base[base], _device_context(context), offload_arch, device_matches)
                    if device is not None:
                        call.name = c_ast.ID(device.variant, call.name.coord)
        ext.append(node)
    ast = copy.copy(bound.ast)
    ast.ext = ext
    blank = [(n.coord.line, n.coord.line) for n in bound.ast.ext if isinstance(n, OmpConstruct)
             and n.directive.name == "declare variant" and any(id(v) in for_host and v.directive is n.directive
                                                                for v in variants)]
    return dataclasses.replace(bound, ast=ast, host_renames=tuple(host_renames),
                               host_blank_lines=bound.host_blank_lines + tuple(blank))


def _resolved_for_host(v: DeclaredVariant, bound: BoundUnit) -> bool:
    """Whether ompgpu, not the host compiler, resolves the variant's calls in host code."""
    return v in bound.block_variants or any(t.name not in ("target", "dispatch") for t in construct_traits(v.traits))


def _choice(variants: list[DeclaredVariant], context: tuple[str, ...], offload_arch: str, matches):
    """The variant a call takes where its construct set is `context`, or None (the base)."""
    matching = [v for v in variants if matches(v.traits, offload_arch, context)]
    if not matching:
        return None
    return max(matching, key=lambda v: selector_score(v.traits, context))


def _device_context(context: tuple[str, ...]) -> tuple[str, ...]:
    """The construct set of a place in device code: from its target construct on, or, in a
    function that a target region may call, target and what encloses the place there."""
    return context[context.index("target"):] if "target" in context else ("target",) + context


def _calls_with_context(body: c_ast.Node, names: dict):
    """(call, construct set, inside a target region, the dispatch directive whose statement
    holds it or None) for each call of a function in `names` under `body`: the construct set
    lists the leaves of the enclosing constructs that are construct traits but dispatch,
    outermost first."""
    todo = [(body, (), False, None)]
    while todo:
        n, context, in_region, in_dispatch = todo.pop()
        if isinstance(n, OmpConstruct):
            leaves = n.directive.leaves
            # (dispatch variants are the dispatch construct's business: codegen/host/dispatch.py)
            context = context + tuple(leaf for leaf in leaves if leaf in CONSTRUCT_TRAITS and leaf != "dispatch")
            in_region = in_region or "target" in leaves
            in_dispatch = n.directive if n.directive.name == "dispatch" else in_dispatch
        elif isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and n.name.name in names:
            yield n, context, in_region, in_dispatch
        todo.extend((child, context, in_region, in_dispatch) for _, child in n.children())


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
