"""`parse_pragma`: the text of one `#pragma omp ...` line -> a checked `Directive`.

The grammar is `omp.lark` (LALR, contextual lexer).  A Lark transformer runs inline with
the parser (no parse tree is built) and produces the frozen IR of `directives.py`.  Lark
objects and exceptions never leave this module: every malformed pragma raises
`OmpSyntaxError` (or `OmpSemanticError` / `UnsupportedError`) at the offending token.
"""
from __future__ import annotations

import re
import threading
from functools import lru_cache
from pathlib import Path

import lark
from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

from ompgpu.errors import OmpgpuError, OmpSemanticError, OmpSyntaxError, SourceCoord, UnsupportedError

from .directives import (
    AffinityClause, AlignedClause, BindClause, CExpr, DefaultClause, DefaultmapClause, DependClause, Iterators,
    Directive, DistScheduleClause, ExprClause, FlagClause, KeywordClause, LastprivateClause,
    AllocateClause, LinearClause, ListItem, MapClause, MatchClause, MotionClause, OrderClause, ProcBindClause,
    ReductionClause, ScheduleClause, Section, TraitSelector, UsesAllocatorsClause, VarListClause, WhenClause,
)

__all__ = ["parse_pragma", "UnsupportedSyntaxError", "MAX_PRAGMA_LENGTH"]

# Longer pragmas are rejected up front (no real directive comes near this).
MAX_PRAGMA_LENGTH = 100_000


class UnsupportedSyntaxError(UnsupportedError, OmpSyntaxError):
    """Valid OpenMP syntax that ompgpu deliberately does not accept (declare reduction,
    allocate, ...).  Both an UnsupportedError and an OmpSyntaxError."""


_GRAMMAR = Path(__file__).with_name("omp.lark")

# OpenMP directives that ompgpu recognises only to reject them with a clear message.

_UNSUPPORTED_DIRECTIVES = re.compile(
    r"\s*omp\s+(declare\s+reduction|begin\s+metadirective|begin\s+assumes|end\s+assumes"
    r"|allocators|tile|unroll|interop|nothing|error|assumes|assume|dispatch"
    r"|workshare|parallel\s+workshare|target\s+parallel\s+master|target\s+parallel\s+masked"
    r"|target\s+parallel\s+do|parallel\s+do|do)(?![A-Za-z0-9_$])"
)
_OMP_PREFIX = re.compile(r"\s*omp(?![A-Za-z0-9_$])")


# ---------------------------------------------------------------------------- the parser

class _NameAlwaysAccepted:
    """Lark postlexer. `always_accept`: every contextual-lexer state can lex NAME, so keywords
    never match a prefix of a longer identifier. And it turns back into a NAME every keyword
    that `_plain_name_positions` found where only a C expression or list item can stand
    (`device(device_num)`, `map(always)`, `if(target)`): there the contextual lexer, which
    sees one token at a time, would take the identifier for an optional modifier."""

    always_accept = ("NAME",)

    def process(self, stream):
        plain = _ctx.plain_names
        for tok in stream:
            if tok.type != "NAME" and tok.start_pos in plain:
                tok = Token.new_borrow_pos("NAME", tok.value, tok)
            yield tok


# Clauses whose argument may start with a modifier keyword followed by ':' (map-type and
# map-type modifiers, device_num/ancestor, the directive-name of `if`, `present` of motion
# clauses, `conditional` of lastprivate). Without a top-level ':' in the argument, there is no
# modifier, and every identifier in it is a name of the program.
_MODIFIED_CLAUSES = frozenset({"map", "device", "if", "to", "from", "lastprivate"})
_WORD_OR_BRACKET = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*|[()\[\]:]|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'")


def _is_word(value: str) -> bool:
    return value[0].isalpha() or value[0] in "_$"


def _plain_name_positions(text: str) -> frozenset[int]:
    toks = [(m.group(), m.start()) for m in _WORD_OR_BRACKET.finditer(text)]
    plain: set[int] = set()
    for k, (word, _) in enumerate(toks):
        if word not in _MODIFIED_CLAUSES or k + 1 >= len(toks) or toks[k + 1][0] != "(":
            continue
        depth, colon, inner = 0, False, []
        for j in range(k + 1, len(toks)):
            value, pos = toks[j]
            if value in "([":
                depth += 1
            elif value in ")]":
                depth -= 1
                if depth == 0:
                    break
            elif value == ":" and depth == 1:
                colon = True
            elif _is_word(value) and not (j + 1 < len(toks) and _is_word(toks[j + 1][0])):
                inner.append(pos)  # (a word followed by a word is a modifier missing its ':')
        if not colon:
            plain.update(inner)
    return frozenset(plain)


class _Ctx(threading.local):
    text: str = ""
    plain_names: frozenset[int] = frozenset()
    coord: SourceCoord = SourceCoord("<pragma>", 1, 1)
    newlines: tuple[int, ...] = ()


_ctx = _Ctx()


def _coord_at(pos: int) -> SourceCoord:
    """Coordinate of character `pos` of the current pragma text."""
    base = _ctx.coord
    nl = _ctx.newlines
    if not nl or pos <= nl[0]:
        return SourceCoord(base.file, base.line, base.col + pos)
    k = 0
    while k < len(nl) and nl[k] < pos:
        k += 1
    return SourceCoord(base.file, base.line + k, pos - nl[k - 1])


_PUNCT = frozenset({"LPAR", "RPAR", "LSQB", "RSQB", "COMMA", "COLON", "LBRACE", "RBRACE"})
# The trait sets of a context selector (OpenMP 5.1).
_TRAIT_SETS = frozenset({"construct", "device", "target_device", "implementation", "user"})


