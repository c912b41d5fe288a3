"""Printing C from pycparser's AST through its public API only.

pycparser's `CGenerator` prints expressions and statements through its `visit_*` methods,
which are its public interface. Its declarator printing (`_generate_type` and friends) is
private and changed shape between releases (3.12 added `emit_base_type`, attributes and
declaration grouping), so declarations, the part of C whose text we most often build
ourselves (parameters, casts, soft-stack variables), are printed here by our own
declarator printer: the same text on every pycparser release that pyproject allows.
"""
from __future__ import annotations

from pycparser import c_ast, c_generator

# Statement nodes that are expressions or declarations: printed with a ';'.
_SEMICOLON_STATEMENTS = (c_ast.Decl, c_ast.Assignment, c_ast.Cast, c_ast.UnaryOp, c_ast.BinaryOp, c_ast.TernaryOp,
                         c_ast.FuncCall, c_ast.ArrayRef, c_ast.StructRef, c_ast.Constant, c_ast.ID, c_ast.Typedef,
                         c_ast.ExprList, c_ast.CompoundLiteral, c_ast.DeclList, c_ast.StaticAssert)
_DECLARATORS = (c_ast.PtrDecl, c_ast.ArrayDecl, c_ast.FuncDecl)


LINE_MARKER_END = "#line __OMPGPU_RESUME__\n"


def finalize_line_markers(text: str, generated_name: str) -> str:
    """Replace each LINE_MARKER_END by a `#line` that gives the following lines their own
    numbers in the generated file `generated_name`: glue code the compiler adds is then not
    attributed to the user's statement before it."""
    if LINE_MARKER_END not in text:
        return text
    lines = text.split("\n")
    resume = LINE_MARKER_END.rstrip("\n")
    for i, line in enumerate(lines):
        if line == resume:
            lines[i] = line_directive(i + 2, generated_name)
    return "\n".join(lines)


def line_directive(line: int, file: str) -> str:
    """`#line LINE "FILE"` (the file name quoted as a C string literal)."""
    quoted = file.replace("\\", "\\\\").replace('"', '\\"')
    return f'#line {line} "{quoted}"'


