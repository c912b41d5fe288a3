"""What the pragma transformer works with: the text being parsed and its coordinates (one
per thread), identifiers that stand where only a name can (no keyword), and small readers
of Lark's tokens and of the values the rules return.
"""
from __future__ import annotations

import re
import threading

from lark import Token

from ompgpu.errors import OmpSyntaxError, SourceCoord, UnsupportedError
from ompgpu.parser.directives import CExpr, ListItem


class UnsupportedSyntaxError(UnsupportedError, OmpSyntaxError):
    """Valid OpenMP syntax that ompgpu deliberately does not accept (declare reduction,
    allocate, ...).  Both an UnsupportedError and an OmpSyntaxError."""


# Clauses whose argument may start with a modifier keyword followed by ':' (map-type and
# map-type modifiers, device_num/ancestor, the directive-name of `if`, `present` of motion
# clauses, `conditional` of lastprivate, `strict` of grainsize and num_tasks, an allocator of
# allocate). Without a top-level ':' in the argument (the ':' of a `?:` does not count), there
# is no such modifier, and every identifier in it is a name of the program.
_MODIFIED_CLAUSES = frozenset({"map", "device", "if", "to", "from", "lastprivate", "grainsize", "num_tasks", "allocate",
                               "affinity", "linear"})
# Modifiers written like a call, `val(x)`: the word is the modifier only where a '(' follows it.
_CALL_MODIFIERS = {"linear": frozenset({"val", "ref", "uval"}), "allocate": frozenset({"allocator", "align"}),
                   "affinity": frozenset({"iterator"}), "map": frozenset({"mapper", "iterator"})}
_WORD_OR_BRACKET = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*|[()\[\]:,?]|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'")


def _is_word(value: str) -> bool:
    return bool(value) and (value[0].isalpha() or value[0] in "_$")


def plain_name_positions(text: str) -> frozenset[int]:
    """Positions of the identifiers in clause arguments that can only be names of the program,
    although they spell a modifier of the clause (see _MODIFIED_CLAUSES and _CALL_MODIFIERS):
    `map(always, close)`, `if(target ? 1 : 0)`, `linear(val: 2)`, `grainsize(strict)`."""
    toks = [(m.group(), m.start()) for m in _WORD_OR_BRACKET.finditer(text)]
    plain: set[int] = set()
    for k, (word, _) in enumerate(toks):
        if word not in _MODIFIED_CLAUSES or k + 1 >= len(toks) or toks[k + 1][0] != "(":
            continue
        calls = _CALL_MODIFIERS.get(word, frozenset())
        depth, colon, questions, inner, call_words = 0, False, 0, [], []
        for j in range(k + 1, len(toks)):
            value, pos = toks[j]
            following = toks[j + 1][0] if j + 1 < len(toks) else ""
            if value in "([":
                depth += 1
            elif value in ")]":
                depth -= 1
                if depth == 0:
                    break
            elif value == "?" and depth == 1:
                questions += 1
            elif value == ":" and depth == 1:
                if questions:
                    questions -= 1  # the ':' of a conditional expression
                else:
                    colon = True
            elif _is_word(value):
                if depth == 1 and value in calls:
                    if following != "(":
                        # `linear(val: 2)`: a modifier word without its '(' is a name
                        (inner if colon else call_words).append(pos)
                elif not _is_word(following):
                    inner.append(pos)  # (a word followed by a word is a modifier missing its ':')
        if colon:
            plain.update(call_words)
        else:
            plain.update(inner + call_words)
    return frozenset(plain)


class _Ctx(threading.local):
    text: str = ""
    plain_names: frozenset[int] = frozenset()
    coord: SourceCoord = SourceCoord("<pragma>", 1, 1)
    newlines: tuple[int, ...] = ()


ctx = _Ctx()


def coord_at(pos: int) -> SourceCoord:
    """Coordinate of character `pos` of the current pragma text."""
    base = ctx.coord
    nl = ctx.newlines
    if not nl or pos <= nl[0]:
        return SourceCoord(base.file, base.line, base.col + pos)
    k = 0
    while k < len(nl) and nl[k] < pos:
        k += 1
    return SourceCoord(base.file, base.line + k, pos - nl[k - 1])


PUNCT = frozenset({"LPAR", "RPAR", "LSQB", "RSQB", "COMMA", "COLON", "LBRACE", "RBRACE"})


# The trait sets of a context selector (OpenMP 5.1).
TRAIT_SETS = frozenset({"construct", "device", "target_device", "implementation", "user"})


class Span:
    __slots__ = ("start_pos", "end_pos")

    def __init__(self, start: int, end: int):
        self.start_pos = start
        self.end_pos = end


class Tag:
    """An intermediate value of a sub-rule: tag, value, source position."""

    __slots__ = ("tag", "value", "pos", "end")

    def __init__(self, tag: str, value, pos: int = -1, end: int = -1):
        self.tag = tag
        self.value = value
        self.pos = pos
        self.end = end


def iterator_names(inner: str, coord: SourceCoord) -> tuple[str, ...]:
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


def without_punctuation(children):
    """Children minus punctuation tokens."""
    return [c for c in children if not (isinstance(c, Token) and c.type in PUNCT)]


def token_text(children) -> str:
    return " ".join(str(c) for c in children if isinstance(c, Token) and c.type not in PUNCT)


def tagged(children, tag):
    return [c for c in children if isinstance(c, Tag) and c.tag == tag]


def first_tag(children, tag):
    for c in children:
        if isinstance(c, Tag) and c.tag == tag:
            return c
    return None


def items_of(children) -> tuple[ListItem, ...]:
    for c in children:
        if isinstance(c, Tag) and c.tag == "list":
            return c.value
    return ()


def expr_of(children, start: int = 0) -> CExpr | None:
    for c in children[start:]:
        if isinstance(c, CExpr):
            return c
    return None