class _Span:
    __slots__ = ("start_pos", "end_pos")

    def __init__(self, start: int, end: int):
        self.start_pos = start
        self.end_pos = end


class _Tag:
    """An intermediate value of a sub-rule: tag, value, source position."""

    __slots__ = ("tag", "value", "pos", "end")

    def __init__(self, tag: str, value, pos: int = -1, end: int = -1):
        self.tag = tag
        self.value = value
        self.pos = pos
        self.end = end


def _iterator_names(inner: str, coord: SourceCoord) -> tuple[str, ...]:
    """The names declared by an iterator modifier's text: each specifier is
    `[type] name = begin : end [: step]`, specifiers separated by top-level commas."""
    names, depth, start = [], 0, 0
    specs = []
    for i, ch in enumerate(inner + ","):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            specs.append(inner[start:i])
            start = i + 1
    for spec in specs:
        m = re.match(r"\s*(?:[A-Za-z_][\w\s*]*?[\s*])?([A-Za-z_]\w*)\s*=(?!=)(.*)$", spec, re.S)
        if m is None or ":" not in m.group(2):
            raise OmpSyntaxError(f"iterator specifier '{spec.strip()}' is not of the form '[type] name = begin:end[:step]'",
                                 coord)
        names.append(m.group(1))
    return tuple(names)


def _args(children):
    """Children minus punctuation tokens."""
    return [c for c in children if not (isinstance(c, Token) and c.type in _PUNCT)]


def _words(children) -> str:
    return " ".join(str(c) for c in children if isinstance(c, Token) and c.type not in _PUNCT)


def _tags(children, tag):
    return [c for c in children if isinstance(c, _Tag) and c.tag == tag]


def _first_tag(children, tag):
    for c in children:
        if isinstance(c, _Tag) and c.tag == tag:
            return c
    return None


def _items_of(children) -> tuple[ListItem, ...]:
    for c in children:
        if isinstance(c, _Tag) and c.tag == "list":
            return c.value
    return ()


def _expr_of(children, start: int = 0) -> CExpr | None:
    for c in children[start:]:
        if isinstance(c, CExpr):
            return c
    return None


