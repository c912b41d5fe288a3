"""C declarator semantics that CUDA C++ lacks, lowered in the bound AST (which device code is
printed from; the host code is the user's own text, which the host compiler takes as C).

- An array-typed parameter is a pointer (C 6.7.6.3): `int f(int a[N])` is `int f(int *a)`,
  `double m[N][M]` is `double (*m)[M]`; `static` and qualifiers in the brackets go.
- Variably modified types (C99): a pointer to a variable-length array, `const double
  (*restrict in)[n]`, a VLA parameter `double m[n][n]` (a pointer to its rows), a cast
  `(double (*)[n])buf` and a multi-dimensional VLA object of host code that a target region
  uses. CUDA C++ has no such types: each becomes a plain pointer to its elements (a VLA object
  one flat VLA), and each variable carries its row lengths as values, declared right after it
  (`const long long __ompgpu_vla_in_1 = n;`: C evaluates the sizes where the declaration is
  reached, and so do these). Indexing `in[i][j]` becomes `in[(i) * __ompgpu_vla_in_1 + (j)]`,
  `in[i]` and `in + i` the address of row i, `*in` row 0. A target region that uses such a
  variable of host code receives the row lengths as values too; the host computes them from
  the variable's own type (`sizes_on_host`).

A VLA object in device code (a target region or a declare target function; CUDA has none, and
a team's threads must reach it where a parallel region shares it) takes its storage from the
device heap: `T *v = (T *)ompgpu_vla_alloc(bytes, "v")` where it is declared (an error naming it
when the heap is exhausted), freed where its block ends and before every return, break,
continue that leaves the block (a goto there is an error); a multi-dimensional one is flat
with its row lengths as above, and `sizeof v` is its size in bytes, kept in a hidden constant.

Uses of a variably modified pointer that this lowering does not cover (++, --, +=, sizeof of a
row) are named errors.
"""
from __future__ import annotations

import copy
import dataclasses
import functools

from pycparser import c_ast

from ompgpu.errors import SourceCoord, UnsupportedError
from ompgpu.parser.bound import BoundUnit, OmpConstruct, enumerators
from ompgpu.parser.cfront import walk_nodes


@dataclasses.dataclass
class _Shape:
    """A lowered variable: its row lengths (the names that hold them), outermost first."""

    name: str
    dims: list[str]


def lower_declarators(bound: BoundUnit) -> BoundUnit:
    """The bound unit with array parameters and variably modified types lowered (see the module
    docstring); the unit itself where the file has neither."""
    if not any(isinstance(n, (c_ast.ArrayDecl, c_ast.Typename)) for n in walk_nodes(bound.ast)):
        return bound
    lowering = _Lowering(bound)
    lowering.file(bound.ast)
    if not lowering.changed:
        return bound
    return dataclasses.replace(bound, vla_sizes=tuple(sorted(lowering.host_sizes.items())))


