"""The Lark transformer that runs inline with the pragma parser: each method builds the IR of
`directives.py` when the parser reduces its rule (expressions and list items, directives;
clauses in pragma_clauses.py).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer

from ompgpu.errors import OmpSyntaxError
from ompgpu.parser.directives import (AdjustArgsClause, AppendArgsClause, CExpr, Directive, ExprClause, ExprListClause, FlagClause, KeywordClause, AllocateClause, ListItem, MatchClause,
                                      Section, TraitSelector, UsesAllocatorsClause, VarListClause, WhenClause)
from ompgpu.parser.pragma_clauses import ClauseRules
from ompgpu.parser.pragma_tree import (Span, TRAIT_SETS, Tag, without_punctuation, coord_at,
                                       ctx, expr_of, first_tag, items_of, token_text)


class Build(ClauseRules, Transformer):
    """Inline transformer: each method is called when the parser reduces that rule."""

    # ---- expressions and list items
    def expr(self, ch):
        start, end = ch[0].start_pos, ch[-1].end_pos
        return CExpr(ctx.text[start:end], coord_at(start))

    def group(self, ch):
        return Span(ch[0].start_pos, ch[-1].end_pos)

    def expr_list(self, ch):
        return Tag("exprs", tuple(c for c in ch if isinstance(c, CExpr)))

    def member(self, ch):
        return Tag("member", (ch[0].value, ch[1].value), ch[0].start_pos, ch[1].end_pos)

    def subscript(self, ch):
        return Tag("sub", (ch[0], None, False))

    def strided_range(self, ch):
        # [lower : length : stride]: the expressions between the colons, each optional but the stride
        parts: list[CExpr | None] = [None]
        for c in ch:
            if isinstance(c, Token) and c.type == "COLON":
                parts.append(None)
            elif isinstance(c, CExpr):
                parts[-1] = c
        lower, length, stride = parts
        return Tag("sub", (lower, length, True, stride))

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
        return Tag("sub", (lower, length, True))

    def var_suffix(self, ch):  # LSQB section RSQB
        lower, length, is_range, *stride = ch[1].value
        return Tag("section", Section(lower, length, is_range, coord_at(ch[0].start_pos), stride[0] if stride else None),
                    ch[0].start_pos, ch[-1].end_pos)

    def shape(self, ch):
        return Tag("shape", tuple(c for c in ch if isinstance(c, CExpr)), ch[0].start_pos, ch[-1].end_pos)

    def var(self, ch):
        shape: tuple[CExpr, ...] = ()
        if isinstance(ch[0], Tag) and ch[0].tag == "shape":
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
        text = ctx.text[name.start_pos:end]
        if shape and members:
            raise OmpSyntaxError("array shaping applies to a pointer variable, not to a struct member",
                                 coord_at(name.start_pos))
        return ListItem(str(name), tuple(members), tuple(sections), text, coord_at(name.start_pos),
                        "->" in accessors, tuple(accessors), shape)

    def var_list(self, ch):
        return Tag("list", tuple(c for c in ch if isinstance(c, ListItem)))

    # ---- directives
    def start(self, ch):
        return ch[-1]

    def dname(self, ch):
        return Tag("dname", token_text(ch), ch[0].start_pos)

    def clauses(self, ch):
        return Tag("clauses", tuple(ch))

    def construct(self, ch):
        d = ch[0]
        return Directive(d.value, ch[1].value, coord_at(d.pos))

    def critical_directive(self, ch):
        name = None
        if len(ch) > 2:  # CRITICAL ( NAME ) clauses
            name = str(ch[2])
        return Directive("critical", ch[-1].value, coord_at(ch[0].start_pos), critical_name=name)

    def atomic_directive(self, ch):
        return Directive("atomic", tuple(without_punctuation(ch[1:])), coord_at(ch[0].start_pos))

    def atomic_clause(self, ch):
        kw = ch[0]
        if isinstance(kw, FlagClause):
            return kw
        if kw.value == "hint":
            return ExprClause("hint", expr_of(ch), None, coord_at(kw.start_pos))
        if kw.value == "fail":
            return KeywordClause("fail", ch[2].kind, coord_at(kw.start_pos))
        return FlagClause(kw.value, coord_at(kw.start_pos))

    def mem_order(self, ch):
        return FlagClause(ch[0].value, coord_at(ch[0].start_pos))

    def flush_directive(self, ch):
        clauses = tuple(c for c in ch if isinstance(c, FlagClause))
        return Directive("flush", clauses, coord_at(ch[0].start_pos), items=items_of(ch))

    def tile_directive(self, ch):
        sizes = first_tag(ch, "exprs")
        clause = ExprListClause("sizes", sizes.value, coord_at(ch[1].start_pos))
        return Directive("tile", (clause,), coord_at(ch[0].start_pos))

    def unroll_directive(self, ch):
        return Directive("unroll", tuple(c for c in ch[1:] if not isinstance(c, Token)), coord_at(ch[0].start_pos))

    def unroll_clause(self, ch):
        kw = ch[0]
        if kw.value == "full":
            return FlagClause("full", coord_at(kw.start_pos))
        return ExprClause("partial", expr_of(ch), None, coord_at(kw.start_pos))

    def ordered_flag(self, ch):
        return FlagClause(ch[0].value, coord_at(ch[0].start_pos))

    def ordered_directive(self, ch):
        return Directive("ordered", tuple(without_punctuation(ch[1:])), coord_at(ch[0].start_pos))

    def construct_type(self, ch):
        return FlagClause(ch[0].value, coord_at(ch[0].start_pos))

    def cancel_directive(self, ch):
        return Directive("cancel", (ch[1],) + ch[2].value, coord_at(ch[0].start_pos))

    def cancellation_point_directive(self, ch):
        return Directive("cancellation point", (ch[2],), coord_at(ch[0].start_pos))

    def declare_target_clause(self, ch):
        kw = ch[0]
        coord = coord_at(kw.start_pos)
        if kw.value == "device_type":
            return KeywordClause("device_type", ch[2].value, coord)
        if kw.value == "indirect":
            return ExprClause("indirect", expr_of(ch), None, coord)
        return VarListClause(kw.value, items_of(ch), coord)

    def declare_target_directive(self, ch):
        clauses = tuple(c for c in ch if isinstance(c, (VarListClause, KeywordClause, ExprClause)))
        return Directive("declare target", clauses, coord_at(ch[0].start_pos), items=items_of(ch))

    def begin_declare_target_directive(self, ch):
        clauses = tuple(c for c in ch if not isinstance(c, Token))
        return Directive("begin declare target", clauses, coord_at(ch[0].start_pos))

    def end_declare_target_directive(self, ch):
        return Directive("end declare target", (), coord_at(ch[0].start_pos))

    def declare_simd_directive(self, ch):
        items: tuple[ListItem, ...] = ()
        if len(ch) > 3:  # DECLARE SIMD ( NAME ) clauses
            n = ch[3]
            items = (ListItem(str(n), (), (), str(n), coord_at(n.start_pos)),)
        return Directive("declare simd", ch[-1].value, coord_at(ch[0].start_pos), items=items)

    def threadprivate_directive(self, ch):
        return Directive("threadprivate", (), coord_at(ch[0].start_pos), items=items_of(ch))

    def allocate_directive(self, ch):
        clauses = tuple(c for c in ch if isinstance(c, AllocateClause))
        return Directive("allocate", clauses, coord_at(ch[0].start_pos), items=items_of(ch))

    def allocate_directive_clause(self, ch):
        # allocator(a) / align(n) of the directive: one AllocateClause without items
        word = ch[0].value
        if word == "allocator":
            return AllocateClause((), ch[2].value, None, coord_at(ch[0].start_pos))
        return AllocateClause((), None, ch[2], coord_at(ch[0].start_pos))

    def allocate_clause(self, ch):
        mod = next((c.value for c in ch if isinstance(c, Tag) and c.tag == "allocmod"), (None, None))
        return AllocateClause(items_of(ch), mod[0], mod[1], coord_at(ch[0].start_pos))

    def allocate_modifier(self, ch):
        allocator, align = None, None
        toks = [c for c in ch]
        if isinstance(toks[0], Token) and toks[0].type == "NAME":
            return Tag("allocmod", (toks[0].value, None))
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
        return Tag("allocmod", (allocator, align))

    def uses_allocators_clause(self, ch):
        allocators = tuple(c.value for c in ch if isinstance(c, Tag) and c.tag == "allocator")
        return UsesAllocatorsClause(allocators, coord_at(ch[0].start_pos))

    def uses_allocator(self, ch):
        names = [c.value for c in ch if isinstance(c, Token) and c.type == "NAME"]
        return Tag("allocator", (names[0], names[1] if len(names) > 1 else None))

    def requires_clause(self, ch):
        kw = ch[0]
        if kw.value == "atomic_default_mem_order":
            return KeywordClause(kw.value, ch[2].value, coord_at(kw.start_pos))
        return FlagClause(kw.value, coord_at(kw.start_pos))

    def trait_selector(self, ch):
        name = ch[0]
        props = next((c.value for c in ch if isinstance(c, Tag) and c.tag == "exprs"), ())
        return Tag("trait", (str(name), props, coord_at(name.start_pos)))

    def trait_set(self, ch):
        name, eq = ch[0], ch[1]
        if eq.value != "=":
            raise OmpSyntaxError(f"expected '=' after the trait set '{name}', found '{eq.value}'", coord_at(eq.start_pos))
        if str(name) not in TRAIT_SETS:
            raise OmpSyntaxError(f"unknown context selector set '{name}' (expected {', '.join(sorted(TRAIT_SETS))})",
                                 coord_at(name.start_pos))
        return Tag("traits", tuple(TraitSelector(str(name), t.value[0], t.value[1], t.value[2])
                                    for t in ch if isinstance(t, Tag) and t.tag == "trait"))

    def variant_clause(self, ch):
        kw = ch[0]
        if kw.value == "adjust_args":
            operation = next(c for c in ch if isinstance(c, Token) and c.type == "NAME")
            if operation.value not in ("need_device_ptr", "nothing"):
                raise OmpSyntaxError(f"unknown adjust-op '{operation.value}' in adjust_args (expected need_device_ptr "
                                     "or nothing)", coord_at(operation.start_pos))
            return AdjustArgsClause(operation.value, items_of(ch), coord_at(kw.start_pos))
        if kw.value == "append_args":
            return AppendArgsClause(ctx.text[ch[1].end_pos:ch[-1].start_pos].strip(), coord_at(kw.start_pos))
        traits = tuple(t for c in ch if isinstance(c, Tag) and c.tag == "traits" for t in c.value)
        return MatchClause(traits, coord_at(kw.start_pos))

    def mapper_id(self, ch):
        return Tag("mapper_id", ch[0].value)

    def declare_mapper_directive(self, ch):
        mapper_id = first_tag(ch, "mapper_id")
        words = [c for c in ch if isinstance(c, Token) and (c.type == "NAME" or c.value in ("struct", "union"))]
        words = [w for w in words if w.value not in ("declare", "mapper")]
        var = words[-1]
        type_text = " ".join(w.value for w in words[:-1])
        clauses = first_tag(ch, "clauses").value
        item = ListItem(var.value, (), (), var.value, coord_at(var.start_pos))
        return Directive("declare mapper", clauses, coord_at(ch[0].start_pos), items=(item,),
                         mapper=(mapper_id.value if mapper_id else "default", type_text))

    def declare_variant_directive(self, ch):
        names = [c for c in ch if isinstance(c, Token) and c.type == "NAME"]
        variant = names[-1]
        base = str(names[0]) if len(names) == 2 else None
        clauses = tuple(c for c in ch if isinstance(c, (MatchClause, AdjustArgsClause, AppendArgsClause)))
        item = ListItem(str(variant), (), (), str(variant), coord_at(variant.start_pos))
        return Directive("declare variant", clauses, coord_at(ch[0].start_pos), items=(item,), base_name=base)

    def begin_declare_variant_directive(self, ch):
        clauses = tuple(c for c in ch if isinstance(c, MatchClause))
        return Directive("begin declare variant", clauses, coord_at(ch[0].start_pos))

    def end_declare_variant_directive(self, ch):
        return Directive("end declare variant", (), coord_at(ch[0].start_pos))

    def meta_clause(self, ch):
        kw = ch[0]
        traits = tuple(t for c in ch if isinstance(c, Tag) and c.tag == "traits" for t in c.value)
        # The variant: the source text between the ':' (when) or the '(' (default) and the last ')'.
        start_tok = next(c for c in ch if isinstance(c, Token) and c.type == ("COLON" if kw.value == "when" else "LPAR"))
        end_tok = ch[-1]
        start, end = start_tok.end_pos, end_tok.start_pos
        text = ctx.text[start:end]
        lead = len(text) - len(text.lstrip())
        return WhenClause(kw.value, traits, text.strip(), coord_at(start + lead), coord_at(kw.start_pos))

    def metadirective(self, ch):
        clauses = tuple(c for c in ch if isinstance(c, WhenClause))
        return Directive("metadirective", clauses, coord_at(ch[0].start_pos))

    def nothing_directive(self, ch):
        return Directive("nothing", (), coord_at(ch[0].start_pos))

    def error_clause(self, ch):
        kw = ch[0]
        if kw.value == "message":
            return ExprClause("message", expr_of(ch), None, coord_at(kw.start_pos))
        return KeywordClause(kw.value, ch[2].value, coord_at(kw.start_pos))

    def error_directive(self, ch):
        return Directive("error", tuple(c for c in ch[1:] if not isinstance(c, Token)), coord_at(ch[0].start_pos))

    def assumption_clause(self, ch):
        name = ch[0]
        known = ("absent", "contains", "holds", "no_openmp", "no_openmp_routines", "no_parallelism")
        if name.value not in known and not name.value.startswith("ext_"):
            raise OmpSyntaxError(f"unknown assumption clause '{name.value}' (expected {', '.join(known)} or ext_...)",
                                 coord_at(name.start_pos))
        # (an implementation's own assumption, ext_...: ompgpu knows none of them; all say nothing here)
        return FlagClause("ext" if name.value.startswith("ext_") else name.value, coord_at(name.start_pos))

    def assume_directive(self, ch):
        words = [c.value for c in ch if isinstance(c, Token) and c.value in ("assume", "assumes", "begin", "end")]
        clauses = tuple(c for c in ch if isinstance(c, FlagClause))
        return Directive(" ".join(words), clauses, coord_at(ch[0].start_pos))

    def requires_directive(self, ch):
        return Directive("requires", tuple(without_punctuation(ch[1:])), coord_at(ch[0].start_pos))


_GRAMMAR = Path(__file__).with_name("omp.lark")


class _NameAlwaysAccepted:
    """Lark postlexer. `always_accept`: every contextual-lexer state can lex NAME, so keywords
    never match a prefix of a longer identifier. And it turns back into a NAME every keyword
    that `plain_name_positions` found where only a C expression or list item can stand
    (`device(device_num)`, `map(always)`, `if(target)`): there the contextual lexer, which
    sees one token at a time, would take the identifier for an optional modifier."""

    always_accept = ("NAME",)

    def process(self, stream):
        plain = ctx.plain_names
        for tok in stream:
            if tok.type != "NAME" and tok.start_pos in plain:
                tok = Token.new_borrow_pos("NAME", tok.value, tok)
            yield tok


@lru_cache(maxsize=None)
def parser() -> Lark:
    # The LALR tables are cached on disk (keyed by Lark on the grammar and options), which
    # takes about 0.4 s off every `ompgpu cc` after the first.
    kwargs = dict(parser="lalr", lexer="contextual", transformer=Build(), postlex=_NameAlwaysAccepted(),
                  start="start", maybe_placeholders=False)
    grammar = _GRAMMAR.read_text(encoding="utf-8")
    try:
        cache = _cache_file(grammar)
        return Lark(grammar, cache=cache, **kwargs)
    except (OSError, ValueError, TypeError, EOFError):  # unwritable or stale cache: build in memory
        return Lark(grammar, **kwargs)


def _cache_file(grammar: str) -> str:
    import hashlib

    import lark

    from ompgpu import cache_dir

    base = cache_dir()
    base.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256((grammar + lark.__version__).encode()).hexdigest()[:16]
    return str(base / f"omp-grammar-{key}.lark-cache")
