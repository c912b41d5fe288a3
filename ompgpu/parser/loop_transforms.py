"""The loop-transforming constructs of OpenMP 5.1, `tile` and `unroll`, applied to the
preprocessed text before the C parser reads it.

Each construct and the loops it applies to become the plain C loops they stand for, so every
later pass (host code, device code, and the host compiler's own OpenMP, which in gcc 12 has
neither construct) sees ordinary canonical loops, and a loop-associated construct above one
(`#pragma omp for` over `#pragma omp tile sizes(8, 8)`) applies to the loops it generates, as
OpenMP says:

  tile sizes(s1, ..., sk) over k perfectly nested rectangular loops: k floor loops stepping by
      the sizes over the logical iteration space, then k tile loops inside them; the original
      iteration variables are set from the tile loops' counters at the top of the body.
  unroll partial(f): a loop over blocks of f logical iterations, and inside it a loop over the
      iterations of one block (partial without a factor: 4).
  unroll full, or unroll alone: the loop itself (it runs the same iterations in the same order;
      nvcc and the host compiler unroll it as they see fit). A loop-associated construct above
      either is an error (neither leaves a loop for it to apply to; OpenMP leaves unroll alone
      under one to the implementation: here it is partial).

The text keeps its line count (the generated loop headers take the lines of the pragma and
of the loops' headers), so the unit's line origins stay right for every diagnostic. Constructs
are applied from the last in the file to the first, so a construct over another (`tile` over
`unroll partial`) applies to the loops that the inner one generated.
"""
from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass

from ompgpu.errors import OmpSemanticError, OmpSyntaxError, SourceCoord, UnsupportedError
from ompgpu.parser.cfront import PreprocessedUnit
from ompgpu.parser.ctokens import Tokens, scan_balanced, scan_statement
from ompgpu.parser.directives import Directive
from ompgpu.parser.pragma import parse_pragma

_TRANSFORM_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+(omp[ \t]+(?:tile|unroll)\b.*)$", re.M)
_OMP_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+(omp\b.*)$")
_DEFAULT_PARTIAL_FACTOR = 4
# Loop-associated constructs that would apply to the loops a transformation leaves.
_LOOP_LEAVES = frozenset({"for", "simd", "distribute", "loop", "taskloop", "tile", "unroll"})
_NAME = r"[A-Za-z_]\w*"
_DECL_INIT = re.compile(rf"^(?P<type>.*?[\s*])(?P<var>{_NAME})\s*=\s*(?P<lb>.+)$", re.S)
_ASSIGN_INIT = re.compile(rf"^(?P<var>{_NAME})\s*=\s*(?P<lb>.+)$", re.S)
_COND = re.compile(r"^(?P<lhs>.+?)\s*(?P<op><=|>=|<|>|!=)\s*(?P<rhs>.+)$", re.S)
_INTEGER = re.compile(r"^\(*\s*(\d+)[uUlL]*\s*\)*$")


@dataclass(frozen=True)
class _Loop:
    """One canonical loop `for (init; var op ub; incr)`, its logical iterations counted up from 0."""

    var: str
    decl_type: str | None   # the type when the init declares the variable
    lb: str
    ub: str
    op: str                 # '<' '<=' '>' '>=' (a != test is turned into < or > by the step's sign)
    step: str               # the step's magnitude
    down: bool              # the variable decreases
    header_end: int         # offset after the header's ')'
    coord: SourceCoord

    def trip_count(self) -> str:
        lo, hi = (self.ub, self.lb) if self.down else (self.lb, self.ub)
        span = f"(long long)(({hi}) - ({lo}))"
        if self.op in ("<", ">"):
            return f"(({hi}) > ({lo}) ? ({span} + ({self.step}) - 1) / ({self.step}) : 0LL)"
        return f"(({hi}) >= ({lo}) ? {span} / ({self.step}) + 1 : 0LL)"

    def set_variable(self, counter: str) -> str:
        value = f"({self.lb}) {'-' if self.down else '+'} {counter} * ({self.step})"
        return f"{self.decl_type} {self.var} = {value};" if self.decl_type else f"{self.var} = {value};"


