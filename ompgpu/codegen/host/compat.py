"""OpenMP 5.x that an older host compiler lacks, lowered in the host code to what it has.

The host compiler builds the host code with its own OpenMP: the program's host parallelism
and each target region's host fallback. gcc 11 and clang 14-16 lack parts of OpenMP 5.0/5.1,
and clang 19 cannot compile some `scope` constructs; ompgpu lowers those constructs for the
compiler that lacks them, to constructs with the same meaning, and leaves the host code of
every other compiler as it is. Every lowering keeps the line structure of the text (the host
splice and the line markers depend on it): a construct that needs more than one directive
gets them as `_Pragma` operators on the line of the one it replaces.

The gaps (found by .ci/host_compilers on 2026-11-26; see host_openmp_gaps):
- "masked" (5.1; gcc 11 ignores the directive, so every thread would run the block): as
  `master` (gcc 11 has every combined form of it) where the filter is absent or 0, else as
  `if (omp_get_thread_num() == filter)` around the block.
- "scope": the scope construct (5.1; clang 19: "cannot compile this scope with FE outlining
  yet"). Lowered to a worksharing loop with one iteration per thread of the team, schedule
  (static, 1): each thread runs the block once, with the scope's private, firstprivate,
  reduction, allocate and nowait clauses meaning what they mean on a scope.
- "atomic compare" (5.1): every atomic construct of the file becomes one named critical
  section, so that the compare forms stay atomic with respect to the file's other atomics on
  the same variables (slower, never wrong).
- "thread_limit on target" (5.1): the clause leaves the target construct; a combined
  `parallel` gets num_threads of at most the limit, and a target region without one caps the
  region's nthreads-var at the limit, restoring it at the end. (omp_get_thread_limit() in such
  a host fallback still returns the host's limit.)
- "scan phases" (gcc 11 takes one statement per phase of a scan loop, 5.0 a sequence): each
  phase in braces.
- "order clauses" (gcc 11 and clang 14-16 take no order on distribute and no
  reproducible/unconstrained modifier, both 5.1): left out; order(concurrent) only permits more reordering, so the loop
  without it means the same.
- "combined loop" (clang 14 has the loop construct but none of its combined forms): the loop
  leaf as a directive of its own after the others, `_Pragma("omp target parallel ...")
  _Pragma("omp loop ...")`; a reduction stays on both (the outer leaf combines what the
  loop's threads reduced), the loop's own clauses go with it.
- "default firstprivate" (gcc 11 rejects default(firstprivate) of a task, clang 14 crashes on
  it): the clause as
  firstprivate of each variable the construct's statement names and does not declare, that no
  data-sharing clause of it lists.
- "allocate modifiers" (gcc 11 and clang 19 reject the 5.1 form `allocate(allocator(a),
  align(n): list)`): as `allocate(a: list)` (the host's copies are then not aligned: these
  compilers have no way to say it), or `allocate(list)` without an allocator.
- "allocate on target" (clang wants every allocator of an allocate clause on a target construct
  in a uses_allocators clause, which gcc 12 rejects and ompgpu leaves out): the target
  construct's allocate clauses left out in the host code (the host fallback's copies are then
  ordinary host variables, which every predefined allocator's traits allow).
- "error directive" (clang 14 has no error directive, clang 16 no `at` clause): an error
  directive at(execution) as what the host's OpenMP library does with it, its message on
  stderr and, for a fatal one, the program ended with status 1 (ompgpu reported one at
  compilation itself).
- "linear on combined target" (gcc 11 crashes on linear in a combined target loop construct):
  the target leaf as its own directive, with the linear, lastprivate and reduction items
  mapped tofrom as OpenMP 5.0 says for a combined target construct.
"""
from __future__ import annotations

import re

from pycparser import c_ast

from ompgpu.errors import UnsupportedError
from ompgpu.parser.bind import OmpConstruct
from ompgpu.parser.cfront import walk_nodes
from ompgpu.parser.directives import error_directive_form
from ompgpu.codegen.host.pragmas import _PRAGMA_OMP_LINE, _clause_spans, pragma_operator
from ompgpu.codegen.host.source_text import apply_edits, line_offsets, next_token, statement_end, tokens_from


