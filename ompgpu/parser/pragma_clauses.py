"""The pragma transformer's rules for clauses: map, motion, data-sharing, reduction, if,
device, schedule, defaultmap, depend, linear, order and the rest.
"""
from __future__ import annotations

from lark import Token

from ompgpu.errors import OmpSyntaxError

from ompgpu.parser.directives import (AffinityClause, AlignedClause, BindClause, CExpr, DefaultClause, DefaultmapClause,
                        DependClause, Iterators, Directive, InteropClause, DistScheduleClause, ExprClause, FlagClause, KeywordClause,
                        LastprivateClause, LinearClause, ListItem, MapClause, MotionClause, OrderClause,
                        ProcBindClause, ReductionClause, ScheduleClause, VarListClause)
from ompgpu.parser.pragma_tree import (PUNCT, Tag, UnsupportedSyntaxError, coord_at, ctx, expr_of, first_tag, items_of,
                                       iterator_names, tagged, token_text)


class ClauseRules:
    """The transformer's rules for clauses (mixed into pragma_build.Build)."""

    # ---- clauses
    def map_modifier(self, ch):
        if ch[0].value == "mapper":
            return Tag("mod", f"mapper({ch[2].value})")
        if len(ch) > 1:
            raise UnsupportedSyntaxError(f"map-type-modifier '{ch[0].value}' is not supported by ompgpu",
                                         coord_at(ch[0].start_pos))
        return Tag("mod", ch[0].value)

    def map_type(self, ch):
        return Tag("type", ch[0].value)

    def map_prefix(self, ch):
        mods = tuple(t.value for t in tagged(ch, "mod"))
        mt = first_tag(ch, "type")
        return Tag("prefix", (mods, mt.value if mt else None))

    def map_clause(self, ch):
        mods: tuple[str, ...] = ()
        map_type = None
        prefix = first_tag(ch, "prefix")
        if prefix is not None:
            mods, map_type = prefix.value
        return MapClause(map_type or "tofrom", mods, items_of(ch), coord_at(ch[0].start_pos),
                         map_type is not None)

    def motion_modifier(self, ch):
        return Tag("mod", ch[0].value)

    def motion_clause(self, ch):
        mods = tuple(t.value for t in tagged(ch, "mod"))
        return MotionClause(ch[0].value, mods, items_of(ch), coord_at(ch[0].start_pos))

    def varlist_clause(self, ch):
        return VarListClause(ch[0].value, items_of(ch), coord_at(ch[0].start_pos))

    def lastprivate_clause(self, ch):
        mod = None
        if isinstance(ch[2], Token) and ch[2].value == "conditional":
            mod = "conditional"
        return LastprivateClause(items_of(ch), mod, coord_at(ch[0].start_pos))

    def reduction_modifier(self, ch):
        return Tag("mod", ch[0].value)

    def reduction_op(self, ch):
        return Tag("op", ch[0].value)

    def reduction_clause(self, ch):
        mod = first_tag(ch, "mod")
        return ReductionClause(ch[0].value, first_tag(ch, "op").value, mod.value if mod else None,
                               items_of(ch), coord_at(ch[0].start_pos))

    def expr_clause(self, ch):
        mod = "strict" if any(isinstance(c, Token) and c.value == "strict" for c in ch[1:]) else None
        return ExprClause(ch[0].value, expr_of(ch), mod, coord_at(ch[0].start_pos))

    def ordered_clause(self, ch):
        return ExprClause("ordered", expr_of(ch), None, coord_at(ch[0].start_pos))

    def if_modifier(self, ch):
        return Tag("mod", token_text(ch))

    def if_clause(self, ch):
        mod = first_tag(ch, "mod")
        return ExprClause("if", expr_of(ch), mod.value if mod else None, coord_at(ch[0].start_pos))

    def device_modifier(self, ch):
        return Tag("mod", ch[0].value)

    def device_clause(self, ch):
        mod = first_tag(ch, "mod")
        return ExprClause("device", expr_of(ch), mod.value if mod else None, coord_at(ch[0].start_pos))

    def schedule_modifier(self, ch):
        return ch[0].value

    def schedule_modifiers(self, ch):
        return Tag("mods", tuple(c for c in ch if isinstance(c, str) and not isinstance(c, Token)))

    def schedule_kind(self, ch):
        return Tag("kind", ch[0].value)

    def schedule_clause(self, ch):
        mods = first_tag(ch, "mods")
        return ScheduleClause(first_tag(ch, "kind").value, expr_of(ch), mods.value if mods else (),
                              coord_at(ch[0].start_pos))

    def dist_schedule_clause(self, ch):
        return DistScheduleClause(ch[2].value, expr_of(ch), coord_at(ch[0].start_pos))

    def default_clause(self, ch):
        return DefaultClause(ch[2].value, coord_at(ch[0].start_pos))

    def defaultmap_behavior(self, ch):
        return Tag("behavior", ch[0].value)

    def defaultmap_category(self, ch):
        return Tag("category", ch[0].value)

    def defaultmap_clause(self, ch):
        cat = first_tag(ch, "category")
        return DefaultmapClause(first_tag(ch, "behavior").value, cat.value if cat else None,
                                coord_at(ch[0].start_pos))

    def proc_bind_clause(self, ch):
        return ProcBindClause(ch[2].value, coord_at(ch[0].start_pos))

    def depend_type(self, ch):
        return Tag("type", ch[0].value)

    def iterator_modifier(self, ch):
        inner = ctx.text[ch[1].end_pos:ch[-1].start_pos]
        coord = coord_at(ch[0].start_pos)
        return Tag("iterators", Iterators(inner.strip(), iterator_names(inner, coord), coord))

    def depend_clause(self, ch):
        coord = coord_at(ch[0].start_pos)
        t = first_tag(ch, "type")
        if t is not None:
            its = first_tag(ch, "iterators")
            return DependClause(t.value, items_of(ch), coord, iterators=its.value if its else None)
        exprs = first_tag(ch, "exprs")
        if exprs is not None:
            return DependClause("sink", (), coord, exprs.value)
        return DependClause("source", (), coord)

    def affinity_clause(self, ch):
        its = first_tag(ch, "iterators")
        return AffinityClause(items_of(ch), coord_at(ch[0].start_pos), its.value if its else None)

    def depobj_clause(self, ch):
        first = ch[0]
        if isinstance(first, DependClause):
            if first.dep_type == "depobj":
                raise OmpSyntaxError("depend type 'depobj' is not allowed on 'depobj'", first.coord)
            if len(first.items) != 1:
                raise OmpSyntaxError("the depend clause of 'depobj' takes exactly one list item", first.coord)
            return first
        coord = coord_at(first.start_pos)
        if first.value == "destroy":
            return Tag("destroy", (FlagClause("destroy", coord), tuple(c for c in ch if isinstance(c, ListItem))))
        return KeywordClause("update", first_tag(ch, "type").value, coord)

    def scan_directive(self, ch):
        kind = ch[1]
        return Directive("scan", (VarListClause(kind.value, items_of(ch), coord_at(kind.start_pos)),),
                         coord_at(ch[0].start_pos))

    def interop_type(self, ch):
        return Tag("type", ch[0].value)

    def interop_object_clause(self, ch):
        item = next(c for c in ch if isinstance(c, ListItem))
        types = tuple(t.value for t in tagged(ch, "type"))
        return InteropClause(ch[0].value, types, item, coord_at(ch[0].start_pos))

    def interop_directive(self, ch):
        clauses = tuple(c for c in ch if not isinstance(c, Token))
        if not any(isinstance(c, InteropClause) for c in clauses):
            raise OmpSyntaxError("'#pragma omp interop' needs an init, use or destroy clause", coord_at(ch[0].start_pos))
        return Directive("interop", clauses, coord_at(ch[0].start_pos))

    def depobj_directive(self, ch):
        obj = next(c for c in ch if isinstance(c, ListItem))
        clause = ch[-1]
        if isinstance(clause, Tag):  # destroy[(o)]: OpenMP 5.2 names the object again
            clause, again = clause.value
            if again and again[0].text != obj.text:
                raise OmpSyntaxError("the destroy clause must name the depobj construct's object", again[0].coord)
        if obj.shape or any(sec.is_range for sec in obj.sections):
            raise OmpSyntaxError("the object of 'depobj' is an lvalue of type omp_depend_t, not an array section", obj.coord)
        return Directive("depobj", (clause,), coord_at(ch[0].start_pos), items=(obj,))

    def linear_modifier(self, ch):
        return Tag("mod", ch[0].value)

    def linear_mod52(self, ch):
        if isinstance(ch[0], Tag):
            return ch[0]
        return Tag("step", expr_of(ch))

    def linear_step(self, ch):
        if isinstance(ch[0], CExpr):
            return Tag("step", ch[0])
        mod = first_tag(ch, "mod")
        step = first_tag(ch, "step")
        return Tag("step52", (step.value if step else None, mod.value if mod else None))

    def linear_clause(self, ch):
        mod = first_tag(ch, "mod")
        modifier = mod.value if mod else None
        step = expr_of(ch)
        st = first_tag(ch, "step")
        if st is not None:
            step = st.value
        st52 = first_tag(ch, "step52")
        if st52 is not None:
            step, modifier = st52.value
        return LinearClause(items_of(ch), step, modifier, coord_at(ch[0].start_pos))

    def aligned_clause(self, ch):
        return AlignedClause(items_of(ch), expr_of(ch), coord_at(ch[0].start_pos))

    def order_clause(self, ch):
        words = [c.value for c in ch[1:] if isinstance(c, Token) and c.type not in PUNCT]
        return OrderClause(words[-1], coord_at(ch[0].start_pos), words[0] if len(words) > 1 else None)

    def bind_clause(self, ch):
        return BindClause(ch[2].value, coord_at(ch[0].start_pos))

    def flag_clause(self, ch):
        return FlagClause(ch[0].value, coord_at(ch[0].start_pos))

    def unsupported_clause(self, ch):
        raise UnsupportedSyntaxError(f"clause '{ch[0].value}' is not supported by ompgpu",
                                     coord_at(ch[0].start_pos))
