"""The dispatch construct and the declare variant directives made for it (OpenMP 5.1), lowered
in the host code: gcc 12 knows neither (it rejects a `construct={dispatch}` selector).

A dispatch construct's statement, `f(args);` or `lvalue = f(args);`, calls the variant of the
base function f whose match clause has `construct={dispatch}` and whose other traits the host
matches (the most specific selector among f's variants that match there), with adjust_args
applied: a `need_device_ptr` argument becomes the device address of the storage it points to
on the construct's device (itself where nothing is mapped there, as OpenMP 5.1's
use_device_ptr; also where the argument is in the construct's is_device_ptr or
has_device_addr list, or without offload); `nothing` passes the argument as it is. Where no
dispatch variant is the one chosen, the call stays a call of f (the host compiler still
resolves f's host variants). The construct's clauses:

- novariants(e) true: f itself; nocontext(e) true: dispatch is not in the context, so no
  dispatch variant applies (f, as above). Both are evaluated at run time, before the call.
- device(n): the default-device ICV is n during the call, and n is the device of
  need_device_ptr.
- depend(...): a taskwait with those dependences first. nowait: the call runs at once (nowait
  only allows the call to be deferred).

append_args(interop(...), ...): interop objects made for the construct's device before the
call (host/interop.py), passed after the other arguments, destroyed after it (their targetsync
streams waited for). The declare variant directives with a dispatch selector leave the host
code. Every lowering keeps the text's lines where they were: the pragma line becomes the
block's opening, the statement keeps its line breaks.
"""
from __future__ import annotations

import re

from pycparser import c_ast

from ompgpu.errors import OmpSemanticError
from ompgpu.parser.bind import OmpConstruct
from ompgpu.parser.cfront import walk_nodes
from ompgpu.parser.context import host_matches
from ompgpu.parser.directives import AdjustArgsClause
from ompgpu.parser.variants import DeclaredVariant, declared_variants
from ompgpu.codegen.host.interop import interop_kinds, taskwait_for_depends
from ompgpu.codegen.host.source_text import apply_edits, line_offsets, next_token, statement_end, tokens_from

__all__ = ["lower_dispatch"]


def lower_dispatch(text: str, ast: c_ast.FileAST, offload: str, offload_arch: str) -> str:
    """The host code text with every dispatch construct and dispatch variant lowered."""
    if "dispatch" not in text:
        return text
    variants = declared_variants(ast)
    dispatches = [n for n in walk_nodes(ast) if isinstance(n, OmpConstruct) and n.directive.name == "dispatch"]
    lines = text.split("\n")
    line_starts = line_offsets(text)
    edits: list[tuple[int, int, str]] = []
    for node in ast.ext:   # the variants for dispatch: the host compiler must not see them
        if isinstance(node, OmpConstruct) and node.directive.name == "declare variant":
            variant = next(v for v in variants if v.directive is node.directive)
            if variant.for_dispatch:
                i = node.coord.line - 1
                edits.append((line_starts[i], line_starts[i] + len(lines[i]), ""))
    parameters = _parameter_names(ast)
    for c in dispatches:
        edits.extend(_dispatch_edits(text, c, lines, line_starts, variants, parameters, offload, offload_arch))
    return apply_edits(text, edits)


def _parameter_names(ast: c_ast.FileAST) -> dict[str, tuple[str | None, ...]]:
    """Each function's parameter names in order (None for an unnamed one)."""
    names: dict[str, tuple[str | None, ...]] = {}
    for node in ast.ext:
        decl = node.decl if isinstance(node, c_ast.FuncDef) else node
        if isinstance(decl, c_ast.Decl) and isinstance(decl.type, c_ast.FuncDecl) and decl.type.args is not None:
            params = tuple(getattr(p, "name", None) for p in decl.type.args.params)
            if any(params) or decl.name not in names:
                names[decl.name] = params
    return names


def _the_call(c: OmpConstruct) -> c_ast.FuncCall:
    """The call of a dispatch construct's statement (OpenMP 5.1: `f(...)` or `lvalue = f(...)`)."""
    stmt = c.body
    call = stmt.rvalue if isinstance(stmt, c_ast.Assignment) and stmt.op == "=" else stmt
    if not (isinstance(call, c_ast.FuncCall) and isinstance(call.name, c_ast.ID)):
        raise OmpSemanticError("the statement of '#pragma omp dispatch' must be a call of a function, 'f(...);' "
                               "or 'lvalue = f(...);'", c.directive.coord)
    return call


def _chosen_variant(base: str, variants: list[DeclaredVariant], offload_arch: str) -> DeclaredVariant | None:
    """The variant of `base` a dispatch construct's call on the host takes, if it is one for
    dispatch (the most specific selector that matches; the first where two tie)."""
    matching = [v for v in variants if v.base == base and host_matches(v.traits, offload_arch, context=("dispatch",))]
    if not matching:
        return None
    chosen = max(matching, key=lambda v: len(v.traits))
    return chosen if chosen.for_dispatch else None


def _argument_spans(text: str, open_paren: int) -> tuple[list[tuple[int, int]], int]:
    """The (start, end) of each argument of the call whose '(' is at `open_paren`, and the
    end of its ')'."""
    spans, depth, arg_start = [], 0, open_paren + 1
    for tok, start, end in tokens_from(text, open_paren):
        if tok in "([{":
            depth += 1
        elif tok in ")]}":
            depth -= 1
            if depth == 0:
                if text[arg_start:start].strip():
                    spans.append((arg_start, start))
                return spans, end
        elif tok == "," and depth == 1:
            spans.append((arg_start, start))
            arg_start = end
    raise OmpSemanticError("cannot find the end of the call of '#pragma omp dispatch'", None)


