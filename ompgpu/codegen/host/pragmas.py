"""Host pragmas: every `#pragma omp` line as the host compiler must see it (OpenMP 5.x that
gcc lacks lowered: requires, metadirective, begin declare target, array shaping, imperfect
collapse; begin declare variant blocks resolved), and a target region's host fallback.
"""
from __future__ import annotations

import re

from ompgpu.errors import OmpgpuError, SourceCoord
from ompgpu.parser.context import select_metadirective
from ompgpu.parser.pragma import parse_pragma

from ompgpu.codegen.host.maps import host_item_text


def _clause_spans(line: str, kinds: tuple[str, ...]) -> list[tuple[int, int, str, str]]:
    """(start, end, kind, argument text) of each clause of those kinds on a pragma line;
    the argument is what is inside the parentheses ('' for a bare `nowait` or `indirect`)."""
    spans, pos = [], 0
    for m in re.finditer(r"\b(" + "|".join(kinds) + r")\b", line):
        if m.start() < pos or line.count("(", 0, m.start()) != line.count(")", 0, m.start()):
            continue  # inside another clause's parentheses
        k = m.end()
        while k < len(line) and line[k] in " \t":
            k += 1
        if k < len(line) and line[k] == "(":
            depth, open_at = 0, k
            while k < len(line):
                depth += {"(": 1, ")": -1}.get(line[k], 0)
                k += 1
                if depth == 0:
                    break
            spans.append((m.start(), k, m.group(1), line[open_at + 1:k - 1]))
            pos = k
        elif m.group(1) in ("nowait", "indirect"):
            spans.append((m.start(), m.end(), m.group(1), ""))
            pos = m.end()
    return spans


# The modifiers and map type before the ':' of a map clause (not a ':' of an array section).
_MAP_PREFIX_RE = re.compile(r"\s*(?:(?:always|close|present|mapper\s*\([^)]*\)|iterator\s*\([^)]*\)|to|from|tofrom|"
                            r"alloc|release|delete)\s*,?\s*)+:(?!:)")


def host_fallback(construct_text: str, d, in_task: bool) -> str:
    """The target construct's own text as the host fallback. libgomp must run it on the
    host whatever its device clause, default device or OMP_TARGET_OFFLOAD say (ompgpu
    already decided: the region runs here), so its `if` becomes `if(target: 0)` (an `if`
    without modifier keeps applying to a combined `parallel` as `if(parallel: ...)`); in a
    target task the construct's nowait and depend are done by the task. Clauses the host
    compiler may not know and that say nothing on the host (the `present` map modifier,
    `has_device_addr`) are left out."""
    nl = construct_text.find("\n")
    line, rest = (construct_text, "") if nl < 0 else (construct_text[:nl], construct_text[nl:])
    kinds = ("if", "map", "has_device_addr", "uses_allocators") + (("nowait", "depend", "in_reduction") if in_task else ())
    out, pos, extra = [], 0, []
    for start, end, kind, arg in _clause_spans(line, kinds):
        if kind == "uses_allocators":
            # Predefined allocators (the only ones device code accepts) need no declaring on
            # the host, and gcc 12 does not know the clause (OpenMP 5.0).
            out.append(line[pos:start])
            pos = end
            continue
        if kind == "in_reduction":
            # The target task around the construct joined the task reduction: the items are
            # its copies, which the construct maps tofrom (a scalar would otherwise be
            # firstprivate in the host fallback and its update lost).
            out.append(line[pos:start])
            pos = end
            extra.append(f"map(tofrom: {arg.partition(':')[2].strip()})")
            continue
        if kind == "has_device_addr":
            # On the host every address is the host's: the clause says nothing there, and gcc 12
            # rejects its array sections (OpenMP 5.1). The fallback leaves it out.
            out.append(line[pos:start])
            pos = end
            continue
        if kind == "map":
            # The `present` modifier (OpenMP 5.1) holds on the host by definition, and the host
            # compiler may not know it (gcc 12 rejects it): the fallback's map leaves it out, and
            # `close` (5.0) too, a hint about device memory that gcc 11 rejects.
            prefix = _MAP_PREFIX_RE.match(arg)  # up to the modifiers' ':', not a section's
            head, items = (arg[:prefix.end() - 1], arg[prefix.end():]) if prefix else ("", arg)
            if re.search(r"\bpresent\b|\bclose\b|\bmapper\s*\(", head):
                # mapper(...) (OpenMP 5.0): ompgpu applied the mapper; on the host it says nothing
                head = re.sub(r"\bmapper\s*\([^)]*\)", "", head)
                words = [w for w in re.split(r"[,\s]+", head) if w and w not in ("present", "close")]
                arg = (", ".join(words) + ": " if words else "") + items.strip()
            out.append(line[pos:start] + f"map({arg})")
            pos = end
            continue
        if kind == "if":
            modifier, _, expr = arg.partition(":") if re.match(r"\s*[a-z ]+:(?!:)", arg) else ("", "", arg)
            modifier = modifier.strip()
            if modifier and modifier != "target":
                continue  # if(parallel: ...), if(simd: ...): kept as written
            if not modifier and "parallel" in d.leaves:
                extra.append(f"if(parallel: {expr.strip()})")
        out.append(line[pos:start])
        pos = end
    out.append(line[pos:])
    return "".join(out) + " " + " ".join(extra + ["if(target: 0)"]) + rest