def apply_loop_transforms(pre: PreprocessedUnit) -> PreprocessedUnit:
    """The unit with every `tile` and `unroll` construct replaced by the loops it generates."""
    if not _TRANSFORM_PRAGMA.search(pre.text):
        return pre
    text = pre.text
    numbers = itertools.count()
    while True:
        found = list(_TRANSFORM_PRAGMA.finditer(text))
        if not found:
            return dataclasses.replace(pre, text=text)
        text = _apply(text, found[-1], pre, next(numbers))


def _coord(pre: PreprocessedUnit, text: str, pos: int) -> SourceCoord:
    line = text.count("\n", 0, pos) + 1
    return pre.user_coord(line, pos - (text.rfind("\n", 0, pos) + 1) + 1)


def _apply(text: str, pragma: re.Match, pre: PreprocessedUnit, number: int) -> str:
    d = parse_pragma(pragma.group(1), _coord(pre, text, pragma.start(1)))
    enclosing = _enclosing_loop_directive(text, pragma.start(), pre)
    if d.name == "unroll" and not d.has("partial"):
        if d.has("full") and enclosing is not None:
            raise OmpSemanticError(f"'#pragma omp {enclosing.name}' cannot apply to a loop that 'unroll full' "
                                   "replaces (it leaves no loop)", enclosing.coord)
        if d.has("full") or enclosing is None:
            loops, _, _ = _loop_nest(text, pragma.end(), 1, d, pre)
            if d.has("full") and not _constant_bounds(loops[0]):
                raise OmpSemanticError("'unroll full' needs a loop whose trip count is a compile-time constant",
                                       loops[0].coord)
            return text[:pragma.start()] + text[pragma.end():]   # the loop itself
        # unroll alone under a loop-associated construct: partial, with the default factor
    if d.name == "tile":
        depth = len(d.clause("sizes").exprs)
        sizes = [e.text for e in d.clause("sizes").exprs]
        for e in d.clause("sizes").exprs:
            _check_positive(e.text, e.coord, "a tile size")
    else:
        depth = 1
        partial = d.clause("partial")
        factor = partial.expr.text if partial is not None and partial.expr is not None else str(_DEFAULT_PARTIAL_FACTOR)
        if partial is not None and partial.expr is not None:
            _check_positive(factor, partial.expr.coord, "the unroll factor")
        sizes = [factor]
    if enclosing is not None:
        collapse = enclosing.clause("collapse")
        if collapse is not None and collapse.expr is not None:
            m = _INTEGER.match(collapse.expr.text)
            if m and int(m.group(1)) > depth:
                raise UnsupportedError(f"'collapse({m.group(1)})' of '#pragma omp {enclosing.name}' reaches into the "
                                       f"loops inside the ones that '{d.name}' generates; at most {depth} of its "
                                       "generated loops can be collapsed", collapse.coord)
    loops, body_end, opened = _loop_nest(text, pragma.end(), depth, d, pre)
    privatized = _privatize(text, pragma.start(), loops, pre)
    shift = len(privatized) - len(text)   # the clause went in above the construct: the rest moved
    text = privatized
    if shift:
        pragma = _TRANSFORM_PRAGMA.search(text, pragma.start() + shift)
        loops = [dataclasses.replace(loop, header_end=loop.header_end + shift) for loop in loops]
        body_end += shift
    if d.name == "tile":
        outer_vars = set()
        for loop in loops:
            for part in (loop.lb, loop.ub, loop.step):
                used = next((v for v in outer_vars if re.search(rf"\b{re.escape(v)}\b", part)), None)
                if used is not None:
                    raise UnsupportedError(f"'tile' of a loop nest that is not rectangular (this loop's bounds use "
                                           f"'{used}') is not supported yet", loop.coord)
            outer_vars.add(loop.var)
    prefix = f"__omp_{d.name}{number}"
    trips = [loop.trip_count() for loop in loops]
    floors = [f"{prefix}_floor{k}" for k in range(depth)]
    counters = [f"{prefix}_iv{k}" for k in range(depth)]
    header = "".join(f"for (long long {f} = 0; {f} < {t}; {f} += ({s})) " for f, t, s in zip(floors, trips, sizes))
    header += "".join(f"for (long long {c} = {f}; {c} < {f} + ({s}) && {c} < {t}; {c}++) "
                      for c, f, t, s in zip(counters, floors, trips, sizes))
    header += "{ " + " ".join(loop.set_variable(c) for loop, c in zip(loops, counters)) + " " + "{ " * opened
    replaced = text[pragma.start():loops[-1].header_end]
    return (text[:pragma.start()] + header + "\n" * replaced.count("\n") + text[loops[-1].header_end:body_end] + " }"
            + text[body_end:])