class _Build(Transformer):
    """Inline transformer: each method is called when the parser reduces that rule."""

    # ---- expressions and list items
    def expr(self, ch):
        start, end = ch[0].start_pos, ch[-1].end_pos
        return CExpr(_ctx.text[start:end], _coord_at(start))

    def group(self, ch):
        return _Span(ch[0].start_pos, ch[-1].end_pos)

    def expr_list(self, ch):
        return _Tag("exprs", tuple(c for c in ch if isinstance(c, CExpr)))

    def member(self, ch):
        return _Tag("member", (ch[0].value, ch[1].value), ch[0].start_pos, ch[1].end_pos)

    def subscript(self, ch):
        return _Tag("sub", (ch[0], None, False))

    def strided_range(self, ch):
        # [lower : length : stride]: the expressions between the colons, each optional but the stride
        parts: list[CExpr | None] = [None]
        for c in ch:
            if isinstance(c, Token) and c.type == "COLON":
                parts.append(None)
            elif isinstance(c, CExpr):
                parts[-1] = c
        lower, length, stride = parts
        return _Tag("sub", (lower, length, True, stride))

    def range(self, ch):
        lower = length = None
        seen_colon = False
        for c in ch:
            if isinstance(c, Token) and c.type == "COLON":
                seen_colon = True
            elif isinstance(c, CExpr):
                if seen_colon:
                    length = c
                else:
                    lower = c
        return _Tag("sub", (lower, length, True))

    def var_suffix(self, ch):  # LSQB section RSQB
        lower, length, is_range, *stride = ch[1].value
        return _Tag("section", Section(lower, length, is_range, _coord_at(ch[0].start_pos), stride[0] if stride else None),
                    ch[0].start_pos, ch[-1].end_pos)

    def shape(self, ch):
        return _Tag("shape", tuple(c for c in ch if isinstance(c, CExpr)), ch[0].start_pos, ch[-1].end_pos)

    def var(self, ch):
        shape: tuple[CExpr, ...] = ()
        if isinstance(ch[0], _Tag) and ch[0].tag == "shape":
            shape, ch = ch[0].value, ch[1:]
        name = ch[0]
        members: list[str] = []
        accessors: list[str] = []
        sections: list[Section] = []
        end = name.end_pos
        for c in ch[1:]:
            if c.tag == "member":
                accessors.append(c.value[0])
                members.append(c.value[1])
            else:
                sections.append(c.value)
            end = c.end
        text = _ctx.text[name.start_pos:end]
        if shape and members:
            raise OmpSyntaxError("array shaping applies to a pointer variable, not to a struct member",
                                 _coord_at(name.start_pos))
        return ListItem(str(name), tuple(members), tuple(sections), text, _coord_at(name.start_pos),
                        "->" in accessors, tuple(accessors), shape)

    def var_list(self, ch):
        return _Tag("list", tuple(c for c in ch if isinstance(c, ListItem)))

    # ---- directives
    def start(self, ch):
        return ch[-1]

    def dname(self, ch):
        return _Tag("dname", _words(ch), ch[0].start_pos)

    def clauses(self, ch):
        return _Tag("clauses", tuple(ch))

    def construct(self, ch):
        d = ch[0]
        return Directive(d.value, ch[1].value, _coord_at(d.pos))

    def critical_directive(self, ch):
        name = None
        if len(ch) > 2:  # CRITICAL ( NAME ) clauses
            name = str(ch[2])
        return Directive("critical", ch[-1].value, _coord_at(ch[0].start_pos), critical_name=name)

    def atomic_directive(self, ch):
        return Directive("atomic", tuple(_args(ch[1:])), _coord_at(ch[0].start_pos))

    def atomic_clause(self, ch):
        kw = ch[0]
        if isinstance(kw, FlagClause):
            return kw
        if kw.value == "hint":
            return ExprClause("hint", _expr_of(ch), None, _coord_at(kw.start_pos))
        if kw.value == "fail":
            return KeywordClause("fail", ch[2].kind, _coord_at(kw.start_pos))
        return FlagClause(kw.value, _coord_at(kw.start_pos))

    def mem_order(self, ch):
        return FlagClause(ch[0].value, _coord_at(ch[0].start_pos))

    def flush_directive(self, ch):
        clauses = tuple(c for c in ch if isinstance(c, FlagClause))
        return Directive("flush", clauses, _coord_at(ch[0].start_pos), items=_items_of(ch))

    def ordered_flag(self, ch):
        return FlagClause(ch[0].value, _coord_at(ch[0].start_pos))

    def ordered_directive(self, ch):
        return Directive("ordered", tuple(_args(ch[1:])), _coord_at(ch[0].start_pos))

    def construct_type(self, ch):
        return FlagClause(ch[0].value, _coord_at(ch[0].start_pos))

    def cancel_directive(self, ch):
        return Directive("cancel", (ch[1],) + ch[2].value, _coord_at(ch[0].start_pos))

    def cancellation_point_directive(self, ch):
        return Directive("cancellation point", (ch[2],), _coord_at(ch[0].start_pos))

    def declare_target_clause(self, ch):
        kw = ch[0]
        coord = _coord_at(kw.start_pos)
        if kw.value == "device_type":
            return KeywordClause("device_type", ch[2].value, coord)
        if kw.value == "indirect":
            return ExprClause("indirect", _expr_of(ch), None, coord)
        return VarListClause(kw.value, _items_of(ch), coord)

    def declare_target_directive(self, ch):
        clauses = tuple(c for c in ch if isinstance(c, (VarListClause, KeywordClause, ExprClause)))
        return Directive("declare target", clauses, _coord_at(ch[0].start_pos), items=_items_of(ch))

    def begin_declare_target_directive(self, ch):
        clauses = tuple(c for c in ch if not isinstance(c, Token))
        return Directive("begin declare target", clauses, _coord_at(ch[0].start_pos))

    def end_declare_target_directive(self, ch):
        return Directive("end declare target", (), _coord_at(ch[0].start_pos))

    def declare_simd_directive(self, ch):
        items: tuple[ListItem, ...] = ()
        if len(ch) > 3:  # DECLARE SIMD ( NAME ) clauses
            n = ch[3]
            items = (ListItem(str(n), (), (), str(n), _coord_at(n.start_pos)),)
        return Directive("declare simd", ch[-1].value, _coord_at(ch[0].start_pos), items=items)

    def threadprivate_directive(self, ch):
        return Directive("threadprivate", (), _coord_at(ch[0].start_pos), items=_items_of(ch))

    def allocate_directive(self, ch):
        clauses = tuple(c for c in ch if isinstance(c, AllocateClause))
        return Directive("allocate", clauses, _coord_at(ch[0].start_pos), items=_items_of(ch))

    def allocate_directive_clause(self, ch):
        # allocator(a) / align(n) of the directive: one AllocateClause without items
        word = ch[0].value
        if word == "allocator":
            return AllocateClause((), ch[2].value, None, _coord_at(ch[0].start_pos))
        return AllocateClause((), None, ch[2], _coord_at(ch[0].start_pos))

    def allocate_clause(self, ch):
        mod = next((c.value for c in ch if isinstance(c, _Tag) and c.tag == "allocmod"), (None, None))
        return AllocateClause(_items_of(ch), mod[0], mod[1], _coord_at(ch[0].start_pos))

    def allocate_modifier(self, ch):
        allocator, align = None, None
        toks = [c for c in ch]
        if isinstance(toks[0], Token) and toks[0].type == "NAME":
            return _Tag("allocmod", (toks[0].value, None))
        i = 0
        while i < len(toks):
            t = toks[i]
            if isinstance(t, Token) and t.value == "allocator":
                allocator = toks[i + 2].value
                i += 4
            elif isinstance(t, Token) and t.value == "align":
                align = toks[i + 2]
                i += 4
            else:
                i += 1
        return _Tag("allocmod", (allocator, align))

    def uses_allocators_clause(self, ch):
        allocators = tuple(c.value for c in ch if isinstance(c, _Tag) and c.tag == "allocator")
        return UsesAllocatorsClause(allocators, _coord_at(ch[0].start_pos))

    def uses_allocator(self, ch):
        names = [c.value for c in ch if isinstance(c, Token) and c.type == "NAME"]
        return _Tag("allocator", (names[0], names[1] if len(names) > 1 else None))

    def requires_clause(self, ch):
        kw = ch[0]
        if kw.value == "atomic_default_mem_order":
            return KeywordClause(kw.value, ch[2].value, _coord_at(kw.start_pos))
        return FlagClause(kw.value, _coord_at(kw.start_pos))

    def trait_selector(self, ch):
        name = ch[0]
        props = next((c.value for c in ch if isinstance(c, _Tag) and c.tag == "exprs"), ())
        return _Tag("trait", (str(name), props, _coord_at(name.start_pos)))

    def trait_set(self, ch):
        name, eq = ch[0], ch[1]
        if eq.value != "=":
            raise OmpSyntaxError(f"expected '=' after the trait set '{name}', found '{eq.value}'", _coord_at(eq.start_pos))
        if str(name) not in _TRAIT_SETS:
            raise OmpSyntaxError(f"unknown context selector set '{name}' (expected {', '.join(sorted(_TRAIT_SETS))})",
                                 _coord_at(name.start_pos))
        return _Tag("traits", tuple(TraitSelector(str(name), t.value[0], t.value[1], t.value[2])
                                    for t in ch if isinstance(t, _Tag) and t.tag == "trait"))

    def variant_clause(self, ch):
        kw = ch[0]
        if kw.value != "match":
            raise UnsupportedSyntaxError(f"clause '{kw.value}' is not supported by ompgpu", _coord_at(kw.start_pos))
        traits = tuple(t for c in ch if isinstance(c, _Tag) and c.tag == "traits" for t in c.value)
        return MatchClause(traits, _coord_at(kw.start_pos))

    def mapper_id(self, ch):
        return _Tag("mapper_id", ch[0].value)

    def declare_mapper_directive(self, ch):
        mapper_id = _first_tag(ch, "mapper_id")
        words = [c for c in ch if isinstance(c, Token) and (c.type == "NAME" or c.value in ("struct", "union"))]
        words = [w for w in words if w.value not in ("declare", "mapper")]
        var = words[-1]
        type_text = " ".join(w.value for w in words[:-1])
        clauses = _first_tag(ch, "clauses").value
        item = ListItem(var.value, (), (), var.value, _coord_at(var.start_pos))
        return Directive("declare mapper", clauses, _coord_at(ch[0].start_pos), items=(item,),
                         mapper=(mapper_id.value if mapper_id else "default", type_text))

    def declare_variant_directive(self, ch):
        names = [c for c in ch if isinstance(c, Token) and c.type == "NAME"]
        variant = names[-1]
        base = str(names[0]) if len(names) == 2 else None
        clauses = tuple(c for c in ch if isinstance(c, MatchClause))
        item = ListItem(str(variant), (), (), str(variant), _coord_at(variant.start_pos))
        return Directive("declare variant", clauses, _coord_at(ch[0].start_pos), items=(item,), base_name=base)

    def begin_declare_variant_directive(self, ch):
        clauses = tuple(c for c in ch if isinstance(c, MatchClause))
        return Directive("begin declare variant", clauses, _coord_at(ch[0].start_pos))

    def end_declare_variant_directive(self, ch):
        return Directive("end declare variant", (), _coord_at(ch[0].start_pos))

    def meta_clause(self, ch):
        kw = ch[0]
        traits = tuple(t for c in ch if isinstance(c, _Tag) and c.tag == "traits" for t in c.value)
        # The variant: the source text between the ':' (when) or the '(' (default) and the last ')'.
        start_tok = next(c for c in ch if isinstance(c, Token) and c.type == ("COLON" if kw.value == "when" else "LPAR"))
        end_tok = ch[-1]
        start, end = start_tok.end_pos, end_tok.start_pos
        text = _ctx.text[start:end]
        lead = len(text) - len(text.lstrip())
        return WhenClause(kw.value, traits, text.strip(), _coord_at(start + lead), _coord_at(kw.start_pos))

    def metadirective(self, ch):
        clauses = tuple(c for c in ch if isinstance(c, WhenClause))
        return Directive("metadirective", clauses, _coord_at(ch[0].start_pos))

    def requires_directive(self, ch):
        return Directive("requires", tuple(_args(ch[1:])), _coord_at(ch[0].start_pos))

    # ---- clauses
    def map_modifier(self, ch):
        if ch[0].value == "mapper":
            return _Tag("mod", f"mapper({ch[2].value})")
        if len(ch) > 1:
            raise UnsupportedSyntaxError(f"map-type-modifier '{ch[0].value}' is not supported by ompgpu",
                                         _coord_at(ch[0].start_pos))
        return _Tag("mod", ch[0].value)

    def map_type(self, ch):
        return _Tag("type", ch[0].value)

    def map_prefix(self, ch):
        mods = tuple(t.value for t in _tags(ch, "mod"))
        mt = _first_tag(ch, "type")
        return _Tag("prefix", (mods, mt.value if mt else None))

    def map_clause(self, ch):
        mods: tuple[str, ...] = ()
        map_type = None
        prefix = _first_tag(ch, "prefix")
        if prefix is not None:
            mods, map_type = prefix.value
        return MapClause(map_type or "tofrom", mods, _items_of(ch), _coord_at(ch[0].start_pos),
                         map_type is not None)

    def motion_modifier(self, ch):
        return _Tag("mod", ch[0].value)

    def motion_clause(self, ch):
        mods = tuple(t.value for t in _tags(ch, "mod"))
        return MotionClause(ch[0].value, mods, _items_of(ch), _coord_at(ch[0].start_pos))

    def varlist_clause(self, ch):
        return VarListClause(ch[0].value, _items_of(ch), _coord_at(ch[0].start_pos))

    def lastprivate_clause(self, ch):
        mod = None
        if isinstance(ch[2], Token) and ch[2].value == "conditional":
            mod = "conditional"
        return LastprivateClause(_items_of(ch), mod, _coord_at(ch[0].start_pos))

    def reduction_modifier(self, ch):
        return _Tag("mod", ch[0].value)

    def reduction_op(self, ch):
        return _Tag("op", ch[0].value)

    def reduction_clause(self, ch):
        mod = _first_tag(ch, "mod")
        return ReductionClause(ch[0].value, _first_tag(ch, "op").value, mod.value if mod else None,
                               _items_of(ch), _coord_at(ch[0].start_pos))

    def expr_clause(self, ch):
        mod = "strict" if any(isinstance(c, Token) and c.value == "strict" for c in ch[1:]) else None
        return ExprClause(ch[0].value, _expr_of(ch), mod, _coord_at(ch[0].start_pos))

    def ordered_clause(self, ch):
        return ExprClause("ordered", _expr_of(ch), None, _coord_at(ch[0].start_pos))

    def if_modifier(self, ch):
        return _Tag("mod", _words(ch))

    def if_clause(self, ch):
        mod = _first_tag(ch, "mod")
        return ExprClause("if", _expr_of(ch), mod.value if mod else None, _coord_at(ch[0].start_pos))

    def device_modifier(self, ch):
        return _Tag("mod", ch[0].value)

    def device_clause(self, ch):
        mod = _first_tag(ch, "mod")
        return ExprClause("device", _expr_of(ch), mod.value if mod else None, _coord_at(ch[0].start_pos))

    def schedule_modifier(self, ch):
        return ch[0].value

    def schedule_modifiers(self, ch):
        return _Tag("mods", tuple(c for c in ch if isinstance(c, str) and not isinstance(c, Token)))

    def schedule_kind(self, ch):
        return _Tag("kind", ch[0].value)

    def schedule_clause(self, ch):
        mods = _first_tag(ch, "mods")
        return ScheduleClause(_first_tag(ch, "kind").value, _expr_of(ch), mods.value if mods else (),
                              _coord_at(ch[0].start_pos))

    def dist_schedule_clause(self, ch):
        return DistScheduleClause(ch[2].value, _expr_of(ch), _coord_at(ch[0].start_pos))

    def default_clause(self, ch):
        return DefaultClause(ch[2].value, _coord_at(ch[0].start_pos))

    def defaultmap_behavior(self, ch):
        return _Tag("behavior", ch[0].value)

    def defaultmap_category(self, ch):
        return _Tag("category", ch[0].value)

    def defaultmap_clause(self, ch):
        cat = _first_tag(ch, "category")
        return DefaultmapClause(_first_tag(ch, "behavior").value, cat.value if cat else None,
                                _coord_at(ch[0].start_pos))

    def proc_bind_clause(self, ch):
        return ProcBindClause(ch[2].value, _coord_at(ch[0].start_pos))

    def depend_type(self, ch):
        return _Tag("type", ch[0].value)

    def iterator_modifier(self, ch):
        inner = _ctx.text[ch[1].end_pos:ch[-1].start_pos]
        coord = _coord_at(ch[0].start_pos)
        return _Tag("iterators", Iterators(inner.strip(), _iterator_names(inner, coord), coord))

    def depend_clause(self, ch):
        coord = _coord_at(ch[0].start_pos)
        t = _first_tag(ch, "type")
        if t is not None:
            its = _first_tag(ch, "iterators")
            return DependClause(t.value, _items_of(ch), coord, iterators=its.value if its else None)
        exprs = _first_tag(ch, "exprs")
        if exprs is not None:
            return DependClause("sink", (), coord, exprs.value)
        return DependClause("source", (), coord)

    def affinity_clause(self, ch):
        its = _first_tag(ch, "iterators")
        return AffinityClause(_items_of(ch), _coord_at(ch[0].start_pos), its.value if its else None)

    def depobj_clause(self, ch):
        first = ch[0]
        if isinstance(first, DependClause):
            if first.dep_type == "depobj":
                raise OmpSyntaxError("depend type 'depobj' is not allowed on 'depobj'", first.coord)
            if len(first.items) != 1:
                raise OmpSyntaxError("the depend clause of 'depobj' takes exactly one list item", first.coord)
            return first
        coord = _coord_at(first.start_pos)
        if first.value == "destroy":
            return _Tag("destroy", (FlagClause("destroy", coord), tuple(c for c in ch if isinstance(c, ListItem))))
        return KeywordClause("update", _first_tag(ch, "type").value, coord)

    def scan_directive(self, ch):
        kind = ch[1]
        return Directive("scan", (VarListClause(kind.value, _items_of(ch), _coord_at(kind.start_pos)),),
                         _coord_at(ch[0].start_pos))

    def depobj_directive(self, ch):
        obj = next(c for c in ch if isinstance(c, ListItem))
        clause = ch[-1]
        if isinstance(clause, _Tag):  # destroy[(o)]: OpenMP 5.2 names the object again
            clause, again = clause.value
            if again and again[0].text != obj.text:
                raise OmpSyntaxError("the destroy clause must name the depobj construct's object", again[0].coord)
        if obj.shape or any(sec.is_range for sec in obj.sections):
            raise OmpSyntaxError("the object of 'depobj' is an lvalue of type omp_depend_t, not an array section", obj.coord)
        return Directive("depobj", (clause,), _coord_at(ch[0].start_pos), items=(obj,))

    def linear_modifier(self, ch):
        return _Tag("mod", ch[0].value)

    def linear_mod52(self, ch):
        if isinstance(ch[0], _Tag):
            return ch[0]
        return _Tag("step", _expr_of(ch))

    def linear_step(self, ch):
        if isinstance(ch[0], CExpr):
            return _Tag("step", ch[0])
        mod = _first_tag(ch, "mod")
        step = _first_tag(ch, "step")
        return _Tag("step52", (step.value if step else None, mod.value if mod else None))

    def linear_clause(self, ch):
        mod = _first_tag(ch, "mod")
        modifier = mod.value if mod else None
        step = _expr_of(ch)
        st = _first_tag(ch, "step")
        if st is not None:
            step = st.value
        st52 = _first_tag(ch, "step52")
        if st52 is not None:
            step, modifier = st52.value
        return LinearClause(_items_of(ch), step, modifier, _coord_at(ch[0].start_pos))

    def aligned_clause(self, ch):
        return AlignedClause(_items_of(ch), _expr_of(ch), _coord_at(ch[0].start_pos))

    def order_clause(self, ch):
        words = [c.value for c in ch[1:] if isinstance(c, Token) and c.type not in _PUNCT]
        return OrderClause(words[-1], _coord_at(ch[0].start_pos), words[0] if len(words) > 1 else None)

    def bind_clause(self, ch):
        return BindClause(ch[2].value, _coord_at(ch[0].start_pos))

    def flag_clause(self, ch):
        return FlagClause(ch[0].value, _coord_at(ch[0].start_pos))

    def unsupported_clause(self, ch):
        raise UnsupportedSyntaxError(f"clause '{ch[0].value}' is not supported by ompgpu",
                                     _coord_at(ch[0].start_pos))