# requires clauses that ompgpu satisfies itself and the host compiler may reject (gcc 12 has
# "sorry, unimplemented" for unified_address, gcc 11 for dynamic_allocators, which only
# device code needs): left out of the host code.
_REQUIREMENTS_MET_BY_OMPGPU = ("unified_address", "unified_shared_memory", "dynamic_allocators")


_PRAGMA_OMP_LINE = re.compile(r"^([ \t]*#[ \t]*pragma[ \t]+)(omp\b.*)$")
_DROPPED_DIRECTIVE = re.compile(r"omp[ \t]+(?:allocate[ \t]*\(|declare[ \t]+mapper\b|nothing\b|assumes?\b|"
                                r"(?:begin|end)[ \t]+assumes\b|error\b(?!.*\bat[ \t]*\([ \t]*execution))")
_BEGIN_DECLARE_TARGET = re.compile(r"omp[ \t]+begin[ \t]+declare[ \t]+target\b")
_DECLARE_TARGET_ENTER = re.compile(r"omp[ \t]+declare[ \t]+target\b.*\b(?:enter|indirect)\b")
_REQUIRES = re.compile(r"(omp[ \t]+requires\b)(.*)$")
_METADIRECTIVE = re.compile(r"omp[ \t]+metadirective\b")
_SHAPE_START = re.compile(r"\(\s*\[")


def pragma_operator(directive: str) -> str:
    """`_Pragma("...")`: a directive (its text after `#pragma `) as an operator that may stand on a
    line with code, its quotes and backslashes escaped."""
    return '_Pragma("' + directive.replace("\\", "\\\\").replace('"', '\\"') + '")'


def blank_lines(text: str, ranges: tuple[tuple[int, int], ...]) -> str:
    """The text with the lines of each (first, last) range emptied; line numbers stay."""
    if not ranges:
        return text
    lines = text.split("\n")
    for first, last in ranges:
        lines[first - 1:last] = [""] * (last - first + 1)
    return "\n".join(lines)


def host_pragma_lines(text: str, imperfect: tuple[tuple[int, int, int], ...], offload_arch: str,
                      offload: str = "none") -> str:
    """Every `#pragma omp` line of the host code as the host compiler must see it: gcc 12
    implements OpenMP 4.5 and part of 5.0, and ompgpu lowers the rest itself, so those lines
    change (see _host_pragma). A changed line is padded with blanks to its old length where it
    got shorter, and keeps its place: line numbers stay."""
    collapse_at = {line_no: (depth, perfect) for line_no, depth, perfect in imperfect}
    if "omp" not in text:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if "pragma" not in line:
            continue
        m = _PRAGMA_OMP_LINE.match(line)
        if m is None:
            continue
        new = _host_pragma(m.group(1), m.group(2), offload_arch, collapse_at.get(i + 1), offload)
        if new != line:
            lines[i] = new.ljust(len(line))
    return "\n".join(lines)