class _Lowering:
    def __init__(self, bound: BoundUnit):
        self.bound = bound
        self.scopes: list[dict[str, _Shape | None]] = [{}]
        self.device_depth = 0  # > 0 inside a target region or a declare target function
        # per block: the VLA objects of device code declared in it (freed where it ends), and
        # the hidden constants that hold their sizes in bytes (sizeof)
        self.block_vlas: list[list[str]] = [[]]
        self.vla_bytes: list[dict[str, str]] = [{}]
        self.changed = False
        # hidden size name -> the C expression that computes it on the host from the variable
        self.host_sizes: dict[str, str] = {}

    @functools.cached_property
    def enum_names(self) -> set[str]:
        """Every enumeration constant of the file (a name in an array's size that is one keeps
        the size constant): walked only when a size names something, which few files do."""
        return {e.name for n in walk_nodes(self.bound.ast) if isinstance(n, c_ast.Decl) for e in enumerators(n.type)}

    # -- coordinates and errors ------------------------------------------------------------------
    def user_coord(self, node) -> SourceCoord:
        c = getattr(node, "coord", None)
        if isinstance(c, SourceCoord) or c is None:
            return c or SourceCoord(self.bound.pre.path, 1, 1)
        return self.bound.pre.user_coord(c.line, c.column)

    def error(self, node, what: str) -> UnsupportedError:
        return UnsupportedError(what, self.user_coord(node))

    # -- types -----------------------------------------------------------------------------------
    def is_constant(self, dim: c_ast.Node | None) -> bool:
        if dim is None:
            return True
        for n in walk_nodes(dim):
            if isinstance(n, c_ast.ID) and n.name not in self.enum_names:
                return False
            if isinstance(n, c_ast.FuncCall):
                return False
        return True

    def array_dims(self, t) -> tuple[list[c_ast.Node | None], c_ast.Node]:
        """(dims outermost first, element type) of a chain of ArrayDecls."""
        dims = []
        while isinstance(t, c_ast.ArrayDecl):
            dims.append(t.dim)
            t = t.type
        return dims, t

    def lowered_type(self, t):
        """(new type, row-length expressions or None): a pointer to a VM array as a pointer to
        its elements, with the row lengths; other types unchanged."""
        if isinstance(t, c_ast.PtrDecl) and isinstance(t.type, c_ast.ArrayDecl):
            dims, elem = self.array_dims(t.type)
            if not all(self.is_constant(d) for d in dims):
                if any(d is None for d in dims):
                    return t, None
                return c_ast.PtrDecl(t.quals, elem, t.coord), dims
        return t, None

    # -- the file --------------------------------------------------------------------------------
    def file(self, ast: c_ast.FileAST) -> None:
        for ext in ast.ext:
            if isinstance(ext, c_ast.FuncDef):
                self.function(ext)
            elif isinstance(ext, c_ast.Decl) and isinstance(ext.type, c_ast.FuncDecl):
                self.params(ext.type, None)

    def params(self, fd: c_ast.FuncDecl, body_decls: list | None) -> None:
        """Adjust each parameter's array type to a pointer; a VM one declares its row lengths
        (appended to body_decls, the function body's first declarations)."""
        if fd.args is None:
            return
        for p in fd.args.params:
            if not isinstance(p, c_ast.Decl):
                continue
            if isinstance(p.type, c_ast.ArrayDecl):
                # C 6.7.6.3: a parameter of array type is a pointer; [static n] and qualifiers go
                quals = [q for q in p.type.dim_quals or () if q != "static"]
                p.type = c_ast.PtrDecl(quals, p.type.type, p.type.coord)
                self.changed = True
            new, dims = self.lowered_type(p.type)
            if dims is not None:
                p.type = new
                self.changed = True
                if body_decls is not None and p.name:
                    body_decls.extend(self.declare_shape(p.name, dims, p, 0))
                continue
            if p.name and body_decls is not None:
                self.scopes[-1][p.name] = None

    def function(self, fn: c_ast.FuncDef) -> None:
        device = fn.decl.name in self.bound.declare_target
        self.device_depth += device
        self.scopes.append({})
        sizes: list[c_ast.Decl] = []
        if isinstance(fn.decl.type, c_ast.FuncDecl):
            self.params(fn.decl.type, sizes)
        body = fn.body
        self.block(body)
        if sizes and isinstance(body, c_ast.Compound):
            body.block_items = sizes + list(body.block_items or [])
        self.scopes.pop()
        self.device_depth -= device

    def declare_shape(self, name: str, dims: list, node, first: int) -> list[c_ast.Decl]:
        """The row-length declarations of `name` and the scope entry that makes its uses
        lowered: dims[first:] are its row lengths (all the array dimensions of a pointer to an
        array; those after the first of an array object)."""
        hidden, decls = [], []
        for k, dim in enumerate(dims[first:], start=1):
            size = f"__ompgpu_vla_{name}_{k}"
            hidden.append(size)
            ty = c_ast.TypeDecl(size, ["const"], None, c_ast.IdentifierType(["long", "long"]), node.coord)
            decls.append(c_ast.Decl(size, ["const"], [], [], [], ty, self.expr(copy.deepcopy(dim)), None, node.coord))
            # on the host, the size of the variable's own type: sizeof(v[0]...) / sizeof(v[0]...[0])
            zeros = "[0]" * k
            self.host_sizes[size] = f"(long long)(sizeof(({name}){zeros}) / sizeof(({name}){zeros}[0]))"
        self.scopes[-1][name] = _Shape(name, hidden)
        return decls

    # -- statements ------------------------------------------------------------------------------
    def block(self, node) -> None:
        if not isinstance(node, c_ast.Compound):
            self.statement_child(node)
            return
        self.scopes.append({})
        self.block_vlas.append([])
        self.vla_bytes.append({})
        items = []
        for item in node.block_items or []:
            if isinstance(item, c_ast.Decl):
                items.append(item)
                items.extend(self.declaration(item))
            elif isinstance(item, c_ast.DeclList):
                items.append(item)
                for d in item.decls:
                    if self.declaration(d):
                        raise self.error(d, "a variably modified type in a declaration list is not supported yet")
            else:
                items.append(self.statement(item))
        vlas = self.block_vlas.pop()
        self.vla_bytes.pop()
        if vlas:
            items = [_free_before_exits(item, vlas, False, False, self) for item in items]
            if not (items and isinstance(items[-1], c_ast.Return)):
                items.extend(_frees(vlas, node.coord))
        node.block_items = items
        self.scopes.pop()

    def declaration(self, d: c_ast.Decl) -> list[c_ast.Decl]:
        """Lower one declaration in place; returns the declarations that must follow it."""
        if isinstance(d.type, c_ast.FuncDecl) or "typedef" in (d.storage or []):
            return []
        if d.init is not None:
            d.init = self.expr(d.init)
        new, dims = self.lowered_type(d.type)
        if dims is not None:
            d.type = new
            self.changed = True
            return self.declare_shape(d.name, dims, d, 0)
        if isinstance(d.type, c_ast.ArrayDecl):
            dims, elem = self.array_dims(d.type)
            if not all(self.is_constant(x) for x in dims):
                if self.device_depth and "extern" not in (d.storage or []):
                    return self.device_vla(d, dims, elem)
                if len(dims) > 1:
                    # a VLA object of several dimensions: one flat VLA of all its elements
                    # (the host's own object; a region gets it as a pointer, its rows as values)
                    flat = c_ast.BinaryOp("*", copy.deepcopy(dims[0]), copy.deepcopy(dims[1]), d.coord)
                    for extra in dims[2:]:
                        flat = c_ast.BinaryOp("*", flat, copy.deepcopy(extra), d.coord)
                    d.type = c_ast.ArrayDecl(elem, flat, [], d.type.coord)
                    self.changed = True
                    return self.declare_shape(d.name, dims, d, 1)
        self.scopes[-1][d.name] = None
        return []

    def device_vla(self, d: c_ast.Decl, dims: list, elem) -> list[c_ast.Decl]:
        """A VLA object of device code: storage from the device heap (see the module docstring);
        returns the declarations that follow it."""
        if "static" in (d.storage or []):
            raise self.error(d, f"'{d.name}' cannot be a static variable-length array")
        if d.init is not None:
            raise self.error(d, f"the variable-length array '{d.name}' cannot have an initializer")
        if len(self.block_vlas) < 2:
            raise self.error(d, f"the variable-length array '{d.name}' must be declared in a block")
        coord = d.coord
        count: c_ast.Node = c_ast.Cast(c_ast.Typename(None, [], None, c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(
            ["unsigned", "long", "long"]))), self.expr(copy.deepcopy(dims[0])), coord)
        for extra in dims[1:]:
            count = c_ast.BinaryOp("*", count, self.expr(copy.deepcopy(extra)), coord)
        element = _unnamed(elem)
        size = c_ast.UnaryOp("sizeof", c_ast.Typename(None, [], None, copy.deepcopy(element)), coord)
        nbytes = c_ast.BinaryOp("*", count, size, coord)
        d.type = c_ast.PtrDecl([], elem, d.type.coord)
        pointer = c_ast.Typename(None, [], None, c_ast.PtrDecl([], copy.deepcopy(element), coord))
        d.init = c_ast.Cast(pointer, c_ast.FuncCall(c_ast.ID("ompgpu_vla_alloc", coord), c_ast.ExprList(
            [nbytes, c_ast.Constant("string", f'"{d.name}"', coord)], coord), coord), coord)
        self.changed = True
        bytes_name = f"__ompgpu_vla_bytes_{d.name}"
        ty = c_ast.TypeDecl(bytes_name, ["const"], None, c_ast.IdentifierType(["unsigned", "long", "long"]), coord)
        after = [c_ast.Decl(bytes_name, ["const"], [], [], [], ty, copy.deepcopy(nbytes), None, coord)]
        if len(dims) > 1:
            after += self.declare_shape(d.name, dims, d, 1)
        else:
            self.scopes[-1][d.name] = None
        self.block_vlas[-1].append(d.name)
        self.vla_bytes[-1][d.name] = bytes_name
        return after

    def vla_bytes_of(self, node) -> str | None:
        """The hidden constant with the size of a device VLA object that `node` names, else None."""
        if not isinstance(node, c_ast.ID):
            return None
        for scope, sizes in zip(reversed(self.scopes), reversed(self.vla_bytes)):
            if node.name in sizes:
                return sizes[node.name]
            if node.name in scope:
                return None
        return None

    def statement(self, node):
        if isinstance(node, c_ast.Compound):
            self.block(node)
            return node
        self.statement_child(node)
        return node

    def statement_child(self, node) -> None:
        if node is None:
            return
        if isinstance(node, c_ast.Compound):
            self.block(node)
            return
        if isinstance(node, OmpConstruct):
            device = "target" in node.directive.leaves
            self.device_depth += device
            if node.body is not None:
                node.body = self.statement(node.body)
            self.device_depth -= device
            return
        if isinstance(node, c_ast.For):
            self.scopes.append({})
            if isinstance(node.init, c_ast.DeclList):
                for d in node.init.decls:
                    if self.declaration(d):
                        raise self.error(d, "a variably modified type in a for loop's declaration is not supported yet")
            elif node.init is not None:
                node.init = self.expr(node.init)
            node.cond = self.expr(node.cond) if node.cond is not None else None
            node.next = self.expr(node.next) if node.next is not None else None
            node.stmt = self.statement(node.stmt)
            self.scopes.pop()
            return
        if isinstance(node, (c_ast.If, c_ast.While, c_ast.DoWhile, c_ast.Switch, c_ast.Case, c_ast.Default,
                             c_ast.Label, c_ast.Return)):
            for attr in ("cond", "expr"):
                if getattr(node, attr, None) is not None and not isinstance(node, (c_ast.Case,)):
                    setattr(node, attr, self.expr(getattr(node, attr)))
            for attr in ("iftrue", "iffalse", "stmt"):
                if getattr(node, attr, None) is not None:
                    setattr(node, attr, self.statement(getattr(node, attr)))
            if isinstance(node, (c_ast.Case, c_ast.Default)):
                node.stmts = [self.statement(s) for s in node.stmts or []]
            return
        if isinstance(node, c_ast.Node) and not isinstance(node, (c_ast.Goto, c_ast.Break, c_ast.Continue,
                                                                  c_ast.EmptyStatement, c_ast.Pragma)):
            new = self.expr(node)
            if new is not node:
                raise self.error(node, "a variably modified value used as a statement is not supported yet")

    # -- expressions -----------------------------------------------------------------------------
    def shape_of(self, node) -> _Shape | None:
        if not isinstance(node, c_ast.ID):
            return None
        for scope in reversed(self.scopes):
            if node.name in scope:
                return scope[node.name]
        return None

    def expr(self, node):
        """The expression with VM indexing lowered (a new node where it changes)."""
        if node is None:
            return None
        if isinstance(node, c_ast.ArrayRef) or (isinstance(node, c_ast.UnaryOp) and node.op == "*"):
            chain, base = [], node
            while isinstance(base, c_ast.ArrayRef) or (isinstance(base, c_ast.UnaryOp) and base.op == "*"):
                if isinstance(base, c_ast.ArrayRef):
                    chain.append(base.subscript)
                    base = base.name
                else:
                    chain.append(c_ast.Constant("int", "0", base.coord))
                    base = base.expr
            subscripts = list(reversed(chain))
            if isinstance(base, c_ast.BinaryOp) and base.op in ("+", "-"):
                # (m + e)[i] and *(m + e): rows counted from row e, m[e + i]
                left, right = self.shape_of(base.left), self.shape_of(base.right)
                if left is not None or (right is not None and base.op == "+"):
                    ptr, off = (base.left, base.right) if left is not None else (base.right, base.left)
                    subscripts[0] = c_ast.BinaryOp(base.op if left is not None else "+", subscripts[0], off, base.coord)
                    base = ptr
            shape = self.shape_of(base)
            if shape is not None:
                return self.index(shape, base, [self.expr(i) for i in subscripts], node)
        if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
            left, right = self.shape_of(node.left), self.shape_of(node.right)
            if left is not None or (right is not None and node.op == "+"):
                shape, ptr, off = (left, node.left, node.right) if left is not None else (right, node.right, node.left)
                stride = self.product(shape.dims, node.coord)
                return c_ast.BinaryOp(node.op, ptr, c_ast.BinaryOp("*", (self.expr(off)), stride, node.coord), node.coord)
        if isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--") and self.shape_of(node.expr):
            raise self.error(node, f"'{node.op.strip('p')}' on a pointer to a variable-length array is not supported yet")
        if isinstance(node, c_ast.Assignment) and node.op != "=" and self.shape_of(node.lvalue):
            raise self.error(node, f"'{node.op}' on a pointer to a variable-length array is not supported yet")
        if isinstance(node, c_ast.UnaryOp) and node.op == "sizeof" and self.vla_bytes_of(node.expr) is not None:
            return c_ast.ID(self.vla_bytes_of(node.expr), node.coord)
        if isinstance(node, c_ast.UnaryOp) and node.op == "sizeof" and self._mentions_shape(node.expr):
            raise self.error(node, "sizeof of a variably modified expression in device code is not supported yet")
        if isinstance(node, c_ast.Cast):
            new, dims = self.lowered_type(node.to_type.type)
            if dims is not None:
                node.to_type.type = new
                self.changed = True
        for name, child in list(node.children()):
            if isinstance(child, c_ast.Compound):
                self.block(child)  # a GNU statement expression
                continue
            new = self.expr(child)
            if new is not child:
                _replace_child(node, name, new)
        return node

    def _mentions_shape(self, node) -> bool:
        return any(self.shape_of(n) is not None for n in walk_nodes(node))

    def product(self, dims: list[str], coord) -> c_ast.Node:
        out: c_ast.Node = c_ast.ID(dims[0], coord)
        for d in dims[1:]:
            out = c_ast.BinaryOp("*", out, c_ast.ID(d, coord), coord)
        return out

    def index(self, shape: _Shape, base: c_ast.ID, subscripts: list, node) -> c_ast.Node:
        """base[s0][s1]... over the flat elements: an element with every subscript, else the
        address of the first element of the row (sub-array) the subscripts select."""
        coord = node.coord
        rank = len(shape.dims) + 1
        if len(subscripts) > rank:
            raise self.error(node, f"'{shape.name}' has {rank} dimensions")
        offset = (subscripts[0])
        for k, s in enumerate(subscripts[1:]):
            offset = c_ast.BinaryOp("+", c_ast.BinaryOp("*", offset, c_ast.ID(shape.dims[k], coord), coord), (s), coord)
        self.changed = True
        if len(subscripts) == rank:
            return c_ast.ArrayRef(base, offset, coord)
        rest = shape.dims[len(subscripts) - 1:]
        return (c_ast.BinaryOp("+", base, c_ast.BinaryOp("*", (offset), self.product(rest, coord), coord), coord))