@lru_cache(maxsize=None)
def _parser() -> Lark:
    # The LALR tables are cached on disk (keyed by Lark on the grammar and options), which
    # takes about 0.4 s off every `ompgpu cc` after the first.
    kwargs = dict(parser="lalr", lexer="contextual", transformer=_Build(), postlex=_NameAlwaysAccepted(),
                  start="start", maybe_placeholders=False)
    grammar = _GRAMMAR.read_text(encoding="utf-8")
    try:
        cache = _cache_file(grammar)
        return Lark(grammar, cache=cache, **kwargs)
    except (OSError, ValueError, TypeError, EOFError):  # unwritable or stale cache: build in memory
        return Lark(grammar, **kwargs)


def _cache_file(grammar: str) -> str:
    import hashlib
    import os
    from pathlib import Path

    import lark

    base = Path(os.environ.get("OMPGPU_CACHE", Path.home() / ".cache" / "ompgpu"))
    base.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256((grammar + lark.__version__).encode()).hexdigest()[:16]
    return str(base / f"omp-grammar-{key}.lark-cache")


# ---------------------------------------------------------------------------- diagnostics

# Every directive name the grammar accepts (used to name the directive in messages).
_DIRECTIVE_NAMES = frozenset({
    "target", "target data", "target enter data", "target exit data", "target update",
    "target parallel", "target parallel for", "target parallel for simd", "target parallel loop",
    "target simd", "target teams", "target teams distribute", "target teams distribute simd",
    "target teams distribute parallel for", "target teams distribute parallel for simd",
    "target teams loop", "teams", "teams distribute", "teams distribute simd",
    "teams distribute parallel for", "teams distribute parallel for simd", "teams loop",
    "distribute", "distribute simd", "distribute parallel for", "distribute parallel for simd",
    "parallel", "parallel for", "parallel for simd", "parallel loop", "parallel sections",
    "parallel master", "parallel masked", "parallel master taskloop",
    "parallel master taskloop simd", "parallel masked taskloop", "parallel masked taskloop simd",
    "for", "for simd", "simd", "loop", "sections", "section", "single", "master",
    "master taskloop", "master taskloop simd", "masked", "masked taskloop", "masked taskloop simd",
    "task", "taskloop", "taskloop simd", "taskgroup", "taskwait", "taskyield", "barrier",
    "critical", "atomic", "flush", "ordered", "cancel", "cancellation point", "declare target",
    "begin declare target", "end declare target", "begin declare variant", "end declare variant",
    "declare simd", "threadprivate", "requires", "allocate", "declare mapper",
    "depobj", "scan",
})
_NAME_PREFIXES = frozenset(
    " ".join(n.split()[:k]) for n in _DIRECTIVE_NAMES for k in range(1, len(n.split()) + 1)
)
_DIRECTIVE_WORDS = frozenset(w for n in _DIRECTIVE_NAMES for w in n.split())