def host_openmp_gaps(identity: tuple[str, int] | None) -> frozenset[str]:
    """What the host compiler (family, major version) lacks of what ompgpu passes it."""
    if identity is None:
        return frozenset()
    family, major = identity
    if family == "gcc":
        return frozenset({"masked", "scope", "atomic compare", "thread_limit on target", "scan phases",
                          "linear on combined target", "order clauses", "default firstprivate",
                          "allocate modifiers"}) if major <= 11 else frozenset()
    if family == "clang":
        old = frozenset({"scope", "atomic compare", "thread_limit on target", "order clauses", "allocate modifiers",
                         "allocate on target", "error directive"})
        if major <= 14:
            return old | {"combined loop", "default firstprivate"}
        return old if major <= 16 else frozenset({"scope", "allocate modifiers", "allocate on target"})
    return frozenset()


def lower_for_host_compiler(text: str, ast: c_ast.FileAST, gaps: frozenset[str], offload: str) -> str:
    """The host code text with the constructs in `gaps` lowered (see the module docstring).
    With `offload` other than "none" a target construct's own line is left for
    host_fallback_for_compiler: the host splice replaces it."""
    if not gaps:
        return text
    constructs = [node for node in walk_nodes(ast) if isinstance(node, OmpConstruct) and node.coord is not None]
    lines = text.split("\n")
    if "error directive" in gaps:
        for c in constructs:
            if c.directive.name == "error" and error_directive_form(c.directive)[0] == "execution":
                lines[c.coord.line - 1] = _error_directive_call(c.directive)
        text = "\n".join(lines)
    if "allocate modifiers" in gaps or "allocate on target" in gaps:  # a pass of its own, on every pragma line
        lines = [_host_allocate_clauses(line, gaps) if "allocate" in line and _PRAGMA_OMP_LINE.match(line) else line
                 for line in lines]
        text = "\n".join(lines)
    if "order clauses" in gaps:  # a pass of its own: the lowerings below may rewrite the same lines
        for c in constructs:
            i = c.coord.line - 1
            while c.directive.has("order") and i < len(lines) and (clause := _clause_text(lines[i], "order")) is not None:
                lines[i] = lines[i][:clause[0]] + lines[i][clause[1]:]
        text = "\n".join(lines)
    line_starts = line_offsets(text)
    edits: list[tuple[int, int, str]] = []

    def pragma_span(c: OmpConstruct) -> tuple[int, int, str] | None:
        """(start, end, directive text after `#pragma `) of the construct's pragma line."""
        i = c.coord.line - 1
        m = _PRAGMA_OMP_LINE.match(lines[i]) if i < len(lines) else None
        return None if m is None else (line_starts[i], line_starts[i] + len(lines[i]), m.group(2).rstrip())

    def body_span(c: OmpConstruct) -> tuple[int, int]:
        """(first token, end) of the construct's statement."""
        pos = line_starts[c.coord.line] if c.coord.line < len(line_starts) else len(text)
        return next_token(text, pos)[1], statement_end(text, pos, c)

    has_compare = any(c.directive.name == "atomic" and c.directive.has("compare") for c in constructs)
    for c in constructs:
        d = c.directive
        span = pragma_span(c)
        if span is None:
            continue
        start, end, directive = span
        if d.name == "scope" and "scope" in gaps:
            clauses = directive.split("scope", 1)[1].strip()
            edits.append((start, end, "{ extern int omp_get_num_threads(void); "
                          + pragma_operator(f"omp for schedule(static, 1) {clauses}".rstrip())
                          + " for (int __ompgpu_scope_thread = 0; __ompgpu_scope_thread < omp_get_num_threads(); "
                            "++__ompgpu_scope_thread)"))
            stop = body_span(c)[1]
            edits.append((stop, stop, " }"))
        elif "masked" in d.leaves and "masked" in gaps:
            edits.append((start, end, _masked_as_master(text[start:end], d)))
        elif d.name == "atomic" and has_compare and "atomic compare" in gaps:
            edits.append((start, end, "#pragma omp critical(__ompgpu_atomic)"))
        elif "target" in d.leaves and d.has("thread_limit") and "teams" not in d.leaves \
                and "thread_limit on target" in gaps:
            edits.extend(_thread_limit_edits(text, c, start, end, body_span(c)))
        elif "scan phases" in gaps and any(s.directive.name == "scan" for s in _direct_scans(c)):
            edits.extend(_scan_phase_edits(text, c, line_starts, lines))
        elif offload == "none" and "linear on combined target" in gaps and d.leaves[0] == "target" and d.has("linear"):
            edits.append((start, end, split_target_leaf(text[start:end], d)))
        elif "default firstprivate" in gaps and any(cl.kind == "default" and cl.value == "firstprivate" for cl in d.clauses) \
                and c.body is not None:
            edits.append((start, end, _explicit_firstprivate(text[start:end], c, ast)))
        elif offload == "none" and "combined loop" in gaps and d.is_combined and "loop" in d.leaves:
            edits.append((start, end, split_loop_leaf(text[start:end], d)))
    return apply_edits(text, edits)


