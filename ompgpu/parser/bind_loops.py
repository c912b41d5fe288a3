"""Binding of loop nests: the part of the binder that shapes collapsed loop nests.
"""
from __future__ import annotations

import copy
import dataclasses

from pycparser import c_ast

from ompgpu.errors import OmpSemanticError, OmpSyntaxError, UnsupportedError
from ompgpu.parser.directives import Directive
from ompgpu.parser.pragma import parse_pragma
from ompgpu.parser.cfront import sole_statement, walk_nodes
from ompgpu.parser.bound import LOOP_LEAVES, OmpConstruct, collapse_depth, for_vars, loop_header_names, loop_nest


class LoopNestBinding:
    """The binder's loop nests (mixed into bind._Binder): perfect and imperfect collapse nests
    (declarations sunk into the innermost body), rectangular collapse, the loop's checks."""

    # -- imperfectly nested collapse (OpenMP 5.0) ------------------------------------
    def _perfect_nest(self, d: Directive, body: c_ast.Node, pragma: c_ast.Pragma) -> c_ast.Node:
        """A collapsed loop nest whose loops have intervening code between them (declarations and
        statements before or after an inner loop), made perfect by moving that code into the
        innermost body, before and after it: OpenMP 5.0 runs intervening code at least once per
        iteration of the loop around it and at most once per iteration of the innermost loop,
        which this does (once per innermost iteration), and a declaration there runs before the
        body that uses it, in the same iteration. Other nests come back unchanged (and
        _check_loop reports one that is too shallow)."""
        depth = collapse_depth(d)
        if depth < 2 or not (LOOP_LEAVES & set(d.leaves)) or not isinstance(body, c_ast.For):
            return body
        perfect = len(loop_nest(body, depth))
        if perfect >= depth:
            return body
        made = self._sink_declarations(body, depth, d)
        if made is None:
            return body
        self.imperfect_collapses.append((pragma.coord.line, depth, perfect))
        return made

    def _sink_declarations(self, f: c_ast.For, depth: int, d: Directive) -> c_ast.For | None:
        if depth == 1:
            return f
        inner, decls, after = f.stmt, [], []
        if isinstance(inner, c_ast.Compound):
            items = [x for x in (inner.block_items or []) if not isinstance(x, c_ast.EmptyStatement)]
            loops = [k for k, x in enumerate(items) if isinstance(x, c_ast.For)]
            if len(loops) != 1:
                return None
            decls, inner, after = items[:loops[0]], items[loops[0]], items[loops[0] + 1:]
        if not isinstance(inner, c_ast.For):
            return None
        for x in decls + after:
            why = self._not_intervening_code(x)
            if why is not None:
                where = self.pre.user_coord(x.coord.line, x.coord.column) if x.coord else None
                clause = d.clause("collapse")
                raise self._err(UnsupportedError, f"collapse of an imperfectly nested loop nest with {why} between the "
                                f"loops{f' (line {where.line})' if where else ''} is not supported yet",
                                clause.coord if clause else d.coord)
        if any(isinstance(x, c_ast.Decl) for x in after):
            return None
        # what the intervening code declares or assigns must not bound the inner loop (the nest
        # would not be rectangular)
        names = {x.name for x in decls if isinstance(x, c_ast.Decl)} | {
            t.name for x in decls for n in walk_nodes(x)
            for t in ([n.lvalue] if isinstance(n, c_ast.Assignment) else [n.expr] if isinstance(n, c_ast.UnaryOp)
                      and n.op in ("++", "--", "p++", "p--") else []) if isinstance(t, c_ast.ID)}
        names &= loop_header_names(inner)
        if names:
            name = sorted(names)[0]
            where = d.clause("collapse")
            raise self._err(UnsupportedError, f"collapse of a loop nest whose inner loop's bounds use '{name}', declared "
                            "or assigned between the loops, is not supported yet", where.coord if where is not None else d.coord)
        made = self._sink_declarations(inner, depth - 1, d)
        if made is None:
            return None
        if decls or after:
            made = self._with_around(made, depth - 1, decls, after)
        new = copy.copy(f)
        new.stmt = made
        return new

    @staticmethod
    def _not_intervening_code(x: c_ast.Node) -> str | None:
        """Why x cannot be moved into the innermost body as intervening code (a loop, a jump, an
        OpenMP construct or call, a static declaration), or None."""
        if isinstance(x, c_ast.Decl):
            return "a declaration with a storage class" if x.storage or isinstance(x.type, c_ast.FuncDecl) else None
        for n in walk_nodes(x):
            if isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile)):
                return "a loop"
            if isinstance(n, (c_ast.Break, c_ast.Continue, c_ast.Return, c_ast.Goto, c_ast.Label, c_ast.Switch)):
                return "a jump"
            if isinstance(n, OmpConstruct) or isinstance(n, c_ast.Pragma):
                return "an OpenMP directive"
            if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and n.name.name.startswith("omp_"):
                return f"a call of '{n.name.name}'"
        return None

    @staticmethod
    def _with_around(f: c_ast.For, depth: int, before: list, after: list) -> c_ast.For:
        """f (a perfect nest of depth loops) with `before` first and `after` last in its innermost body."""
        new = copy.copy(f)
        if depth == 1:
            new.stmt = c_ast.Compound(list(before) + [f.stmt] + list(after), f.stmt.coord if f.stmt is not None else f.coord)
            return new
        inner = sole_statement(f.stmt)
        new.stmt = LoopNestBinding._with_around(inner, depth - 1, before, after)
        return new

    def _rectangular_collapse(self, d: Directive, body: c_ast.Node) -> Directive:
        """A collapsed nest whose inner bounds depend on an outer loop's variable (OpenMP 5.0
        non-rectangular loops) is collapsed down to its rectangular outer loops; the inner
        loops run whole inside each of their iterations. Which thread runs an iteration is
        the implementation's to choose, so the program computes the same; it loses only the
        inner loops' parallelism. Their variables stay private, as a collapsed loop's are."""
        depth = collapse_depth(d)
        if depth < 2 or not (LOOP_LEAVES & set(d.leaves)):
            return d
        nest = loop_nest(body, depth)
        outer: set[str] = set()
        keep = len(nest)
        for k, f in enumerate(nest):
            if loop_header_names(f) & outer:
                keep = k
                break
            outer |= set(for_vars(f))
        if keep >= len(nest) or keep == 0:
            return d
        listed = {item.name for c in d.clauses for item in getattr(c, "items", ())}
        inner_vars = [v for f in nest[keep:] if not isinstance(f.init, c_ast.DeclList) for v in for_vars(f)
                      if v not in listed]
        clauses = tuple(dataclasses.replace(c, expr=dataclasses.replace(c.expr, text=str(keep))) if c.kind == "collapse" else c
                        for c in d.clauses)
        if inner_vars:
            clauses += parse_pragma(f"omp for private({', '.join(inner_vars)})", d.coord).clauses
        return dataclasses.replace(d, clauses=clauses)

    # -- checks -----------------------------------------------------------------
    def _check_loop(self, d: Directive, body: c_ast.Node) -> None:
        if not (LOOP_LEAVES & set(d.leaves)):
            return
        if isinstance(body, OmpConstruct):
            raise self._err(OmpSyntaxError, f"'#pragma omp {d.name}' must be followed by a for loop", d.coord)
        depth = collapse_depth(d)
        nest = loop_nest(body, depth)
        if not nest:
            raise self._err(OmpSyntaxError, f"'#pragma omp {d.name}' must be followed by a for loop", d.coord)
        if len(nest) < depth:
            c = d.clause("collapse")
            raise self._err(OmpSemanticError,
                            f"'collapse({depth})' needs {depth} perfectly nested loops, but the loop nest has only {len(nest)}",
                            c.coord if c is not None else d.coord)
        if "loop" in d.leaves:
            # OpenMP 5.0: the lastprivate items of a loop construct are loop iteration variables
            loop_vars = {v for f in nest for v in for_vars(f)}
            for c in d.clauses_of("lastprivate"):
                for item in c.items:
                    if item.name not in loop_vars:
                        raise self._err(OmpSemanticError, f"'lastprivate' on a 'loop' construct may list only loop "
                                        f"iteration variables, and '{item.name}' is not one", item.coord)