# Every clause name ompgpu knows (so "not allowed here" can differ from "unknown").
KNOWN_CLAUSES = frozenset({
    "map", "to", "from", "private", "firstprivate", "shared", "copyin", "copyprivate",
    "is_device_ptr", "use_device_ptr", "use_device_addr", "has_device_addr", "nontemporal",
    "uniform", "lastprivate", "reduction", "in_reduction", "task_reduction", "num_teams",
    "thread_limit", "num_threads", "collapse", "safelen", "simdlen", "final", "priority",
    "filter", "hint", "partial", "grainsize", "num_tasks", "ordered", "if", "device", "schedule",
    "dist_schedule", "default", "defaultmap", "proc_bind", "depend", "linear", "aligned", "order",
    "bind", "nowait", "untied", "mergeable", "nogroup", "inbranch", "notinbranch", "allocate",
    "uses_allocators", "affinity", "detach", "read", "write", "update", "capture", "compare",
    "weak", "fail", "seq_cst", "acq_rel", "release", "acquire", "relaxed", "threads", "link",
    "enter", "device_type", "indirect", "unified_shared_memory", "unified_address",
    "reverse_offload", "dynamic_allocators", "atomic_default_mem_order", "destroy", "inclusive", "exclusive",
})

_TERM_NAMES = {
    "NAME": "identifier", "NUMBER": "number", "STRING": "string literal",
    "CHAR": "character constant", "OP": "operator", "$END": "end of line",
}