def _error_directive_call(d) -> str:
    """An error directive at(execution) as statements (glibc's stdio names, declared in place)."""
    _, severity, message = error_directive_form(d)
    out = ('{ extern int fputs(const char *, struct _IO_FILE *); extern struct _IO_FILE *stderr; '
           f'fputs("OMP: error directive encountered: ", stderr); fputs({message if message else chr(34) * 2}, stderr); '
           'fputs("\\n", stderr); ')
    if severity == "fatal":
        out += "extern void exit(int); exit(1); "
    return out + "}"


def _host_allocate_clauses(line: str, gaps: frozenset[str]) -> str:
    """A pragma line's allocate clauses as the host compiler takes them: left out of a target
    construct ("allocate on target"); in the 5.0 form ("allocate modifiers"):
    allocate(allocator(a), align(n): list) as allocate(a: list), allocate(align(n): list) as
    allocate(list)."""
    directive = _PRAGMA_OMP_LINE.match(line).group(2)
    if "allocate on target" in gaps and re.match(r"omp\s+target\b", directive):
        for start, end, _, _ in reversed(_clause_spans(line, ("allocate",))):
            line = line[:start] + line[end:]
        return line
    if "allocate modifiers" not in gaps:
        return line
    for start, end, _, arg in reversed(_clause_spans(line, ("allocate",))):
        head, colon, items = arg.rpartition(":")
        if not colon or "allocator(" not in head.replace(" ", "") and "align(" not in head.replace(" ", ""):
            continue
        m = re.search(r"\ballocator\s*\(([^()]*)\)", head)
        line = line[:start] + (f"allocate({m.group(1).strip()}: {items.strip()})" if m else
                               f"allocate({items.strip()})") + line[end:]
    return line


def _clause_text(directive: str, kind: str) -> tuple[int, int, str] | None:
    """(start, end, argument) of the first `kind(...)` clause of a directive's text."""
    spans = _clause_spans(directive, (kind,))
    return (spans[0][0], spans[0][1], spans[0][3]) if spans else None


def _thread_limit_edits(text: str, c: OmpConstruct, start: int, end: int, body: tuple[int, int]):
    line = text[start:end]
    clause = _clause_text(line, "thread_limit")
    if clause is None:
        return []
    limit = f"({clause[2].strip()})"
    line = line[:clause[0]] + line[clause[1]:]
    if "parallel" in c.directive.leaves:
        # At most the limit: what thread_limit leaves of a parallel's team on the host.
        capped = ("({ extern int omp_get_max_threads(void); int __ompgpu_n = %s, __ompgpu_m = omp_get_max_threads(); "
                  "__ompgpu_n < __ompgpu_m ? __ompgpu_n : __ompgpu_m; })")
        nt = _clause_text(line, "num_threads")
        if nt is not None:
            cap = capped % f"(({nt[2].strip()}) < {limit} ? ({nt[2].strip()}) : {limit})"
            line = line[:nt[0]] + f"num_threads({cap})" + line[nt[1]:]
        else:
            line = line + f" num_threads({capped % limit})"
        return [(start, end, line)]
    first, stop = body
    return [(start, end, line),
            (first, first, "{ extern int omp_get_max_threads(void); extern void omp_set_num_threads(int); "
                           "int __ompgpu_nthreads = omp_get_max_threads(); "
                           f"if (__ompgpu_nthreads > {limit}) omp_set_num_threads({limit}); "),
            (stop, stop, " omp_set_num_threads(__ompgpu_nthreads); }")]


_THREAD_NUM = "({ extern int omp_get_thread_num(void); omp_get_thread_num(); })"