_CONSTANT = re.compile(r"^[0-9a-fA-FxXuUlL\s+\-*/%()<>&|^~]*$")


def _constant_bounds(loop: _Loop) -> bool:
    """Bounds and step made of integer literals and operators (after the preprocessor)."""
    return all(_CONSTANT.match(part) and re.search(r"\d", part) for part in (loop.lb, loop.ub, loop.step))


def _check_positive(expr: str, coord: SourceCoord, what: str) -> None:
    m = re.match(r"^\(*\s*(-?)\s*(\d+)[uUlL]*\s*\)*$", expr)
    if m and (m.group(1) or int(m.group(2)) == 0):
        raise OmpSemanticError(f"{what} must be a positive integer, not '{expr}'", coord)


def _directives_above(text: str, pos: int, pre: PreprocessedUnit) -> list[tuple[Directive, int, int]]:
    """The `#pragma omp` lines just above `pos` (blank lines apart), nearest first, each as
    (directive, start and end offsets of its line)."""
    found = []
    end = pos
    while end > 0:
        start = text.rfind("\n", 0, end - 1) + 1
        line = text[start:end].rstrip("\n")
        if line.strip():
            m = _OMP_PRAGMA.match(line)
            if m is None:
                break
            d = parse_pragma(m.group(1), _coord(pre, text, start + m.start(1)))
            if d is None:
                break
            found.append((d, start, start + len(line)))
        end = start
    return found


def _enclosing_loop_directive(text: str, pragma_start: int, pre: PreprocessedUnit) -> Directive | None:
    """The loop-associated directive on the line just before the construct (blank lines apart),
    which applies to the loops the construct generates; None when there is none."""
    above = _directives_above(text, pragma_start, pre)
    return above[0][0] if above and _LOOP_LEAVES & set(above[0][0].leaves) else None


def _privatize(text: str, pragma_start: int, loops: list[_Loop], pre: PreprocessedUnit) -> str:
    """The original iteration variables declared outside their loops are assigned in the body of
    the generated loops, so a worksharing construct above (through other transformations) would
    share them: they become private on it, as its own loop's variable would be."""
    outside = [loop for loop in loops if loop.decl_type is None]
    if not outside:
        return text
    for d, start, end in _directives_above(text, pragma_start, pre):
        if d.name in ("tile", "unroll"):
            continue
        if not _LOOP_LEAVES & set(d.leaves):
            return text
        listed = {item.name: c.kind for c in d.clauses for item in getattr(c, "items", ())}
        add = []
        for loop in outside:
            kind = listed.get(loop.var)
            if kind in ("lastprivate", "linear", "reduction", "shared"):
                raise UnsupportedError(f"'{loop.var}' in the {kind} clause of '#pragma omp {d.name}' is the iteration "
                                       f"variable of a loop that a loop transformation replaces; this is not supported "
                                       "yet (declare it in the loop, or leave it out of the clause)", d.coord)
            if kind is None and loop.var not in add:
                add.append(loop.var)
        if not add:
            return text
        return text[:end] + f" private({', '.join(add)})" + text[end:]
    return text


def _loop_nest(text: str, pos: int, depth: int, d: Directive, pre: PreprocessedUnit) -> tuple[list[_Loop], int, int]:
    """The `depth` perfectly nested loops after `pos`, the end of the innermost body, and how
    many `{` stand between the loop headers (their `}` must follow the innermost body at once)."""
    loops: list[_Loop] = []
    opened = 0
    toks = Tokens(text, pos)
    what = f"'#pragma omp {d.name}'" + (f" with {depth} sizes" if d.name == "tile" else "")
    while True:
        tok, start, _ = toks.next()
        if tok == "{" and loops:
            opened += 1
            continue
        if tok != "for":
            if not loops:
                raise OmpSyntaxError(f"'#pragma omp {d.name}' must be followed by a for loop", d.coord)
            raise OmpSemanticError(f"{what} needs {depth} perfectly nested loops, but the loop nest has only "
                                   f"{len(loops)}", d.coord)
        loops.append(_header(text, toks, start, pre))
        if len(loops) == depth:
            break
    body_end = scan_statement(toks)
    if body_end is None:
        raise OmpSyntaxError(f"cannot find the end of the loop after '#pragma omp {d.name}'", d.coord)
    after = Tokens(text, body_end)
    for _ in range(opened):
        if after.next()[0] != "}":
            raise OmpSemanticError(f"{what} needs {depth} perfectly nested loops: nothing may stand between them",
                                   loops[0].coord)
    return loops, body_end, opened