_SCAN = re.compile(r'''/\*(?:[^*]|\*+[^*/])*\*+/|//[^\n]*|[A-Za-z_$][A-Za-z0-9_$]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[()\[\]]|\S''')


def _describe_token(tok: Token | None) -> str:
    if tok is None or tok.type == "$END":
        return "end of line"
    v = str(tok.value)
    if len(v) > 24:
        v = v[:21] + "..."
    return "'" + _printable(v) + "'"


def _printable(s: str) -> str:
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in s)


@lru_cache(maxsize=None)
def _term_display() -> dict[str, str]:
    out = dict(_TERM_NAMES)
    for t in _parser().terminals:
        if t.name in out:
            continue
        if isinstance(t.pattern, lark.lexer.PatternStr):
            out[t.name] = f"'{t.pattern.value}'"
        else:
            out[t.name] = t.name.lower()
    return out


def _join_alternatives(names: list[str]) -> str:
    if not names:
        return "something else"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


def _expected_words(expected) -> list[str]:
    """Keyword/punctuation terminals of `expected` as quoted strings, sorted."""
    disp = _term_display()
    return sorted(disp.get(e, e.lower()) for e in expected)


class _Context:
    """What the text before an error position says: directive name, open clause, ..."""

    def __init__(self, text: str, pos: int):
        self.directive: str | None = None  # the longest directive name matched
        self.name_words: str = ""          # the directive-name words read (may be a bare prefix)
        self.name_end = -1                 # end offset of the directive-name words
        self.first_word_pos = -1           # offset of the word after `omp`
        self.clause: str | None = None     # clause whose '(' is still open at pos
        self.innermost: str | None = None  # innermost open bracket: '(' or '['
        self.prev: str | None = None       # the last token before pos
        stack: list[tuple[str, str | None, bool]] = []
        words_done = False
        saw_omp = False
        last_word: str | None = None
        cur = ""
        for m in _SCAN.finditer(text, 0, pos):
            tok = m.group(0)
            if tok[:2] in ("/*", "//") and len(tok) > 1:
                continue
            if not saw_omp:
                saw_omp = True  # the `omp` keyword
                self.prev = tok
                continue
            if not words_done:
                if tok[0].isalpha() or tok[0] == "_":
                    cand = f"{cur} {tok}" if cur else tok
                    if cand in _NAME_PREFIXES:
                        if not cur:
                            self.first_word_pos = m.start()
                        cur = cand
                        self.name_words = cur
                        self.name_end = m.end()
                        if cand in _DIRECTIVE_NAMES:
                            self.directive = cand
                        self.prev = tok
                        last_word = tok
                        continue
                    if not cur:
                        self.first_word_pos = m.start()
                words_done = True
            if tok in "([":
                stack.append((tok, last_word if tok == "(" else None,
                              not stack and (self.directive == "flush" or (
                                  self.prev == last_word and m.start() >= self.name_end
                                  and text[self.name_end:m.start()].strip() == ""))))
            elif tok in ")]":
                if stack:
                    stack.pop()
            last_word = tok if (tok[0].isalpha() or tok[0] in "_$") else None
            self.prev = tok
        self.depth = len(stack)
        self.paren_of_directive = False
        if stack:
            self.innermost = stack[-1][0]
            if stack[0][0] == "(":
                self.clause = stack[0][1]
                self.paren_of_directive = stack[0][2]

    def where(self) -> str:
        if self.clause is None:
            return ""
        if self.paren_of_directive:
            return f" in directive '{self.directive or self.clause}'"
        return f" in clause '{self.clause}'"