def _masked_as_master(line: str, d) -> str:
    filter_clause = _clause_text(line, "filter")
    selector = filter_clause[2].strip() if filter_clause else "0"
    if filter_clause is not None:
        line = line[:filter_clause[0]] + line[filter_clause[1]:]
    if selector == "0":
        return re.sub(r"\bmasked\b", "master", line, count=1)
    m = re.match(r"^[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+(.*)$", line)
    after = " " + " ".join(m.group(1).partition("masked")[2].split())
    test = f"if ({_THREAD_NUM} == ({selector}))"
    if d.leaves == ("masked",):
        return test
    if d.leaves == ("parallel", "masked"):
        return pragma_operator("omp parallel" + after) + " " + test
    if d.leaves[0] == "masked":  # masked taskloop [simd]
        return test + " " + pragma_operator("omp" + after)
    raise UnsupportedError("'parallel masked taskloop' with a filter other than 0 needs a host compiler with "
                           "OpenMP 5.1's masked (gcc 12 or later; this one is gcc 11)", d.coord)


def _direct_scans(c: OmpConstruct) -> list[OmpConstruct]:
    """The scan directives directly in the body of a loop construct's loop."""
    loop = c.body
    if not isinstance(loop, c_ast.For) or not isinstance(loop.stmt, c_ast.Compound):
        return []
    return [s for s in loop.stmt.block_items or () if isinstance(s, OmpConstruct)]


def _scan_phase_edits(text: str, c: OmpConstruct, line_starts: list[int], lines: list[str]):
    """Each phase of the loop's body in braces: `{ input phase } #scan { scan phase }`."""
    toks = tokens_from(text, line_starts[c.coord.line] if c.coord.line < len(line_starts) else len(text))
    head = [next(toks, ("", 0, 0)) for _ in range(2)]
    if [t[0] for t in head] != ["for", "("]:
        return []
    depth = 1
    for tok, _, _ in toks:
        depth += {"(": 1, ")": -1}.get(tok, 0)
        if depth == 0:
            break
    tok, _, open_end = next(toks, ("", 0, 0))
    if tok != "{":
        return []
    depth, close_start = 1, None
    for tok, start, _ in toks:
        depth += {"{": 1, "}": -1}.get(tok, 0)
        if depth == 0:
            close_start = start
            break
    if close_start is None:
        return []
    edits = [(open_end, open_end, " {"), (close_start, close_start, "} ")]
    for scan in _direct_scans(c):
        if scan.directive.name != "scan":
            continue
        i = scan.coord.line - 1
        m = _PRAGMA_OMP_LINE.match(lines[i])
        if m is not None:
            edits.append((line_starts[i], line_starts[i] + len(lines[i]), "} " + pragma_operator(m.group(2).rstrip()) + " {"))
    return edits


# Clauses of a combined target construct that belong to its target leaf alone.
_TARGET_LEAF_CLAUSES = ("map", "device", "depend", "nowait", "is_device_ptr", "has_device_addr", "defaultmap",
                        "uses_allocators", "in_reduction")


def split_target_leaf(line: str, d) -> str:
    """A combined `target X` pragma line (`#pragma omp target X clauses`) as the two directives
    `_Pragma("omp target ...") _Pragma("omp X ...")` on one line: the target leaf gets its own
    clauses, an `if(target: ...)` and the firstprivate items; the linear, lastprivate and
    reduction items are mapped tofrom (OpenMP 5.0's rule for a combined target construct, which
    the explicit target leaf no longer implies); everything else stays with X."""
    m = re.match(r"^[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+target\b(.*)$", line)
    if m is None:
        return line
    rest = m.group(1)
    inner_name = " ".join(d.leaves[1:])
    after = rest.lstrip()
    for word in d.leaves[1:]:
        after = re.sub(r"^" + word + r"\b\s*", "", after)
    target_clauses, inner_clauses, implied = [], [], []
    for kind, clause, arg in _clauses(after):
        if kind in _TARGET_LEAF_CLAUSES:
            target_clauses.append(clause)
        elif kind == "if" and re.match(r"\s*target\s*:", arg):
            target_clauses.append(clause)
        elif kind == "firstprivate":
            target_clauses.append(clause)
            inner_clauses.append(clause)
        else:
            inner_clauses.append(clause)
            if kind in ("linear", "lastprivate", "reduction"):
                items = arg.rsplit(":", 1)[0] if kind == "linear" and ":" in arg else arg
                if kind != "linear" and ":" in items:
                    items = items.split(":", 1)[1]
                items = re.sub(r"\b(?:val|ref|uval)\s*\(([^)]*)\)", r"\1", items)
                implied.extend(item.strip() for item in items.split(","))
    mapped = {item.name for c in d.clauses_of("map") for item in c.items}
    implied = [item for item in dict.fromkeys(implied) if re.match(r"\w+", item).group() not in mapped]
    if implied:
        target_clauses.append(f"map(tofrom: {', '.join(implied)})")
    return (pragma_operator(" ".join(["omp target", *target_clauses])) + " "
            + pragma_operator(" ".join([f"omp {inner_name}", *inner_clauses])))


