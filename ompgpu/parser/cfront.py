"""C front end: preprocess with the real system headers, then parse with pycparser.

The preprocessed text (`PreprocessedUnit.text`) is what the host compiler later sees, so
the host keeps every GNU extension of the real headers. pycparser cannot read those
extensions, so `parse_c` parses a *sanitized* copy in which they are blanked out with
spaces: lines and columns stay where they were, and every pycparser coordinate is a
(line, column) of the preprocessed text itself. `PreprocessedUnit.user_coord` maps such a
position back to the user's file and line through gcc's line markers.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path
from dataclasses import dataclass

from pycparser import c_ast, c_lexer, c_parser
from pycparser.c_parser import ParseError

from ompgpu.errors import CSyntaxError, SourceCoord
from ompgpu.parser.pragma_macros import expand_pragma_macros
from ompgpu.toolchain import execute

# Keywords whose parenthesised argument is a GNU extension pycparser does not know.
_BLANK_WITH_PARENS = frozenset({"__attribute__", "__attribute", "__asm__", "__asm", "asm", "__declspec"})
# GNU spellings of standard keywords; replacements are never longer than the original,
# so padding with spaces keeps every later column in place.
_RESPELL = {
    "__extension__": "",
    "__restrict": "restrict",
    "__restrict__": "restrict",
    "__inline": "inline",
    "__inline__": "inline",
    "__const": "const",
    "__volatile__": "volatile",
    "__volatile": "volatile",
    "__signed__": "signed",
    "__signed": "signed",
    "__builtin_offsetof": "offsetof",
    "__alignof__": "_Alignof",
    "__alignof": "_Alignof",
}
# Builtin type names of gcc that pycparser must see as typedefs. They are declared on the
# first line of the sanitized text, which is always a line marker and hence blank.
_BUILTIN_TYPEDEFS = (
    "typedef char *__builtin_va_list; typedef float _Float32; typedef double _Float64; "
    "typedef double _Float32x; typedef long double _Float64x; typedef long double _Float128; "
    "typedef long double __float128;"
)

_TOKEN_RE = re.compile(
    r'"(?:\\.|[^"\\\n])*"'  # string literal
    r"|'(?:\\.|[^'\\\n])*'"  # char literal
    r"|^[ \t]*#[^\n]*"  # preprocessor line (markers, pragmas)
    r"|[A-Za-z_]\w*",
    re.M,
)
_LINE_MARKER_RE = re.compile(r'^#\s*(?:line\s+)?(\d+)\s+"((?:\\.|[^"\\])*)"')


@dataclass(frozen=True)
class PreprocessedUnit:
    """The user's file after cpp: text plus a map from its lines to the user's lines."""

    path: str
    text: str
    # For line i (0-based) of `text`: (file, line) in the original sources.
    origins: tuple[tuple[str, int], ...]
    # Files that gcc's line markers flag as system headers.
    system_files: frozenset[str] = frozenset()
    # A main file that begins with `#line 1 "NAME"` (generated code, ompgpu.compile's strings)
    # is known as NAME: NAME's lines, which no file of that name on disk holds.
    presumed_sources: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def source_lines(self, file: str) -> list[str] | None:
        """The lines of a source file of the unit (None: unreadable)."""
        for name, lines in self.presumed_sources:
            if name == file:
                return list(lines)
        try:
            with open(file, encoding="utf-8", errors="replace") as f:
                return f.read().split("\n")
        except OSError:
            return None

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    def user_coord(self, line: int, col: int | None = 1) -> SourceCoord:
        """Map a 1-based (line, column) of the preprocessed text to the user's source."""
        if 1 <= line <= len(self.origins):
            file, orig = self.origins[line - 1]
            return SourceCoord(file, orig, col or 1)
        return SourceCoord(self.path, line, col or 1)


# ompgpu's <omp.h> overlay: the host compiler's omp.h, then the OpenMP 5.1 routines ompgpu's
# runtime provides where that header lacks them (runtime/host/omp_overlay/omp.h).
OMP_OVERLAY = Path(__file__).resolve().parent.parent / "runtime" / "host" / "omp_overlay"