def _syntax_error(text: str, err: UnexpectedInput) -> OmpgpuError:
    """Turn a lark error into a gcc/clang-style OmpgpuError at the offending token."""
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream
        ch = text[pos] if 0 <= pos < len(text) else ""
        ctx = _Context(text, pos)
        return OmpSyntaxError(f"unexpected character '{_printable(ch)}'{ctx.where() or ' in OpenMP directive'}",
                              _coord_at(pos))
    tok: Token | None = getattr(err, "token", None)
    expected = _expected_of(err)
    if tok is None or tok.type == "$END" or isinstance(err, UnexpectedEOF):
        pos = len(text.rstrip())
        tok = None
    else:
        pos = tok.start_pos if tok.start_pos is not None else len(text.rstrip())
    coord = _coord_at(pos)
    ctx = _Context(text, pos)
    found = _describe_token(tok)
    is_name = tok is not None and tok.type == "NAME"
    value = str(tok.value) if tok is not None else ""
    top_level = ctx.innermost is None

    # ---- the directive name
    if ctx.first_word_pos < 0 or pos <= ctx.first_word_pos:
        if is_name:
            return OmpSyntaxError(f"unknown OpenMP directive '{value}'", coord)
        return OmpSyntaxError(f"expected an OpenMP directive name after 'omp', found {found}", coord)
    right_after_name = ctx.name_end >= 0 and text[ctx.name_end:pos].strip() == ""
    if top_level and right_after_name and ctx.name_words != ctx.directive:
        # an incomplete multi-word name: `target enter`, `cancellation`, `declare`
        alts = _join_alternatives(_expected_words(expected))
        return OmpSyntaxError(f"expected {alts} after '{ctx.name_words}', found {found}", coord)
    dname = ctx.directive or ctx.name_words

    # ---- top level: clauses
    if top_level:
        clause_expected = bool(_clause_terms(expected))
        if is_name:
            if right_after_name and value in _DIRECTIVE_WORDS and value not in KNOWN_CLAUSES:
                return OmpSyntaxError(f"'{ctx.name_words} {value}' is not a valid OpenMP directive", coord)
            if not clause_expected and expected - {"$END"}:
                alts = _join_alternatives(_expected_words(expected - {"$END"}))
                return OmpSyntaxError(f"expected {alts} after '{ctx.prev}', found {found}", coord)
            if value in KNOWN_CLAUSES:
                return OmpSemanticError(f"clause '{value}' is not allowed on '{dname}'", coord)
            return OmpSyntaxError(f"unknown clause '{value}' on directive '{dname}'", coord)
        if expected == {"LPAR"}:
            return OmpSyntaxError(f"expected '(' after '{ctx.prev}', found {found}", coord)
        if tok is None:
            what = "clause" if clause_expected else _join_alternatives(_expected_words(expected))
            return OmpSyntaxError(f"expected {what} after '{ctx.prev}' at end of line", coord)
        return OmpSyntaxError(f"unexpected {found} after '{ctx.prev}' in '#pragma omp {dname}'", coord)

    # ---- inside a clause's (or directive's) parentheses
    where = ctx.where()
    if ctx.innermost == "[" and "RSQB" in expected and not _is_expr_start(tok):
        return OmpSyntaxError(f"expected ']' in array section{where}, found {found}", coord)
    if "RPAR" in expected and not _is_expr_start(tok):
        if ctx.depth > 1 or ctx.clause is None:
            return OmpSyntaxError(f"expected ')'{where}, found {found}", coord)
        if ctx.paren_of_directive:
            return OmpSyntaxError(f"expected ')'{where}, found {found}", coord)
        if ctx.clause == "map" and found == "':'":
            # `map(tofro: a)`: the word before ':' was read as a list item
            word = re.findall(r"[A-Za-z_]\w*", text[:pos])[-1:] or ["?"]
            return OmpSyntaxError(f"unknown map type '{word[0]}' (expected to, from, tofrom, alloc, release or delete)", coord)
        return OmpSyntaxError(f"expected ')' after clause '{ctx.clause}', found {found}", coord)
    keywords = _keyword_terms(expected)
    if ctx.clause == "map" and "NAME" in expected and keywords & {"TO", "FROM", "TOFROM", "ALLOC", "ALWAYS"}:
        return OmpSyntaxError(f"expected map type or list item{where}, found {found}", coord)
    if "NUMBER" in expected:
        return OmpSyntaxError(f"expected expression{where}, found {found}", coord)
    if keywords:
        names = sorted(_term_display()[k] for k in keywords)
        if "NAME" in expected:
            names.append("list item")
        alts = _join_alternatives(names)
        return OmpSyntaxError(f"expected {alts}{where}, found {found}", coord)
    if "NAME" in expected:
        return OmpSyntaxError(f"expected list item{where}, found {found}", coord)
    alts = _join_alternatives(_expected_words(expected)) if expected else "something else"
    return OmpSyntaxError(f"expected {alts}{where}, found {found}", coord)


