"""Binding at file scope: the part of the binder that handles what stands outside functions.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from pycparser import c_ast

from ompgpu.errors import OmpgpuError, OmpSemanticError, UnsupportedError
from ompgpu.parser.cfront import set_declname, walk_nodes
from ompgpu.parser.context import construct_names, device_matches, host_matches
from ompgpu.parser.directives import Directive, MatchClause
from ompgpu.parser.mappers import element_type_key, type_key
from ompgpu.parser.bound import DeclaredVariant, OmpConstruct, declared_names, defined_functions


@dataclass(frozen=True)
class _VariantBlock:
    """An open `begin declare variant` block: whether its context selector matches the host and
    the GPU (its traits other than construct traits, for a block that has some), its pragma's
    line of the preprocessed text, and whether its functions are variants chosen where each
    call stands (the selector has construct traits)."""

    directive: Directive
    on_host: bool
    on_device: bool
    line: int
    per_call: bool


def _declares_function(node: c_ast.Node) -> bool:
    return isinstance(node, c_ast.FuncDef) or (isinstance(node, c_ast.Decl) and isinstance(node.type, c_ast.FuncDecl))


class FileScopeBinding:
    """The binder's file scope (mixed into bind._Binder): declare target blocks, begin declare
    variant blocks, requires, declare mapper, the names the file declares."""

    def _indirect(self, d: Directive) -> bool:
        """Whether a declare target directive has `indirect` (OpenMP 5.1) in force: bare, or with
        a constant that is not zero."""
        clause = d.clause("indirect") if d.name in ("declare target", "begin declare target") else None
        if clause is None:
            return False
        if clause.expr is None:
            return True
        text = clause.expr.text.strip()
        if text in ("true", "false"):
            return text == "true"
        try:
            return int(text.rstrip("uUlL"), 0) != 0
        except ValueError:
            raise self._err(OmpSemanticError, f"the argument of 'indirect' must be a constant: '{text}'",
                            clause.coord) from None

    # -- file scope -------------------------------------------------------------
    def bind_file(self, ast: c_ast.FileAST) -> c_ast.FileAST:
        ext = []
        open_blocks: list[Directive] = []
        variant_blocks: list[_VariantBlock] = []   # the open `begin declare variant` blocks
        for node in ast.ext:
            if isinstance(node, c_ast.Pragma):
                d = self._directive(node)
                if d is not None and d.name in ("begin declare variant", "end declare variant"):
                    self._variant_block(d, node.coord.line, variant_blocks, self._in_system_header(node))
                    continue
                if variant_blocks and self._kept_in_variant_block(node, variant_blocks) is None:
                    continue
                if d is None:
                    ext.append(node)
                    continue
                indirect = self._indirect(d)
                if d.name in ("declare target", "begin declare target") and not d.items and not d.clauses:
                    open_blocks.append(d)
                elif d.name == "begin declare target":
                    open_blocks.append(d)
                elif d.name == "end declare target":
                    if not open_blocks:
                        raise self._err(OmpSemanticError, "'#pragma omp end declare target' without a matching 'declare target'", d.coord)
                    open_blocks.pop()
                elif d.name == "requires":
                    for c in d.clauses:
                        if c.kind in _UNMET_REQUIREMENTS:
                            raise self._err(UnsupportedError, f"'requires {c.kind}' is not supported yet: "
                                            f"{_UNMET_REQUIREMENTS[c.kind]}", c.coord)
                elif d.name == "declare mapper":
                    self._mapped(d)
                elif d.name == "declare target":
                    for item in d.items:
                        self.declare_target.add(item.name)
                    for c in d.clauses:
                        for item in getattr(c, "items", ()):
                            self.declare_target.add(item.name)
                            if indirect:
                                self.indirect_functions.add(item.name)
                ext.append(OmpConstruct(d, None, node.coord))
                continue
            if variant_blocks:
                node = self._kept_in_variant_block(node, variant_blocks)
                if node is None:
                    continue
            self._declare_names(node)
            if open_blocks:
                for name in declared_names(node):
                    self.declare_target.add(name)
                if any(self._indirect(b) for b in open_blocks) and _declares_function(node):
                    self.indirect_functions.update(declared_names(node))
            if isinstance(node, c_ast.FuncDef):
                self.in_declare_target = bool(open_blocks) or node.decl.name in self.declare_target
                node = self._bind_funcdef(node)
                self.in_declare_target = False
            ext.append(node)
        if open_blocks:
            d = open_blocks[-1]
            raise self._err(OmpSemanticError, "'#pragma omp declare target' without a matching 'end declare target'", d.coord)
        if variant_blocks:
            d = variant_blocks[-1].directive
            raise self._err(OmpSemanticError, "'#pragma omp begin declare variant' without a matching "
                            "'end declare variant'", d.coord)
        self._check_variant_definitions(ext)
        self._declare_initializer_references(ast)
        new = copy.copy(ast)
        new.ext = ext
        return new

    def _check_variant_definitions(self, ext: list[c_ast.Node]) -> None:
        """A function that a kept `begin declare variant` block defines is the only one of its
        name: a variant of a base function declared outside the block (which calls would
        resolve to by context) is not supported yet, and must not become a redefinition."""
        if not self.variant_definitions:
            return
        inside = {name for name, _ in self.variant_definitions}
        counts: dict[str, int] = {}
        for node in ext:
            names = defined_functions(node) or ([node.name] if isinstance(node, c_ast.Decl) and
                                                  isinstance(node.type, c_ast.FuncDecl) else [])
            for name in names:
                if name in inside:
                    counts[name] = counts.get(name, 0) + 1
        for name, coord in self.variant_definitions:
            if counts.get(name, 0) > 1:
                raise self._err(UnsupportedError, f"'{name}' is declared outside the 'begin declare variant' block that "
                                "defines it: variants of a base function in such blocks are not supported yet", coord)

    def _in_system_header(self, node: c_ast.Node) -> bool:
        return node.coord is not None and self.pre.user_coord(node.coord.line).file in self.pre.system_files

    def _variant_block(self, d: Directive, line: int, blocks: list[_VariantBlock], in_system_header: bool) -> None:
        """Opens or closes a `begin declare variant` block (its pragma on `line` of the
        preprocessed text), with whether its context selector matches the host and the GPU
        (OpenMP 5.1, 7.2). The host code loses the pragma lines of a block that the host
        matches and the whole of one it does not (host_blank_lines), except in a system
        header: that one is the host compiler's own (clang's <omp.h>), which it understands."""
        if d.name == "end declare variant":
            if not blocks:
                raise self._err(OmpSemanticError, "'#pragma omp end declare variant' without a matching "
                                "'begin declare variant'", d.coord)
            begin_line = blocks[-1].line
            if not in_system_header:
                if all(b.on_host for b in blocks):
                    self.host_blank_lines.extend([(begin_line, begin_line), (line, line)])
                else:
                    self.host_blank_lines.append((begin_line, line))
            blocks.pop()
            return
        match = d.clause("match")
        if not isinstance(match, MatchClause):
            raise self._err(OmpSemanticError, "'#pragma omp begin declare variant' needs a match clause", d.coord)
        # A block with construct traits: its functions are variants wherever the rest matches,
        # chosen where each call stands (parser/variants.py), on the host as on the GPU.
        static = tuple(t for t in match.traits if t.trait_set != "construct")
        try:
            per_call = bool(construct_names(match.traits))
            on_host = host_matches(static, self.offload_arch)
            on_device = device_matches(static, self.offload_arch)
        except OmpgpuError as exc:
            exc.coord = self.fixer.fix(exc.coord)
            raise
        if per_call and any(b.per_call for b in blocks):
            raise self._err(UnsupportedError, "nested 'begin declare variant' blocks with construct selectors are "
                            "not supported yet", d.coord)
        blocks.append(_VariantBlock(d, on_host, on_device, line, per_call))

    def _kept_in_variant_block(self, node: c_ast.Node, blocks: list[_VariantBlock]) -> c_ast.Node | None:
        """A file-scope node inside open `begin declare variant` blocks as it stays in the
        unit, or None where it goes. The unit serves the host code and the device code: what only the host's context
        matches stays (a function of it that device code calls is an error, see
        host_only_variant_functions); what matches neither goes; what matches only the GPU is
        not supported yet, except in a system header (clang's <omp.h> defines
        omp_is_initial_device so: the device runtime has its own). In a block with construct
        traits, each function becomes a variant of the base function of its name (renamed,
        see _per_call_variant)."""
        on_host = all(b.on_host for b in blocks)
        on_device = all(b.on_device for b in blocks)
        if on_host:
            if any(b.per_call for b in blocks) and _declares_function(node):
                return self._per_call_variant(node, next(b for b in blocks if b.per_call).directive)
            if not on_device:
                self.host_only_variant_functions.extend((name, blocks[-1].directive.coord)
                                                        for name in defined_functions(node))
            if not self._in_system_header(node):
                self.variant_definitions.extend((name, blocks[-1].directive.coord) for name in defined_functions(node))
            return node
        if on_device and not self._in_system_header(node):
            raise self._err(UnsupportedError, "a 'begin declare variant' block whose context selector matches the GPU "
                            "but not the host is not supported yet", blocks[-1].directive.coord)
        return None

    def _per_call_variant(self, node: c_ast.Node, d: Directive) -> c_ast.Node:
        """A function declared in a block with construct traits, renamed to a name of its own:
        a variant of the base function of its name, which must be declared before the block.
        The host code gets the same name (host_renames)."""
        node = copy.deepcopy(node)
        decl = node.decl if isinstance(node, c_ast.FuncDef) else node
        base = decl.name
        if base not in self.scopes[0]:
            raise self._err(UnsupportedError, f"'{base}' in a 'begin declare variant' block with a construct selector "
                            "needs a base function of that name declared before the block", d.coord)
        known = {v.base: v.variant for v in self.block_variants if v.directive is d}
        variant = known.get(base) or f"__ompgpu_variant{len(self.block_variants)}_{base}"
        if base not in known:
            self.block_variants.append(DeclaredVariant(base, variant, d.clause("match").traits, d))
        self.host_renames.append((decl.coord.line, decl.coord.column, base, variant))
        decl.name = variant
        set_declname(decl.type, variant)
        return node

    def _declare_initializer_references(self, ast: c_ast.FileAST) -> None:
        """A function or global variable that the initializer of a declare target variable
        names is declare target too (OpenMP 5.0), so that the device copy of
        `int (*op)(int) = twice;` points at a device function and that of `int *p = &x;` at the
        device's x. Repeated until nothing is added (x's own initializer may name another)."""
        names = {n.decl.name for n in ast.ext if isinstance(n, c_ast.FuncDef)}
        names |= {n.name for n in ast.ext if isinstance(n, c_ast.Decl) and n.name and
                  not (n.storage and "typedef" in n.storage)}
        changed = True
        while changed:
            changed = False
            for n in ast.ext:
                if isinstance(n, c_ast.Decl) and n.name in self.declare_target and n.init is not None:
                    for ref in walk_nodes(n.init):
                        if isinstance(ref, c_ast.ID) and ref.name in names and ref.name not in self.declare_target:
                            self.declare_target.add(ref.name)
                            changed = True

    def _declare_names(self, node: c_ast.Node) -> None:
        for name in declared_names(node):
            self.scopes[-1].add(name)
        self._note_types(node)

    def _note_types(self, node: c_ast.Node) -> None:
        """Typedefs and struct variables, for declare mapper (mappers.type_key)."""
        if isinstance(node, c_ast.Typedef):
            self.typedefs[node.name] = node.type
        elif isinstance(node, c_ast.Decl) and node.name and not isinstance(node.type, c_ast.FuncDecl):
            self.var_types[-1][node.name] = (type_key(node.type, self.typedefs), element_type_key(node.type, self.typedefs))
        elif isinstance(node, c_ast.DeclList):
            for d in node.decls:
                self._note_types(d)

    def _var_type(self, name: str) -> tuple[str | None, str | None]:
        for scope in reversed(self.var_types):
            if name in scope:
                return scope[name]
        return (None, None)

    def _push_scope(self, names=()) -> None:
        self.scopes.append(set(names))
        self.var_types.append({})

    def _pop_scope(self) -> None:
        self.scopes.pop()
        self.var_types.pop()

    def _mapped(self, d: Directive) -> Directive:
        """d with declare mappers applied to its map clauses; a declare mapper is recorded."""
        if d.name == "declare mapper":
            self.mappers.declare(d, self.typedefs)
            return d
        try:
            return self.mappers.apply(d, self._var_type)
        except OmpgpuError as exc:
            raise self._err(type(exc), exc.message, exc.coord)


# What a `requires` clause asks that ompgpu cannot promise (OpenMP: an implementation that
# does not support a requirement must reject the program at compile time). unified_address
# holds (CUDA's unified virtual addressing); dynamic_allocators and atomic_default_mem_order
# are honoured; unified_shared_memory is the runtime's to check: only devices that can access
# pageable host memory are available to such a program.
_UNMET_REQUIREMENTS = {
    "reverse_offload": "target regions cannot run host code (device(ancestor: 1))",
}