def preprocess(path: str, cc: str = "gcc", cpp_args: tuple[str, ...] = (), verbose: bool = False) -> PreprocessedUnit:
    """Run the system preprocessor with -fopenmp so `_Pragma("omp ...")` becomes `#pragma omp`."""
    command = [cc, "-E", "-fopenmp", "-isystem", str(OMP_OVERLAY), *cpp_args, path]
    proc = execute(command, verbose, "the C preprocessor")
    if proc.returncode != 0:
        # cpp already printed gcc-style diagnostics; pass them on verbatim.
        raise CppFailed(proc.stderr.rstrip())
    text = expand_pragma_macros(proc.stdout, cc, command, verbose)
    origins, system = _line_origins(text, path)
    return PreprocessedUnit(path, text, origins, system, _presumed_sources(path))


_FIRST_LINE_DIRECTIVE_RE = re.compile(r'^\s*#\s*line\s+1\s+"((?:\\.|[^"\\])*)"\s*$')


def _presumed_sources(path: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError:
        return ()
    m = _FIRST_LINE_DIRECTIVE_RE.match(lines[0]) if lines else None
    if not m:
        return ()
    name = re.sub(r"\\(.)", r"\1", m.group(1))
    return ((name, tuple(lines[1:])),)


class CppFailed(CSyntaxError):
    """The preprocessor rejected the file; its own diagnostics are the message."""

    def render(self, source_lines=None) -> str:  # noqa: D401 - cpp's text is already gcc-style
        return self.message


def _line_origins(text: str, path: str) -> tuple[tuple[tuple[str, int], ...], frozenset[str]]:
    origins = []
    system = set()
    file, line = path, 1
    for raw in text.split("\n"):
        m = _LINE_MARKER_RE.match(raw)
        if m:
            origins.append((file, line))
            file, line = m.group(2), int(m.group(1))
            flags = raw[m.end():].split()
            # Flag 3 marks a system header where a file is entered (1) or returned to (2). Alone,
            # it marks the lines of a system header's macro expanded in the user's own file
            # (`offsetof` of <stddef.h>): those do not make the file a system header.
            if "3" in flags and ("1" in flags or "2" in flags) and file != path:
                system.add(file)
            continue
        origins.append((file, line))
        line += 1
    return tuple(origins), frozenset(system)


_VA_ARG_RE = re.compile(r"__builtin_va_arg\s*\(([^(),]*(?:\([^()]*\)[^(),]*)*),([^()]*)\)")


def sanitize(text: str) -> str:
    """Blank GNU extensions out of preprocessed C, keeping every line and column in place
    (except after a `va_arg`, whose type argument becomes a cast of an ordinary call: some
    pycparser releases read `__builtin_va_arg` as a keyword, others as a name)."""
    text = _VA_ARG_RE.sub(lambda m: f"__ompgpu_va_arg({m.group(1)},({m.group(2)})0)", text)
    return _replace_generic(_sanitize_words(text))


def _replace_generic(text: str) -> str:
    """pycparser has no `_Generic`: it becomes a call of `__ompgpu_generic`, which device
    code rejects by name (host code is compiled from the unsanitized text)."""
    out, pos = [], 0
    for m in re.finditer(r"\b_Generic\b", text):
        if m.start() < pos:
            continue
        end = _skip_parens(text, m.end(), len(text))
        if end is None:
            continue
        span = text[m.start():end]
        repl = "__ompgpu_generic(0)"
        out.append(text[pos:m.start()])
        out.append(repl + re.sub(r"[^\n]", " ", span[len(repl):]) if len(span) > len(repl) else repl + "\n" * span.count("\n"))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _sanitize_words(text: str) -> str:
    out: list[str] = []
    last = 0
    skip_until = -1
    n = len(text)
    for m in _TOKEN_RE.finditer(text):
        if m.start() < skip_until:
            continue
        word = m.group()
        if word[0] in "\"'":
            continue
        if word.lstrip().startswith("#"):
            if not word.lstrip()[1:].lstrip().startswith("pragma"):
                out.append(text[last : m.start()])
                out.append(" " * len(word))  # line markers: keep the line, drop the text
                last = m.end()
            continue
        if word in _BLANK_WITH_PARENS:
            end = _skip_parens(text, m.end(), n)
            if end is not None:
                out.append(text[last : m.start()])
                out.append(re.sub(r"[^\n]", " ", text[m.start() : end]))
                last = skip_until = end
            continue
        repl = _RESPELL.get(word)
        if repl is not None:
            out.append(text[last : m.start()])
            out.append(repl.ljust(len(word)))
            last = m.end()
    out.append(text[last:])
    return "".join(out)


def _skip_parens(text: str, pos: int, n: int) -> int | None:
    """Index just past the balanced (...) group starting at or after pos, else None."""
    while pos < n and text[pos] in " \t\n":
        pos += 1
    if pos >= n or text[pos] != "(":
        return None
    depth = 0
    while pos < n:
        c = text[pos]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return pos + 1
        elif c in "\"'":
            pos += 1
            while pos < n and text[pos] != c:
                pos += 2 if text[pos] == "\\" else 1
        pos += 1
    return None


class _PositionTrackingLexer(c_lexer.CLexer):
    """pycparser's lexer, remembering where the last token it produced starts: some parse
    errors ('Invalid expression', 'At end of input') carry no line, and the parser has just
    read the offending token when it raises them. (CParser's `lexer` argument is its
    documented way to plug in a lexer.)"""

    last_position: tuple[int, int] | None = None

    def token(self):
        tok = super().token()
        if tok is not None:
            self.last_position = (tok.lineno, tok.column)
        return tok


_BRACKET_RE = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|^[ \t]*#[^\n]*|[(){}\[\]]', re.M)
_POSTFIX_RE = re.compile(r"\s*(?:->|\[|\.(?!\d))")
_COORD_MESSAGE_RE = re.compile(r"^.*?:(\d+)(?::(\d+))?: (.*)$", re.S)


@functools.cache
def _parses_compound_literal_postfix() -> bool:
    """pycparser 3.12 reads `(struct p){...}.y`; older releases need parentheses around the literal."""
    try:
        c_parser.CParser().parse("struct p { int y; }; int f(void) { return (struct p){1}.y; }")
    except ParseError:
        return False
    return True


def _parse(text: str, filename: str) -> c_ast.FileAST:
    if not _parses_compound_literal_postfix():
        text = parenthesize_compound_literal_postfix(text)
    lexers: list[_PositionTrackingLexer] = []

    def make_lexer(**kwargs):
        lexers.append(_PositionTrackingLexer(**kwargs))
        return lexers[-1]

    try:
        return c_parser.CParser(lexer=make_lexer).parse(text, filename=filename)
    except ParseError as exc:
        message = str(exc)
        m = _COORD_MESSAGE_RE.match(message)
        if m:
            raise _LocatedParseError(m.group(3), int(m.group(1)), int(m.group(2) or 1)) from None
        message = message.split(": ", 1)[1] if message.startswith(filename + ": ") else message
        line, col = (lexers[0].last_position if lexers and lexers[0].last_position else (None, None))
        raise _LocatedParseError(message, line, col) from None


def parenthesize_compound_literal_postfix(text: str) -> str:
    """`(T){...}.m`, `(T){...}->m` and `(T){...}[i]` become `((T){...}).m` etc., which every
    pycparser release reads. A `}` directly followed by one of those operators ends a
    compound literal: no other C construct puts them there."""
    opens: list[int] = []
    paren_open_of: dict[int, int] = {}  # index of a ')' -> index of its '('
    inserts: list[tuple[int, str]] = []
    for m in _BRACKET_RE.finditer(text):
        c, i = m.group(), m.start()
        if c in "({[":
            opens.append(i)
        elif c in ")}]" and opens:
            start = opens.pop()
            if c == ")":
                paren_open_of[i] = start
            elif c == "}":
                before = len(text[:start].rstrip()) - 1
                after = _POSTFIX_RE.match(text, i + 1)
                if after and before in paren_open_of:
                    inserts += [(paren_open_of[before], "("), (i + 1, ")")]
    for pos, s in sorted(inserts, reverse=True):
        text = text[:pos] + s + text[pos:]
    return text


class _LocatedParseError(ParseError):
    def __init__(self, msg: str, line: int | None, col: int | None):
        super().__init__(msg)
        self.msg, self.line, self.col = msg, line, col


@dataclass(frozen=True)
class ParsedUnit:
    pre: PreprocessedUnit
    ast: c_ast.FileAST


def _with_builtin_typedefs(text: str) -> str:
    """Sanitized text with the parser's builtin typedefs on its first line."""
    first_nl = text.find("\n")
    # Line 1 of gcc -E output is a line marker (blank after sanitizing): room for typedefs.
    if first_nl >= 0 and not text[:first_nl].strip():
        return _BUILTIN_TYPEDEFS + text[first_nl:]
    return _BUILTIN_TYPEDEFS + " " + text


def parse_c(pre: PreprocessedUnit) -> ParsedUnit:
    """Parse preprocessed C. Coordinates in the AST are lines/columns of `pre.text`."""
    try:
        ast, normalized = _parse_with_cached_headers(pre)
    except _LocatedParseError as exc:
        coord = pre.user_coord(exc.line or len(pre.origins), exc.col or 1)
        raise CSyntaxError(_describe_parse_error(exc.msg), coord) from None
    except ParseError as exc:  # pragma: no cover - every path above is located
        raise CSyntaxError(f"syntax error: {exc}", SourceCoord(pre.path, 1, 1)) from None
    for node in ast.ext[normalized:]:
        _drop_static_assert_semicolons(node)
    # The builtin typedefs were only there for the parser: drop them from the program.
    ast.ext = ast.ext[_BUILTIN_TYPEDEFS.count(";"):]
    return ParsedUnit(pre, ast)


# The system headers a file includes first (stdio.h, stdlib.h, math.h: thousands of lines of
# declarations) are most of what the parser reads, and the same for most files: their parse is
# kept in ompgpu's cache, like a precompiled header, keyed by their preprocessed text, and only
# the rest of the file is parsed, after stand-in typedefs of the names the headers declare (the
# one thing of them that parsing C needs). tests/parser/test_header_cache.py checks that the
# tree is the one a whole parse gives.
HEADER_CACHE_MIN_LINES = 300
HEADER_CACHE_ENTRIES = 64


def _parse_with_cached_headers(pre: PreprocessedUnit) -> tuple[c_ast.FileAST, int]:
    """The tree of the file, and how many of its top-level nodes came normalized from the cache.
    Only what is parsed is sanitized: on a cache hit the headers' lines are read once, as the
    key (sanitize works line by line, so the two parts sanitize as the whole would)."""
    lines = pre.text.split("\n")
    first_user = _first_user_line(lines, pre)
    if first_user < HEADER_CACHE_MIN_LINES:
        return _parse(_with_builtin_typedefs(sanitize(pre.text)), pre.path), 0
    headers = _cached_header_parse("\n".join(lines[:first_user]))
    if headers is None:
        return _parse(_with_builtin_typedefs(sanitize(pre.text)), pre.path), 0
    nodes, typedef_names = headers
    stand_ins = "".join(f"typedef int {name};" for name in typedef_names)
    ast = _parse(stand_ins + "\n" * first_user + sanitize("\n".join(lines[first_user:])), pre.path)
    ast.ext = nodes + ast.ext[len(typedef_names):]
    return ast, len(nodes)


def _first_user_line(lines: list[str], pre: PreprocessedUnit) -> int:
    """How many lines the text starts with that are blank (after sanitizing: line markers,
    `__extension__`) or come from system headers (line 1, gcc's first line marker, holds the
    parser's builtin typedefs: it counts as the headers')."""
    for i in range(1, len(lines)):
        if lines[i].strip() and i < len(pre.origins) and pre.origins[i][0] not in pre.system_files \
                and sanitize(lines[i]).strip():
            return i
    return len(lines)


def _cached_header_parse(prefix: str) -> tuple[list[c_ast.Node], list[str]] | None:
    """The top-level nodes of `prefix` (system headers' text as cpp wrote it) and the typedef
    names it declares, from the cache, or parsed (sanitized, after the builtin typedefs) and
    cached; None where it does not parse on its own or the cache cannot be used."""
    from ompgpu import cache_dir   # here: the package imports this module
    import hashlib
    import os
    import pickle
    import pycparser

    key = hashlib.sha256("\0".join([pycparser.__version__, Path(__file__).read_text(encoding="utf-8"),
                                     prefix]).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    folder = cache_dir() / "headers"
    entry = folder / f"{key}.pickle"
    try:
        cached = pickle.loads(entry.read_bytes())
        if isinstance(cached, tuple) and len(cached) == 2:
            return cached
    except Exception:  # noqa: BLE001 - a missing, damaged or foreign entry: parse again
        pass
    try:
        ast = _parse(_with_builtin_typedefs(sanitize(prefix)), "<system headers>")
    except ParseError:
        return None   # the headers end inside a declaration: parse the whole file
    names = [n.name for n in ast.ext if isinstance(n, c_ast.Typedef)]
    _drop_static_assert_semicolons(ast)
    value = (ast.ext, names)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        staged = folder / f".{key}-{os.getpid()}"
        staged.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(staged, entry)
        old = sorted(folder.glob("*.pickle"), key=lambda p: p.stat().st_mtime)[:-HEADER_CACHE_ENTRIES]
        for p in old:
            p.unlink(missing_ok=True)
    except OSError:
        pass   # no cache (read-only home): parsed every time
    return value


def set_declname(t: c_ast.Node, name: str | None) -> None:
    """Names a declarator: the TypeDecl under its pointer, array and function declarators."""
    while not isinstance(t, c_ast.TypeDecl):
        t = t.type
    t.declname = name


def walk_nodes(node: c_ast.Node):
    """The node and every node below it (iteratively: expressions can nest thousands deep)."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        todo.extend(child for _, child in n.children())


def sole_statement(stmt: c_ast.Node | None) -> c_ast.Node | None:
    """The statement itself, or the one statement inside braces around it (`{ { s; } }` is s)."""
    while isinstance(stmt, c_ast.Compound) and stmt.block_items and len(stmt.block_items) == 1:
        stmt = stmt.block_items[0]
    return stmt


def param_decls(fn: c_ast.FuncDef) -> list[c_ast.Decl]:
    """The named parameters of a function definition."""
    ftype = fn.decl.type
    while not isinstance(ftype, c_ast.FuncDecl):
        ftype = ftype.type
    params = ftype.args.params if ftype.args is not None else []
    return [p for p in params if isinstance(p, c_ast.Decl) and p.name]


def _drop_static_assert_semicolons(ast: c_ast.Node) -> None:
    """pycparser 3.0 reads `_Static_assert(...);` in a block as the assertion and an empty
    statement; later releases as the assertion alone. The empty statement is dropped, so that
    every supported release gives the same tree (and the same generated code)."""
    for node in walk_nodes(ast):
        if isinstance(node, c_ast.Compound) and node.block_items:
            node.block_items = [item for i, item in enumerate(node.block_items)
                                if not (isinstance(item, c_ast.EmptyStatement) and i > 0 and
                                        isinstance(node.block_items[i - 1], c_ast.StaticAssert))]


def _describe_parse_error(msg: str) -> str:
    if msg.startswith("before: "):
        return f"syntax error before '{msg[len('before: '):]}'"
    if msg == "At end of input":
        return "syntax error: unexpected end of file"
    return f"syntax error: {msg[0].lower()}{msg[1:]}"


def is_offsetof(call: c_ast.FuncCall) -> bool:
    """offsetof(type, member designator): pycparser's FuncCall whose second argument names members."""
    return (isinstance(call.name, c_ast.ID) and call.name.name == "offsetof" and call.args is not None
            and len(call.args.exprs) == 2 and isinstance(call.args.exprs[0], c_ast.Typename))


def offsetof_subscripts(call: c_ast.FuncCall) -> list[c_ast.Node]:
    """The array subscripts in an offsetof member designator (the only expressions in it)."""
    found, node = [], call.args.exprs[1]
    while not isinstance(node, c_ast.ID):
        if isinstance(node, c_ast.ArrayRef):
            found.append(node.subscript)
            node = node.name
        elif isinstance(node, c_ast.StructRef):
            node = node.name
        else:
            break
    return found