def _dispatch_edits(text: str, c: OmpConstruct, lines: list[str], line_starts: list[int],
                    variants: list[DeclaredVariant], parameters: dict, offload: str, offload_arch: str):
    d = c.directive
    call = _the_call(c)
    base = call.name.name
    i = c.coord.line - 1   # (the construct's coordinate is the line of the text; the directive's, the user's)
    pragma_start, pragma_end = line_starts[i], line_starts[i] + len(lines[i])
    body_pos = line_starts[i + 1] if i + 1 < len(line_starts) else len(text)
    stmt_start = next_token(text, body_pos)[1]
    stmt_end = statement_end(text, body_pos, c)
    # The call's name in the text: where the AST says (same lines and columns as the text).
    name_at = line_starts[call.name.coord.line - 1] + call.name.coord.column - 1
    tok, name_start, name_end = next_token(text, name_at)
    paren = next_token(text, name_end)
    if tok != base or paren[0] != "(":
        raise OmpSemanticError(f"cannot find the call of '{base}' after '#pragma omp dispatch'", d.coord)
    args, call_end = _argument_spans(text, paren[1])

    device = d.clause("device")
    prologue, epilogue = [], []
    if device is not None and offload != "none":
        # the default-device ICV is the construct's device during the call
        prologue.append(f"int __ompgpu_dispatch_device = ({device.expr.text}); "
                        "int __ompgpu_saved_device = omp_get_default_device(); "
                        "omp_set_default_device(__ompgpu_dispatch_device);")
        epilogue.append("omp_set_default_device(__ompgpu_saved_device);")
    if taskwait_for_depends(lines[i]):
        prologue.append(taskwait_for_depends(lines[i]))

    chosen = _chosen_variant(base, variants, offload_arch)
    statement = text[stmt_start:stmt_end]
    if chosen is None:
        replacement = statement
    else:
        names = parameters.get(base) or parameters.get(chosen.variant) or ()
        need = _need_device_ptr(chosen, base, names)
        on_device = {item.name for cl in d.clauses if cl.kind in ("is_device_ptr", "has_device_addr") for item in cl.items}
        where = "__ompgpu_dispatch_device" if device is not None and offload != "none" else "OMPGPU_DEVICE_DEFAULT"
        local: list[tuple[int, int, str]] = [(name_start, name_end, chosen.variant)]
        for k, (a, b) in enumerate(args):
            arg = text[a:b]
            if k < len(names) and names[k] in need and arg.strip() not in on_device and offload != "none":
                local.append((a, b, f" ompgpu_get_device_ptr(0, {where}, (void *)({arg.strip()}))"))
        appended = _appended_interops(chosen)
        for k, kinds in enumerate(appended):
            name = f"__ompgpu_dispatch_interop_{k}"
            prologue.append(f"omp_interop_t {name} = (omp_interop_t)0;")  # (omp_interop_none, a macro: gone after preprocessing)
            if offload != "none":
                prologue.append(f"ompgpu_interop_init(&{name}, {where}, {kinds});")
                epilogue.insert(0, f"ompgpu_interop_destroy(&{name});")
        if appended:
            objects = ", ".join(f"__ompgpu_dispatch_interop_{k}" for k in range(len(appended)))
            close = call_end - 1   # the call's ')'
            local.append((close, close, (", " if args else "") + objects))
        variant_stmt = statement
        for a, b, new in sorted(local, reverse=True):
            variant_stmt = variant_stmt[:a - stmt_start] + new + variant_stmt[b - stmt_start:]
        conditions = [f"({cl.expr.text})" for kind in ("novariants", "nocontext") if (cl := d.clause(kind)) is not None]
        if conditions:
            # the base function's call keeps the statement's lines; the variant's goes on its last line
            replacement = (f"if ({' || '.join(conditions)}) " + statement + " else "
                           + variant_stmt.replace("\n", " "))
        else:
            replacement = variant_stmt
    return [(pragma_start, pragma_end, "{ " + " ".join(prologue)),
            (stmt_start, stmt_end, replacement + (" " + " ".join(epilogue) if epilogue else "") + " }")]


def _appended_interops(chosen: DeclaredVariant) -> list[int]:
    """The interop objects append_args adds to the variant's arguments, as the runtime's kinds
    words (1 target, 2 targetsync), in order."""
    clause = chosen.directive.clause("append_args")
    if clause is None:
        return []
    kinds = []
    for m in re.finditer(r"\binterop\s*\(((?:[^()]|\([^()]*\))*)\)", clause.text):
        words = set(re.findall(r"\b(targetsync|target)\b", re.sub(r"prefer_type\s*\([^)]*\)", "", m.group(1))))
        if not words:
            raise OmpSemanticError("an interop in append_args needs the type target or targetsync", clause.coord)
        kinds.append(interop_kinds(words))
    if not kinds:
        raise OmpSemanticError("append_args takes interop(...) operations", clause.coord)
    return kinds


def _need_device_ptr(chosen: DeclaredVariant, base: str, names: tuple[str | None, ...]) -> set[str]:
    need: set[str] = set()
    for cl in chosen.directive.clauses:
        if isinstance(cl, AdjustArgsClause):
            for item in cl.items:
                if item.name not in names:
                    raise OmpSemanticError(f"'{item.name}' in adjust_args is not a parameter of '{base}'", item.coord)
                if cl.operation == "need_device_ptr":
                    need.add(item.name)
    return need