def _replace_child(node, name: str, new) -> None:
    """Set the child that children() reports as `name` (`attr` or `attr[i]`)."""
    if "[" in name:
        attr, idx = name[:-1].split("[")
        getattr(node, attr)[int(idx)] = new
    else:
        setattr(node, name, new)


def _unnamed(t):
    """A copy of a declarator type without its declared name (for sizeof and casts)."""
    t = copy.deepcopy(t)
    inner = t
    while not isinstance(inner, c_ast.TypeDecl):
        inner = inner.type
    inner.declname = None
    return t


def _frees(names: list[str], coord) -> list[c_ast.Node]:
    return [c_ast.FuncCall(c_ast.ID("free", coord), c_ast.ExprList([c_ast.ID(n, coord)], coord), coord)
            for n in reversed(names)]


def _free_before_exits(node, names: list[str], in_loop: bool, in_switch: bool, lowering) -> c_ast.Node:
    """`node` with the VLA objects `names` of its enclosing block freed before each statement
    that leaves that block: return, and break/continue not caught by a loop (or switch) inside
    it. A return's value is computed first. goto: an error."""
    coord = getattr(node, "coord", None)
    if isinstance(node, c_ast.Return):
        if node.expr is None:
            return c_ast.Compound(_frees(names, coord) + [node], coord)
        value = c_ast.Decl("__ompgpu_returned", [], [], [], [], c_ast.TypeDecl("__ompgpu_returned", [], None,
                           c_ast.IdentifierType(["auto"])), node.expr, None, coord)
        return c_ast.Compound([value] + _frees(names, coord) + [c_ast.Return(c_ast.ID("__ompgpu_returned", coord), coord)],
                              coord)
    if isinstance(node, (c_ast.Break, c_ast.Continue)):
        caught = in_loop or (in_switch and isinstance(node, c_ast.Break))
        return node if caught else c_ast.Compound(_frees(names, coord) + [node], coord)
    if isinstance(node, c_ast.Goto):
        raise lowering.error(node, "a goto in a block of device code with a variable-length array is not supported yet")
    loop = isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile))
    switch = isinstance(node, c_ast.Switch)
    for name, child in list(node.children()):
        if isinstance(child, (c_ast.Compound, c_ast.If, c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch,
                              c_ast.Case, c_ast.Default, c_ast.Label, c_ast.Return, c_ast.Break, c_ast.Continue,
                              c_ast.Goto, OmpConstruct)):
            new = _free_before_exits(child, names, in_loop or loop, in_switch or switch, lowering)
            if new is not child:
                _replace_child(node, name, new)
    return node