def _expected_of(err: UnexpectedInput) -> set[str]:
    """The terminals the parser would have accepted (not the lexer's guess)."""
    state = getattr(err, "state", None)
    try:
        table = state.parse_conf.parse_table.states[state.position]
        return {k for k in table if k.isupper() or k == "$END"}
    except Exception:
        return set(getattr(err, "expected", ()) or ())


_NON_KEYWORD_TERMS = frozenset({
    "NAME", "NUMBER", "STRING", "CHAR", "OP", "LPAR", "RPAR", "LSQB", "RSQB", "COMMA",
    "COLON", "QMARK", "DOT", "ARROW", "STAR", "$END",
})


def _keyword_terms(expected) -> set[str]:
    disp = _term_display()
    return {e for e in expected if e not in _NON_KEYWORD_TERMS and disp.get(e, "")[1:2].isalpha()}


def _clause_terms(expected) -> set[str]:
    return {e for e in expected if e.lower() in KNOWN_CLAUSES}


def _is_expr_start(tok: Token | None) -> bool:
    return tok is not None and tok.type in ("NAME", "NUMBER", "STRING", "CHAR", "LPAR", "OP", "STAR")


# ---------------------------------------------------------------------------- entry point

def parse_pragma(text: str, coord: SourceCoord) -> Directive | None:
    """Parse the text after `#pragma` (one joined line) at `coord` (its first character).

    Returns None for a pragma that is not `omp` (`once`, `GCC ...`, `unroll`, ...).  Returns a
    checked Directive (see clause_rules.check_directive) or raises an OmpgpuError subclass:
    OmpSyntaxError for malformed text, OmpSemanticError for a well-formed directive that
    breaks a clause rule, UnsupportedSyntaxError for valid OpenMP that ompgpu rejects.
    """
    try:
        if not isinstance(text, str):
            raise OmpSyntaxError("pragma text is not a string", coord)
        if not _OMP_PREFIX.match(text):
            return None
        directive = _parse(text, coord)
        from .clause_rules import check_directive
        check_directive(directive)
        return directive
    except OmpgpuError:
        raise
    except RecursionError:
        raise OmpSyntaxError("OpenMP directive is nested too deeply", coord) from None
    except Exception as e:  # a bug here must still not become a traceback for the user
        raise OmpSyntaxError(f"malformed OpenMP directive ({type(e).__name__})", coord) from None


def _parse(text: str, coord: SourceCoord) -> Directive:
    if len(text) > MAX_PRAGMA_LENGTH:
        raise OmpSyntaxError(f"OpenMP directive is too long ({len(text)} characters)", coord)
    m = _UNSUPPORTED_DIRECTIVES.match(text)
    _ctx.text = text
    _ctx.plain_names = _plain_name_positions(text)
    _ctx.coord = coord
    _ctx.newlines = tuple(i for i, c in enumerate(text) if c == "\n") if "\n" in text else ()
    if m:
        name = " ".join(m.group(1).split())
        raise UnsupportedSyntaxError(f"OpenMP directive '{name}' is not supported by ompgpu",
                                     _coord_at(m.start(1)))
    try:
        return _parser().parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(text, e) from None
    except LarkError as e:
        raise OmpSyntaxError(f"malformed OpenMP directive: {e}", coord) from None