def _header(text: str, toks: Tokens, for_pos: int, pre: PreprocessedUnit) -> _Loop:
    coord = _coord(pre, text, for_pos)
    tok, open_pos, _ = toks.next()
    if tok != "(":
        raise OmpSyntaxError("expected '(' after 'for'", coord)
    close = scan_balanced(toks, "(", ")")
    if close is None:
        raise OmpSyntaxError("cannot find the end of the for loop's header", coord)
    parts = _split_top_level(text[open_pos + 1:close - 1], ";")
    if len(parts) != 3:
        raise OmpSyntaxError("expected 'for (init; test; increment)'", coord)
    init, cond, incr = (p.strip() for p in parts)

    def not_canonical(why: str) -> UnsupportedError:
        return UnsupportedError(f"a loop transformation needs a canonical loop: {why}", coord)

    m = _DECL_INIT.match(init)
    decl_type = None
    if m and m.group("type").strip() and "," not in init:
        decl_type, var, lb = " ".join(m.group("type").split()), m.group("var"), m.group("lb").strip()
    else:
        m = _ASSIGN_INIT.match(init)
        if not m:
            raise not_canonical(f"'{init}' is not 'var = lower bound' or a declaration of one variable")
        var, lb = m.group("var"), m.group("lb").strip()
    m = _COND.match(cond)
    if not m:
        raise not_canonical(f"'{cond}' does not compare '{var}' with a bound")
    lhs, op, rhs = m.group("lhs").strip(), m.group("op"), m.group("rhs").strip()
    if lhs == var:
        ub = rhs
    elif rhs == var:
        ub, op = lhs, {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}[op]
    else:
        raise not_canonical(f"'{cond}' does not compare '{var}' with a bound")
    step, down = _increment(incr, var, not_canonical)
    if op == "!=":
        op = ">" if down else "<"
    if (op in ("<", "<=")) == down:
        raise not_canonical(f"'{cond}' with '{incr}' does not run towards its bound")
    return _Loop(var, decl_type, lb, ub, op, step, down, close, coord)


def _increment(incr: str, var: str, not_canonical) -> tuple[str, bool]:
    """(step magnitude, whether the variable decreases) of `incr`."""
    v = re.escape(var)
    compact = re.sub(r"\s+", "", incr)
    if compact in (f"{var}++", f"++{var}"):
        return "1", False
    if compact in (f"{var}--", f"--{var}"):
        return "1", True
    m = re.match(rf"^{v}\s*(\+|-)=\s*(.+)$", incr, re.S) or re.match(rf"^{v}\s*=\s*{v}\s*(\+|-)\s*(.+)$", incr, re.S)
    if m:
        step = m.group(2).strip()
        negative = step.startswith("-")
        if negative:
            step = step[1:].strip()
        return step, (m.group(1) == "-") != negative
    m = re.match(rf"^{v}\s*=\s*(.+?)\s*\+\s*{v}$", incr, re.S)
    if m:
        return m.group(1).strip(), False
    raise not_canonical(f"'{incr}' is not an increment of '{var}' by a loop-invariant step")


def _split_top_level(s: str, sep: str) -> list[str]:
    parts, depth, cur, quote = [], 0, [], None
    i = 0
    while i < len(s):
        c = s[i]
        if quote:
            cur.append(c)
            if c == "\\" and i + 1 < len(s):
                cur.append(s[i + 1])
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
            cur.append(c)
        elif c in "([{":
            depth += 1
            cur.append(c)
        elif c in ")]}":
            depth -= 1
            cur.append(c)
        elif c == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    parts.append("".join(cur))
    return parts