def _host_pragma(prefix: str, directive: str, offload_arch: str, collapse: tuple[int, int] | None,
                 offload: str = "none") -> str:
    """One pragma line (`prefix` is `#pragma `, `directive` starts with `omp`) for the host compiler:

    - `allocate` and `declare mapper` directives blanked: the allocate directive says where
      variables live, which the host program cannot observe beyond alignment; a declare mapper
      has been applied to the map clauses already;
    - `nothing`, the assumption directives (hints: gcc 12 rejects `assume` and `begin/end
      assumes`) and an `error` directive at(compilation) (ompgpu reported it) blanked; an
      error directive at(execution) stays, which the host compiler carries out;
    - `begin declare target [clauses]` (5.1) as the 5.0 `declare target`: its device_type and
      indirect say nothing about the host's copy of the functions;
    - `requires` without the clauses ompgpu meets itself;
    - without `affinity` clauses (a hint about a task's data, 5.0);
    - `defaultmap(present...)` (5.1) as `defaultmap(tofrom...)`, its meaning on the host;
    - depend(inoutset: ...) (5.1; gcc 12 lacks it) as inout (ordered no less); taskwait nowait
      (5.1) as an empty task with the taskwait's dependences;
    - a dependence on omp_all_memory (5.1; gcc 12 lacks it) as a taskwait and the construct
      undeferred, without that dependence (see _all_memory_dependence);
    - a list item in several map clauses (5.0; gcc 12 rejects it) in the first of them only: on
      the host every map type means the same (device code combines the types);
    - a metadirective as the variant the host takes (gcc 12 ignores metadirective: a loop meant
      to be `parallel for` would run on one thread), blank where it takes none; device code got
      the GPU's variant from the binder;
    - the collapse(n) of a loop directive whose nest is imperfect (5.0) as collapse of its
      perfect depth (gcc 12 rejects such nests): the outer loops collapsed and the rest inside
      each iteration, the same program;
    - array shaping `([n][m])p` (5.0) in depend and affinity lists as the storage it names
      (see host_item_text)."""
    if _DROPPED_DIRECTIVE.match(directive):
        return ""
    if _BEGIN_DECLARE_TARGET.match(directive):
        return prefix + "omp declare target"
    if _DECLARE_TARGET_ENTER.match(directive):
        # enter (5.2) is the 5.0 `to` (gcc 12 knows only that); indirect(false) says nothing
        directive = re.sub(r"\benter\s*\(", "to(", directive)
        for start, end, _, _ in reversed(_clause_spans(directive, ("indirect",))):
            directive = directive[:start].rstrip() + directive[end:]
    m = _REQUIRES.match(directive)
    if m is not None:
        clauses = [c for c in re.findall(r"[a-z_]+(?:\s*\([^)]*\))?", m.group(2))
                   if c.split("(")[0].strip() not in _REQUIREMENTS_MET_BY_OMPGPU]
        return (prefix + m.group(1) + " " + ", ".join(clauses)) if clauses else ""
    if _METADIRECTIVE.match(directive):
        try:
            chosen = select_metadirective(parse_pragma(directive, SourceCoord("<host>", 1, 1)), False, offload_arch)
        except OmpgpuError:
            return prefix + directive  # the binder reported what it had to; keep the line as written
        return f"{prefix}omp {chosen.variant}" if chosen and chosen.variant not in ("", "nothing") else ""
    if "omp_all_memory" in directive and (offload == "none" or directive.split()[1:2] != ["target"]):
        # (a target construct of offloaded code is replaced: its host task does this, tasks.py)
        return prefix[:len(prefix) - len(prefix.lstrip())] + _all_memory_dependence(directive)
    if "map" in directive:
        directive = _without_repeated_map_items(directive)
    if "defaultmap" in directive:
        # defaultmap(present) (5.1), which gcc 12 rejects: on the host every variable is present,
        # and tofrom is what present means there (the region works on the host's own storage).
        directive = re.sub(r"\bdefaultmap\s*\(\s*present\b", "defaultmap(tofrom", directive)
    if "inoutset" in directive:
        # depend(inoutset: ...) (5.1; gcc 12 lacks it) as inout: such tasks then also run one
        # after another, which orders no less than the program asked for
        directive = re.sub(r"(\bdepend\s*\((?:[^()]*\([^()]*\))*[^():]*?)\binoutset\s*:", r"\1inout:", directive)
    if re.match(r"omp\s+taskwait\b.*\bnowait\b", directive):
        # taskwait nowait (5.1; gcc 12 lacks it): a task with the same dependences and nothing to
        # do, which the encountering task does not wait for
        deps = " ".join(directive[start:end] for start, end, _, _ in _clause_spans(directive, ("depend",)))
        return prefix[:len(prefix) - len(prefix.lstrip())] + '_Pragma("omp task ' + deps.replace('"', '\\"') + '") {}'
    if "uses_allocators" in directive:
        # uses_allocators (5.0; gcc 12 rejects it): the predefined allocators need nothing on the
        # host, and allocators made from traits are made by the host code (host/allocators.py)
        for start, end, _, _ in reversed(_clause_spans(directive, ("uses_allocators",))):
            directive = directive[:start].rstrip() + directive[end:]
    if "affinity" in directive:
        # affinity (5.0) is a hint about where a task's data lives: the host's task runs the
        # same without it, and gcc 11 rejects the clause.
        for start, end, _, _ in reversed(_clause_spans(directive, ("affinity",))):
            directive = directive[:start].rstrip() + directive[end:]
    if collapse is not None:
        depth, perfect = collapse
        directive = re.sub(r"\bcollapse\s*\(\s*" + str(depth) + r"\s*\)",
                           lambda c: f"collapse({perfect})" if perfect > 1 else "", directive, count=1)
    if _SHAPE_START.search(directive):
        directive = _host_shaping(directive)
    return prefix + directive