class CPrinter(c_generator.CGenerator):
    """pycparser's generator with declarations printed by our own declarator printer."""

    def declared_name(self, name: str) -> str:
        """The spelling of a declared name (a subclass renames names its target language reserves)."""
        return name

    # -- declarations ------------------------------------------------------------------------
    def declaration(self, t: c_ast.Node, name: str | None = None, with_specifiers: bool = True) -> str:
        """The text declaring `name` (abstract when None) with type t; without its specifiers
        (type and qualifiers) when with_specifiers is False (later names of a declaration list)."""
        specifiers, declarator = self._declaration_parts(t, name)
        if not with_specifiers:
            return declarator
        return f"{specifiers} {declarator}" if declarator else specifiers

    def type_name(self, t: c_ast.Node) -> str:
        """The abstract type name of t (as in a cast or sizeof)."""
        return self.declaration(t, None)

    def _declaration_parts(self, t: c_ast.Node, name: str | None) -> tuple[str, str]:
        modifiers = []  # outermost first: `int *a[3]` is [ArrayDecl, PtrDecl]
        while isinstance(t, _DECLARATORS):
            modifiers.append(t)
            t = t.type
        if isinstance(t, (c_ast.TypeDecl, c_ast.Typename)):
            quals, base = list(t.quals or []), t.type
        else:  # a bare specifier: a struct member or parameter without declarator
            quals, base = [], t
        specifiers = " ".join(quals + [self.visit(base).strip()])
        text = self.declared_name(name) if name else ""
        previous = None
        for m in modifiers:
            if isinstance(m, c_ast.PtrDecl):
                quals = " ".join(m.quals or [])
                text = f"* {quals} {text}".rstrip() if quals else "*" + text
            else:
                if isinstance(previous, c_ast.PtrDecl):
                    text = f"({text})"
                if isinstance(m, c_ast.ArrayDecl):
                    dim_quals = " ".join(m.dim_quals or [])
                    dim = self.visit(m.dim) if m.dim is not None else ""
                    text += f"[{dim_quals + ' ' if dim_quals else ''}{dim}]"
                else:
                    text += f"({self.visit(m.args) if m.args is not None else ''})"
            previous = m
        return specifiers, text

    @staticmethod
    def declared_name_of(t: c_ast.Node) -> str | None:
        while isinstance(t, _DECLARATORS):
            t = t.type
        return t.declname if isinstance(t, c_ast.TypeDecl) else None

    def _specifier_prefix(self, n) -> str:
        words = list(getattr(n, "funcspec", None) or []) + list(n.storage or [])
        words += [self.visit(a) for a in (getattr(n, "align", None) or [])]
        return " ".join(words) + " " if words else ""

    def visit_Decl(self, n, no_type=False):
        # The declarator's own name: passes rename a declaration there (TypeDecl.declname).
        name = self.declared_name_of(n.type) or n.name
        if isinstance(n.type, (c_ast.TypeDecl, *_DECLARATORS)):
            s = self.declaration(n.type, name, with_specifiers=not no_type)
        else:  # `struct S {...};`, a member without declarator: the specifier alone
            s = " ".join(list(n.quals or []) + [self.visit(n.type).strip()])
        if not no_type:
            s = self._specifier_prefix(n) + s
        if n.bitsize is not None:
            s += " : " + self.visit(n.bitsize)
        if n.init is not None:
            s += " = " + self.initializer(n.init)
        return s

    def initializer(self, init: c_ast.Node) -> str:
        if isinstance(init, c_ast.InitList):
            return "{" + self.visit(init) + "}"
        if isinstance(init, c_ast.ExprList):  # a comma expression
            return "(" + self.visit(init) + ")"
        return self.visit(init)

    def visit_DeclList(self, n):
        first, *rest = n.decls
        return ", ".join([self.visit(first)] + [self.visit_Decl(d, no_type=True) for d in rest])

    def visit_Typedef(self, n):
        return " ".join(n.storage or ["typedef"]) + " " + self.declaration(n.type, n.name)

    def visit_Typename(self, n):
        return self.declaration(n.type, None)

    # -- statements -----------------------------------------------------------------------------
    def indent(self) -> str:
        return " " * self.indent_level

    def line_marker(self, n: c_ast.Node) -> str:
        """Text put before statement n: a subclass returns a `#line` directive (a whole line)
        naming the user's source; the statement is then followed by LINE_MARKER_END, which
        `finalize_line_markers` turns into a `#line` back to the generated file itself."""
        return ""

    def statement(self, n: c_ast.Node) -> str:
        """One statement at the current indentation, with its ';' and newline."""
        if isinstance(n, c_ast.Compound):
            return self.visit(n)
        marker = self.line_marker(n)
        end = LINE_MARKER_END if marker else ""
        if isinstance(n, _SEMICOLON_STATEMENTS):
            return marker + self.indent() + self.visit(n) + ";\n" + end
        text = self.visit(n)
        return marker + self.indent() + text + ("" if text.endswith("\n") else "\n") + end

    def visit_StaticAssert(self, n):
        # pycparser's own spelling differs between releases (", " or ","): one spelling here.
        text = "_Static_assert(" + self.visit(n.cond)
        if n.message is not None:
            text += ", " + self.visit(n.message)
        return text + ")"

    def visit_Compound(self, n):
        text = self.indent() + "{\n"
        self.indent_level += 2
        text += "".join(self.statement(item) for item in n.block_items or [])
        self.indent_level -= 2
        return text + self.indent() + "}\n"


def declaration(t: c_ast.Node, name: str | None = None) -> str:
    """Plain C text declaring `name` with type t (abstract when name is None)."""
    return CPrinter().declaration(t, name)
