"""Binding of loop nests: the part of the binder that shapes collapsed loop nests.
"""
from __future__ import annotations

import copy
import dataclasses

from pycparser import c_ast

from ompgpu.errors import OmpSemanticError, OmpSyntaxError, UnsupportedError
from ompgpu.parser.directives import Directive
from ompgpu.parser.pragma import parse_pragma
from ompgpu.parser.cfront import sole_statement
from ompgpu.parser.bound import LOOP_LEAVES, OmpConstruct, collapse_depth, for_vars, loop_header_names, loop_nest


class LoopNestBinding:
    """The binder's loop nests (mixed into bind._Binder): perfect and imperfect collapse nests
    (declarations sunk into the innermost body), rectangular collapse, the loop's checks."""

    # -- imperfectly nested collapse (OpenMP 5.0) ------------------------------------
    def _perfect_nest(self, d: Directive, body: c_ast.Node, pragma: c_ast.Pragma) -> c_ast.Node:
        """A collapsed loop nest whose loops have declarations between them, made perfect by
        moving those declarations into the innermost body: OpenMP 5.0 lets such intervening
        code run any number of times per iteration, and a declaration there runs before the
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
        inner, decls = f.stmt, []
        if isinstance(inner, c_ast.Compound):
            items = [x for x in (inner.block_items or []) if not isinstance(x, c_ast.EmptyStatement)]
            loops = [x for x in items if isinstance(x, c_ast.For)]
            if len(loops) != 1 or items[-1] is not loops[0]:
                return None
            decls = items[:-1]
            inner = loops[0]
        if not isinstance(inner, c_ast.For):
            return None
        for x in decls:
            if not isinstance(x, c_ast.Decl) or x.storage or isinstance(x.type, c_ast.FuncDecl):
                what = "a declaration with a storage class" if isinstance(x, c_ast.Decl) else "a statement"
                where = self.pre.user_coord(x.coord.line, x.coord.column) if x.coord else None
                clause = d.clause("collapse")
                raise self._err(UnsupportedError, f"collapse of an imperfectly nested loop nest with {what} between the "
                                f"loops{f' (line {where.line})' if where else ''} is not supported yet (only "
                                "declarations may stand before the inner loop)", clause.coord if clause else d.coord)
        names = {x.name for x in decls} & loop_header_names(inner)
        if names:
            name = sorted(names)[0]
            where = d.clause("collapse")
            raise self._err(UnsupportedError, f"collapse of a loop nest whose inner loop's bounds use '{name}', declared "
                            "between the loops, is not supported yet", where.coord if where is not None else d.coord)
        made = self._sink_declarations(inner, depth - 1, d)
        if made is None:
            return None
        if decls:
            made = self._with_leading(made, depth - 1, decls)
        new = copy.copy(f)
        new.stmt = made
        return new

    @staticmethod
    def _with_leading(f: c_ast.For, depth: int, decls: list) -> c_ast.For:
        """f (a perfect nest of depth loops) with decls first in its innermost body."""
        new = copy.copy(f)
        if depth == 1:
            new.stmt = c_ast.Compound(list(decls) + [f.stmt], f.stmt.coord if f.stmt is not None else f.coord)
            return new
        inner = sole_statement(f.stmt)
        new.stmt = LoopNestBinding._with_leading(inner, depth - 1, decls)
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
