"""Scanning the preprocessed C text by tokens: past preprocessor lines, balanced brackets, where
a statement ends. For the passes that rewrite or splice the text itself (loop transformations,
host code generation), which need positions in it rather than the AST's coordinates."""
from __future__ import annotations

import re

_TOK = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|[A-Za-z_]\w*|\d[\w.]*|\S')


class Tokens:
    """The C tokens of `text` from `pos` on, as (token, start, end); lines that begin with `#`
    (pragmas, line markers) are skipped. Operators come one character at a time."""

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


def scan_balanced(toks: Tokens, open_: str, close: str) -> int | None:
    """With `open_` just read: the end of its matching `close` (None: the text ends first)."""
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


def scan_statement(toks: Tokens) -> int | None:
    """The end of the statement that starts at the next token (None: not one)."""
    tok, _, e = toks.next()
    if not tok:
        return None
    if tok == "{":
        return scan_balanced(toks, "{", "}")
    if tok in ("for", "while", "switch"):
        if toks.next()[0] != "(" or scan_balanced(toks, "(", ")") is None:
            return None
        return scan_statement(toks)
    if tok == "if":
        if toks.next()[0] != "(" or scan_balanced(toks, "(", ")") is None:
            return None
        end = scan_statement(toks)
        if toks.peek() == "else":
            toks.next()
            return scan_statement(toks)
        return end
    if tok == "do":
        if scan_statement(toks) is None or toks.next()[0] != "while" or toks.next()[0] != "(":
            return None
        if scan_balanced(toks, "(", ")") is None:
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
