"""Scanning the preprocessed C text: where a construct's statement ends, renaming variables
to their device copies (use_device_addr), and the names that declare variant resolution
renames (bound.host_renames).
"""
from __future__ import annotations

import re

from ompgpu.errors import OmpSyntaxError

from ompgpu.parser.bind import OmpConstruct
from ompgpu.parser.ctokens import Tokens, scan_statement


IDENT = re.compile(r"(?<!\.)(?<!->)\b[A-Za-z_]\w*")  # names, not members


def line_offsets(text: str) -> list[int]:
    """Where each line of the text starts (index k: line k + 1, as the AST's coordinates count)."""
    starts = [0]
    for m in re.finditer("\n", text):
        starts.append(m.end())
    return starts


def apply_edits(text: str, edits: list[tuple[int, int, str]]) -> str:
    """The text with each (start, end, replacement) of `edits` made, the spans those of the
    text as given (applied from its end back, so that one edit moves no other)."""
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + new + text[end:]
    return text


def rename_names(text: str, renames: tuple[tuple[int, int, str, str], ...]) -> str:
    """The text with each name at (line, column) renamed, old -> new (bound.host_renames: the
    coordinates are the AST's, so this runs before any pass that moves text within a line)."""
    if not renames:
        return text
    starts = line_offsets(text)
    edits = []
    for line, column, old, new in renames:
        at = starts[line - 1] + column - 1
        if text[at:at + len(old)] != old:
            raise AssertionError(f"host code: '{old}' is not at line {line}, column {column}")
        edits.append((at, at + len(old), new))
    return apply_edits(text, edits)


def refer_to_device(text: str, names: dict[str, str]) -> str:
    """The body of a target data construct with each use of a use_device_addr array or scalar
    (OpenMP 5.0) written as the device storage (`names`: name -> replacement): every token that
    is the name, except a member after `.` or `->`; preprocessor lines (pragmas, line markers)
    stay as they are."""
    out, pos, prev, prev2 = [], 0, "", ""
    toks = Tokens(text, 0)
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
    return Tokens(text, pos).next()


def tokens_from(text: str, pos: int):
    """The C tokens from `pos` on, as (token, start, end), past preprocessor lines."""
    toks = Tokens(text, pos)
    while True:
        tok = toks.next()
        if not tok[0]:
            return
        yield tok


def statement_end(text: str, pos: int, c: OmpConstruct) -> int:
    toks = Tokens(text, pos)
    end = scan_statement(toks)
    if end is None:
        raise OmpSyntaxError(f"cannot find the end of the statement after '#pragma omp {c.directive.name}'", c.directive.coord)
    return end