def _all_memory_dependence(directive: str) -> str:
    """A task or target construct that depends on omp_all_memory (OpenMP 5.1; gcc 12 lacks the
    locator) as `_Pragma("omp taskwait")` and the construct undeferred, without that dependence
    (every child task done first, and this one done before any later one is created: the same
    order). The line stays one line."""
    for start, end, kind, arg in reversed(_clause_spans(directive, ("depend",))):
        modifier, _, items = arg.rpartition(":")
        kept = [i.strip() for i in _split_top_level(items) if i.strip() and i.strip() != "omp_all_memory"]
        if len(kept) != len([i for i in _split_top_level(items) if i.strip()]):
            directive = directive[:start] + "" + directive[end:]  # the whole dependence: the taskwait covers it
    is_task = directive.split()[1:2] == ["task"]
    for start, end, kind, arg in reversed(_clause_spans(directive, ("nowait", "if") if is_task else ("nowait",))):
        directive = directive[:start] + directive[end:]
    words = directive.split()
    undeferred = "if(0)" if is_task else ""
    return '_Pragma("omp taskwait") _Pragma("' + " ".join([*words, undeferred]).strip().replace('"', '\\"') + '")'


def _split_top_level(text: str) -> list[str]:
    """`text` split at its commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _without_repeated_map_items(directive: str) -> str:
    seen: set[str] = set()
    edits = []
    for start, end, kind, arg in _clause_spans(directive, ("map",)):
        prefix = _MAP_PREFIX_RE.match(arg)
        head, items = (arg[:prefix.end()], arg[prefix.end():]) if prefix else ("", arg)
        kept = []
        for item in _split_top_level(items):
            key = "".join(item.split())
            if key and key not in seen:
                seen.add(key)
                kept.append(item.strip())
        if len(kept) != len([i for i in _split_top_level(items) if i.strip()]):
            edits.append((start, end, f"map({head}{', '.join(kept)})" if kept else ""))
    for start, end, new in reversed(edits):
        directive = directive[:start] + new + directive[end:]
    return directive


def _host_shaping(directive: str) -> str:
    """The directive with each shaped list item written as host_item_text gives it (gcc 12 has
    no array shaping). In depend and affinity clauses; in the to and from clauses of a target
    update only where the host compiler sees the construct, with --offload=none (the update then
    has no device to copy from)."""
    try:
        d = parse_pragma(directive, SourceCoord("<host>", 1, 1))
    except OmpgpuError:
        return directive  # the binder reported what it had to
    if d is None:
        return directive
    spans = []
    for c in d.clauses:
        if c.kind not in ("depend", "affinity", "to", "from"):
            continue
        for item in c.items:
            if item.shape:
                start = directive.rindex("(", 0, item.shape[0].coord.col - 1)
                spans.append((start, item.coord.col - 1 + len(item.text), host_item_text(item)))
    for start, end, new in sorted(spans, reverse=True):
        directive = directive[:start] + new + directive[end:]
    return directive
