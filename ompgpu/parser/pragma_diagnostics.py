"""Syntax errors of pragmas, gcc-style: which token was unexpected and what the grammar
expected there, in the words of the OpenMP directive being written.
"""
from __future__ import annotations

import re
from functools import lru_cache

import lark
from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

from ompgpu.errors import OmpgpuError, OmpSemanticError, OmpSyntaxError

from ompgpu.parser.pragma_build import parser
from ompgpu.parser.pragma_tree import coord_at


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
    "depobj", "scan", "tile", "unroll",
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
    for t in parser().terminals:
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


def syntax_error(text: str, err: UnexpectedInput) -> OmpgpuError:
    """Turn a lark error into a gcc/clang-style OmpgpuError at the offending token."""
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream
        ch = text[pos] if 0 <= pos < len(text) else ""
        ctx = _Context(text, pos)
        return OmpSyntaxError(f"unexpected character '{_printable(ch)}'{ctx.where() or ' in OpenMP directive'}",
                              coord_at(pos))
    tok: Token | None = getattr(err, "token", None)
    expected = _expected_of(err)
    if tok is None or tok.type == "$END" or isinstance(err, UnexpectedEOF):
        pos = len(text.rstrip())
        tok = None
    else:
        pos = tok.start_pos if tok.start_pos is not None else len(text.rstrip())
    coord = coord_at(pos)
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
