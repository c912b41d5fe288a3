"""Scanning the preprocessed C text: where a construct's statement ends, and renaming
variables to their device copies (use_device_addr).
"""
from __future__ import annotations

import re

from ompgpu.errors import OmpSyntaxError

from ompgpu.parser.bind import OmpConstruct


IDENT = re.compile(r"(?<!\.)(?<!->)\b[A-Za-z_]\w*")  # names, not members


_TOK = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|[A-Za-z_]\w*|\d[\w.]*|\S')


class _Tokens:
    def __init__(self, text: str, pos: int):
        self.text, self.pos = text, pos

    def next(self) -> tuple[str, int, int]:
        while True:
            m = _TOK.search(self.text, self.pos)
            if m is None:
                return "", len(self.text), len(self.text)
            tok = m.group()
            if tok == "#" and self._line_start(m.start()):
                nl = self.text.find("\n", m.start())
                self.pos = len(self.text) if nl < 0 else nl + 1
                continue
            self.pos = m.end()
            return tok, m.start(), m.end()

    def peek(self) -> str:
        save = self.pos
        tok = self.next()[0]
        self.pos = save
        return tok

    def _line_start(self, i: int) -> bool:
        j = self.text.rfind("\n", 0, i) + 1
        return not self.text[j:i].strip()


def refer_to_device(text: str, names: dict[str, str]) -> str:
    """The body of a target data construct with each use of a use_device_addr array or scalar
    (OpenMP 5.0) written as the device storage (`names`: name -> replacement): every token that
    is the name, except a member after `.` or `->`; preprocessor lines (pragmas, line markers)
    stay as they are."""
    out, pos, prev, prev2 = [], 0, "", ""
    toks = _Tokens(text, 0)
    while True:
        tok, start, end = toks.next()
        if not tok:
            break
        if tok in names and prev != "." and not (prev == ">" and prev2 == "-"):
            out.append(text[pos:start])
            out.append(names[tok])
            pos = end
        prev2, prev = prev, tok
    out.append(text[pos:])
    return "".join(out)


def next_token(text: str, pos: int) -> tuple[str, int, int]:
    """(token, start, end) of the first C token at or after `pos`, past preprocessor lines;
    ("", len(text), len(text)) at the end."""
    return _Tokens(text, pos).next()


def tokens_from(text: str, pos: int):
    """The C tokens from `pos` on, as (token, start, end), past preprocessor lines."""
    toks = _Tokens(text, pos)
    while True:
        tok = toks.next()
        if not tok[0]:
            return
        yield tok


def statement_end(text: str, pos: int, c: OmpConstruct) -> int:
    toks = _Tokens(text, pos)
    end = _scan_stmt(toks)
    if end is None:
        raise OmpSyntaxError(f"cannot find the end of the statement after '#pragma omp {c.directive.name}'", c.directive.coord)
    return end


def _scan_balanced(toks: _Tokens, open_: str, close: str) -> int | None:
    depth = 1
    while True:
        tok, _, e = toks.next()
        if not tok:
            return None
        if tok == open_:
            depth += 1
        elif tok == close:
            depth -= 1
            if depth == 0:
                return e


def _scan_stmt(toks: _Tokens) -> int | None:
    tok, _, e = toks.next()
    if not tok:
        return None
    if tok == "{":
        return _scan_balanced(toks, "{", "}")
    if tok in ("for", "while", "switch"):
        if toks.next()[0] != "(" or _scan_balanced(toks, "(", ")") is None:
            return None
        return _scan_stmt(toks)
    if tok == "if":
        if toks.next()[0] != "(" or _scan_balanced(toks, "(", ")") is None:
            return None
        end = _scan_stmt(toks)
        if toks.peek() == "else":
            toks.next()
            return _scan_stmt(toks)
        return end
    if tok == "do":
        if _scan_stmt(toks) is None or toks.next()[0] != "while" or toks.next()[0] != "(":
            return None
        if _scan_balanced(toks, "(", ")") is None:
            return None
        tok, _, e = toks.next()
        return e if tok == ";" else None
    if tok == ";":
        return e
    depth = 0
    while True:
        if tok in ("(", "[", "{"):
            depth += 1
        elif tok in (")", "]", "}"):
            depth -= 1
        elif tok == ";" and depth == 0:
            return e
        tok, _, e = toks.next()
        if not tok:
            return None