# Clauses of a combined `X loop` construct that the loop leaf takes; reduction goes to both.
_LOOP_LEAF_CLAUSES = ("bind", "collapse", "order", "private", "lastprivate")


def split_loop_leaf(line: str, d) -> str:
    """A combined `X loop` pragma line as `_Pragma("omp X ...") _Pragma("omp loop ...")` (see
    the module docstring); a target leaf among X maps the reduction and lastprivate items
    tofrom, as the combined construct implied."""
    m = re.match(r"^[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+(.*)$", line)
    if m is None or "loop" not in d.leaves:
        return line
    outer_leaves = d.leaves[:d.leaves.index("loop")]
    after = m.group(1)
    for word in d.leaves:
        after = re.sub(r"^\s*" + word + r"\b", "", after)
    outer, inner, implied = [], [], []
    for kind, clause, arg in _clauses(after):
        if kind in _LOOP_LEAF_CLAUSES:
            inner.append(clause)
        elif kind == "reduction":
            outer.append(clause)
            inner.append(clause)
            implied.extend(i.strip() for i in arg.split(":", 1)[-1].split(","))
        else:
            outer.append(clause)
        if kind == "lastprivate":
            implied.extend(i.strip() for i in arg.split(":", 1)[-1].split(","))
    if "target" in outer_leaves:
        mapped = {item.name for c in d.clauses_of("map") for item in c.items}
        implied = [i for i in dict.fromkeys(implied) if re.match(r"\w+", i).group() not in mapped]
        if implied:
            outer.append(f"map(tofrom: {', '.join(implied)})")
    return (pragma_operator(" ".join(["omp", *outer_leaves, *outer])) + " "
            + pragma_operator(" ".join(["omp loop", *inner])))


def _clauses(text: str):
    """(kind, clause text, argument) of each clause of a directive's clause text."""
    pos = 0
    while pos < len(text):
        cm = re.match(r"[\s,]*([a-z_]+)\s*", text[pos:])
        if cm is None or not cm.group(1):
            return
        kind, k = cm.group(1), pos + cm.end()
        if k < len(text) and text[k] == "(":
            depth = 0
            while k < len(text):
                depth += {"(": 1, ")": -1}.get(text[k], 0)
                k += 1
                if depth == 0:
                    break
        clause = text[pos:k].strip(" \t,")
        pos = k
        yield kind, clause, clause[clause.find("(") + 1:-1] if "(" in clause else ""


def _explicit_firstprivate(line: str, c: OmpConstruct, ast: c_ast.FileAST) -> str:
    """The pragma line with default(firstprivate) as firstprivate(every variable the statement
    names, declares not itself and no clause lists): the names that are not functions or
    enumeration constants of the file."""
    not_variables = {n.name for n in walk_nodes(ast) if isinstance(n, c_ast.Enumerator)}
    not_variables |= {n.decl.name for n in ast.ext if isinstance(n, c_ast.FuncDef)}
    not_variables |= {n.name for n in walk_nodes(ast) if isinstance(n, c_ast.Decl) and isinstance(n.type, c_ast.FuncDecl)}
    declared = {n.name for n in walk_nodes(c.body) if isinstance(n, c_ast.Decl)}
    listed = {item.name for cl in c.directive.clauses for item in getattr(cl, "items", ())}
    names = []
    for n in walk_nodes(c.body):
        if isinstance(n, c_ast.ID) and n.name not in not_variables | declared | listed and n.name not in names:
            names.append(n.name)
    clause = _clause_text(line, "default")
    replacement = f"firstprivate({', '.join(sorted(names))})" if names else ""
    return line[:clause[0]] + replacement + line[clause[1]:] if clause else line
