"""Host code generation: the preprocessed program with its target constructs replaced.

The host compiler sees the preprocessed text of the user's file (real headers, GNU
extensions and all). Each host-level construct (target region, target data, enter/exit
data, update) is spliced out by its extent in that text and replaced with calls into the
host runtime; a target region keeps its original text as the host fallback, which the
host compiler builds with -fopenmp. Line markers keep the user's line numbers.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Callable

from ompgpu.analysis.symbols import has_side_effect, is_array, is_pointer, region_uses, resolve_typedef
from ompgpu.codegen.footprint import short_iteration
from ompgpu.codegen.render import render
from ompgpu.errors import OmpgpuError, OmpSyntaxError, SourceCoord, UnsupportedError
from ompgpu.parser.context import select_metadirective
from ompgpu.parser.pragma import parse_pragma
from ompgpu.outliner.outline import Kernel, Program, pointer_member_section, struct_member_map, target_kind, whole_struct
from pycparser import c_ast

from ompgpu.analysis.library import PURE_LIBRARY
from ompgpu.codegen.cprint import CPrinter
from ompgpu.parser.bind import OmpConstruct, canonical_for, collapse_depth, loop_nest
from ompgpu.parser.clause_rules import int_constant
from ompgpu.parser.directives import CExpr, ListItem, Section

MAP_FLAGS = {"to": ["OMPGPU_MAP_TO"], "from": ["OMPGPU_MAP_FROM"], "tofrom": ["OMPGPU_MAP_TO", "OMPGPU_MAP_FROM"],
             "alloc": [], "release": ["OMPGPU_MAP_RELEASE"], "delete": ["OMPGPU_MAP_DELETE"], "": []}
MODIFIER_FLAGS = {"always": "OMPGPU_MAP_ALWAYS", "present": "OMPGPU_MAP_PRESENT"}
# Host OpenMP device-memory API calls that ompgpu's runtime implements (libgomp has its own).
RENAMED_HOST_API = ("omp_target_alloc", "omp_target_free", "omp_target_memcpy", "omp_target_memcpy_rect", "omp_target_is_present",
                    "omp_target_associate_ptr", "omp_target_disassociate_ptr", "omp_get_num_devices",
                    "omp_get_default_device", "omp_set_default_device", "omp_get_initial_device",
                    "omp_is_initial_device", "omp_get_device_num")
_RENAME_RE = re.compile(r"\b(" + "|".join(RENAMED_HOST_API) + r")\b")


@dataclass(frozen=True)
class TargetTask:
    """A host `#pragma omp task` around a construct with nowait or depend (OpenMP's
    target task): libgomp provides deferral, dependences and taskwait; the runtime runs
    each task's transfers and kernels on the stream of the host thread that executes it.
    `deferred` is False for depend without nowait (an undeferred task that still waits
    for its dependences). Variables whose address the construct uses are shared; values
    the construct captures (firstprivate scalars, pointer values, section bounds) are
    firstprivate, i.e. taken when the construct is encountered."""

    deferred: bool
    depends: tuple[tuple[str, str], ...]  # (dependence type, items as written)
    shared: tuple[str, ...]
    firstprivate: tuple[str, ...]
    # in_reduction(op: items) of the target construct (OpenMP 5.0): the task joins the
    # enclosing task reduction, so the construct maps the task's own copy of each item
    in_reductions: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class MapEntry:
    base: str
    begin: str
    size: str
    flags: str
    name: str


def generate_host(program: Program, kernel_names: dict[int, str], offload: str, device_globals: tuple[str, ...] = (),
                  kernel_modes: dict[int, str] | None = None, kernel_max_threads: dict[int, int] | None = None,
                  offload_arch: str = "sm_90", kernel_dense: frozenset[int] = frozenset()) -> str:
    pre = program.bound.pre
    text = _host_pragma_lines(_blank_lines(pre.text, program.bound.host_blank_lines), program.bound.imperfect_collapses,
                              offload_arch)
    if offload == "none":
        return text
    line_starts = [0]
    for m in re.finditer("\n", text):
        line_starts.append(m.end())
    kernels = {id(k.construct): k for k in program.kernels}
    spans = []
    for c in program.host_constructs:
        start = line_starts[c.coord.line - 1]
        body_start = line_starts[c.coord.line] if c.coord.line < len(line_starts) else len(text)
        end = body_start if c.body is None else _statement_end(text, body_start, c)
        spans.append((start, end, body_start, c))
    descs, locs = [], []
    link_globals = _link_globals(program)

    def replace(lo: int, hi: int, inner: list) -> str:
        """Text of [lo, hi) with the constructs in `inner` (sorted, non-overlapping at this level) replaced."""
        out, pos = [], lo
        i = 0
        while i < len(inner):
            start, end, body_start, c = inner[i]
            nested = [s for s in inner[i + 1:] if s[0] >= start and s[1] <= end]
            out.append(text[pos:start])
            out.append(construct_text(start, end, body_start, c, nested))
            out.append(_line_marker(pre, text, end, line_starts))
            pos = end
            i += 1 + len(nested)
        out.append(text[pos:hi])
        return "".join(out)

    def construct_text(start, end, body_start, c: OmpConstruct, nested) -> str:
        d = c.directive
        loc_name = f"__ompgpu_loc{len(locs)}"
        locs.append({"name": loc_name, "file": d.coord.file, "line": d.coord.line, "col": d.coord.col, "construct": d.name})
        device = _clause_expr(d, "device") or "OMPGPU_DEVICE_DEFAULT"
        if_cond = _if_expr(d, ("target", "target data", "target enter data", "target exit data", "target update")) or "1"
        if target_kind(d) == "kernel":
            k = kernels[id(c)]
            kname = kernel_names[id(k)]
            descs.append(_kernel_desc(k, kname, offload, (kernel_modes or {}).get(id(k), "generic"),
                                      (kernel_max_threads or {}).get(id(k), 1024), id(k) in kernel_dense))
            teams = k.teams
            num_teams = (_clause_expr(teams, "num_teams") if teams else None) or "0"
            thread_limit = (_clause_expr(teams, "thread_limit") if teams else None) or _clause_expr(d, "thread_limit") or "0"
            # SPMD: the combined region's num_threads is the block size.
            num_threads = _clause_expr(d, "num_threads") if (kernel_modes or {}).get(id(k)) == "spmd" else None
            maps = _kernel_maps(k, link_globals)
            trip = _grid_trip_count(c, program) if (kernel_modes or {}).get(id(k)) == "spmd" else None
            exprs = (device, if_cond, num_teams, thread_limit) + ((num_threads,) if num_threads else ())
            task = _target_task(d, k.env, maps, exprs, _kernel_task_vars(k))
            fallback = _host_fallback(text[start:end], d, in_task=task is not None)
            return render("host_target.j2", kd=f"__ompgpu_kd_{kname}", maps=maps, device=device, if_cond=if_cond,
                          num_teams=num_teams, thread_limit=thread_limit, num_threads=num_threads, task=task, trip=trip,
                          fallback=_line_marker(pre, text, start, line_starts) + fallback)
        env = program.data_envs.get(id(c))
        maps = _data_maps(d, env)
        if d.name == "target data":
            body = replace(body_start, end, nested)
            udp = [item.name for cl in d.clauses_of("use_device_ptr") for item in cl.items]
            uda = []
            for cl in d.clauses_of("use_device_addr"):
                for item in cl.items:
                    sym = env.lookup(item.name) if env is not None else None
                    if item.members:
                        raise UnsupportedError(f"use_device_addr of the struct member '{item.text}' is not supported yet",
                                               item.coord)
                    if sym is not None and not is_pointer(resolve_typedef(sym.type, env)):
                        uda.append(item.name)   # an array or a scalar: its uses name the device's storage
                    elif item.name not in udp:
                        udp.append(item.name)   # a pointer's section: the pointer holds the device address
            if uda:
                body = _refer_to_device(body, {name: f"(*{name}__devaddr)" for name in uda})
            return render("host_data.j2", loc=loc_name, maps=maps, device=device, if_cond=if_cond, body=body,
                          use_device_ptr=udp, use_device_addr=uda)
        fn = {"target enter data": "ompgpu_target_data_begin", "target exit data": "ompgpu_target_data_end",
              "target update": "ompgpu_target_update"}[d.name]
        task = _target_task(d, env, maps, (device, if_cond), _data_task_vars(d, env)) if env is not None else None
        sections = _update_sections(d, env) if d.name == "target update" else []
        return render("host_standalone.j2", fn=fn, loc=loc_name, maps=maps, device=device, if_cond=if_cond, task=task,
                      sections=sections)

    body = replace(0, len(text), sorted(spans, key=lambda s: (s[0], -s[1])))
    body = _rename_host_api(body, pre)
    globals_ = [{"name": g, "link": g in link_globals} for g in device_globals]
    return render("host.c.j2", source=pre.path, descs=descs, locs=locs, body=body, globals=globals_,
                  unified_shared_memory=_requires(program, "unified_shared_memory"))


def _requires(program: Program, clause: str) -> bool:
    """Whether a `#pragma omp requires` of the file has that clause."""
    return any(isinstance(node, OmpConstruct) and node.directive.name == "requires" and node.directive.has(clause)
               for node in program.bound.ast.ext)


def _link_globals(program: Program) -> frozenset[str]:
    """Variables named in `declare target link(...)`."""
    names = set()
    for node in program.bound.ast.ext:
        if isinstance(node, OmpConstruct) and node.directive.name == "declare target":
            for c in node.directive.clauses:
                if c.kind == "link":
                    names.update(item.name for item in c.items)
    return frozenset(names)


# ---------------------------------------------------------------------------
# nowait / depend: target tasks

_IDENT = re.compile(r"(?<!\.)(?<!->)\b[A-Za-z_]\w*")  # names, not members


def _held_by_value(sym, env) -> bool:
    """A pointer, or an array parameter (a pointer too): the task copies its value."""
    if sym is None:
        return False
    t = resolve_typedef(sym.type, env)
    return is_pointer(t) or (sym.is_param and is_array(t))


def _kernel_task_vars(k: Kernel) -> tuple[list[str], list[str]]:
    """(shared, firstprivate) variables of a target region's task: mapped objects by
    address, captured values (firstprivate scalars, pointers) by value."""
    shared, values = [], []
    for cap in k.captures:
        if cap.how in ("literal", "attach") or _held_by_value(cap.sym, k.env):
            values.append(cap.name)
        else:
            shared.append(cap.name)
    for c in k.construct.directive.clauses:
        if c.kind == "map":
            for item in c.items:
                if not item.members and _held_by_value(k.env.lookup(item.name), k.env):
                    values.append(item.name)
                else:
                    shared.append(item.name)
    return shared, values


def _data_task_vars(d, env) -> tuple[list[str], list[str]]:
    shared, values = [], []
    for c in d.clauses:
        if c.kind in ("map", "to", "from"):
            for item in c.items:
                if not item.members and _held_by_value(env.lookup(item.name), env):
                    values.append(item.name)
                else:
                    shared.append(item.name)
    return shared, values


def _target_task(d, env, maps: list[MapEntry], exprs: tuple[str, ...], task_vars) -> TargetTask | None:
    nowait = d.has("nowait")
    depends = tuple((c.dep_type if c.iterators is None else f"iterator({c.iterators.text}), {c.dep_type}",
                     ", ".join(host_item_text(item) for item in c.items)) for c in d.clauses_of("depend"))
    in_reductions = tuple((c.op, ", ".join(item.text for item in c.items)) for c in d.clauses_of("in_reduction"))
    if not nowait and not depends and not in_reductions:
        return None
    reduced = {item.name for c in d.clauses_of("in_reduction") for item in c.items}
    shared, values = task_vars
    shared = [n for n in shared if n not in reduced]
    values = [n for n in values if n not in reduced]
    # Names in section bounds and clause expressions are read when the task runs: take
    # their values at the construct (firstprivate), unless the construct maps them.
    for text in [m.begin for m in maps] + [m.size for m in maps] + list(exprs):
        values += _IDENT.findall(text)
    local = lambda n: (sym := env.lookup(n)) is not None and sym.kind == "var" and not sym.is_global
    shared_out = _unique(n for n in shared if local(n))
    first_out = _unique(n for n in values if local(n) and n not in shared_out and n not in reduced)
    return TargetTask(nowait, depends, tuple(shared_out), tuple(first_out), in_reductions)


def _unique(names) -> list[str]:
    out = []
    for n in names:
        if n not in out:
            out.append(n)
    return out


def _clause_spans(line: str, kinds: tuple[str, ...]) -> list[tuple[int, int, str, str]]:
    """(start, end, kind, argument text) of each clause of those kinds on a pragma line;
    the argument is what is inside the parentheses ('' for `nowait`)."""
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
        elif m.group(1) == "nowait":
            spans.append((m.start(), m.end(), "nowait", ""))
            pos = m.end()
    return spans


# The modifiers and map type before the ':' of a map clause (not a ':' of an array section).
_MAP_PREFIX_RE = re.compile(r"\s*(?:(?:always|close|present|mapper\s*\([^)]*\)|iterator\s*\([^)]*\)|to|from|tofrom|"
                            r"alloc|release|delete)\s*,?\s*)+:(?!:)")


def _host_fallback(construct_text: str, d, in_task: bool) -> str:
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
            # compiler may not know it (gcc 12 rejects it): the fallback's map leaves it out.
            prefix = _MAP_PREFIX_RE.match(arg)  # up to the modifiers' ':', not a section's
            head, items = (arg[:prefix.end() - 1], arg[prefix.end():]) if prefix else ("", arg)
            if re.search(r"\bpresent\b|\bmapper\s*\(", head):
                # mapper(...) (OpenMP 5.0): ompgpu applied the mapper; on the host it says nothing
                head = re.sub(r"\bmapper\s*\([^)]*\)", "", head)
                words = [w for w in re.split(r"[,\s]+", head) if w and w != "present"]
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
# "sorry, unimplemented" for unified_address): left out of the host code.
_REQUIREMENTS_MET_BY_OMPGPU = ("unified_address", "unified_shared_memory")

_PRAGMA_OMP_LINE = re.compile(r"^([ \t]*#[ \t]*pragma[ \t]+)(omp\b.*)$")
_DROPPED_DIRECTIVE = re.compile(r"omp[ \t]+(?:allocate[ \t]*\(|declare[ \t]+mapper\b)")
_BEGIN_DECLARE_TARGET = re.compile(r"omp[ \t]+begin[ \t]+declare[ \t]+target\b")
_REQUIRES = re.compile(r"(omp[ \t]+requires\b)(.*)$")
_METADIRECTIVE = re.compile(r"omp[ \t]+metadirective\b")
_SHAPE_START = re.compile(r"\(\s*\[")


def _blank_lines(text: str, ranges: tuple[tuple[int, int], ...]) -> str:
    """The text with the lines of each (first, last) range emptied; line numbers stay."""
    if not ranges:
        return text
    lines = text.split("\n")
    for first, last in ranges:
        lines[first - 1:last] = [""] * (last - first + 1)
    return "\n".join(lines)


def _host_pragma_lines(text: str, imperfect: tuple[tuple[int, int, int], ...], offload_arch: str) -> str:
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
        new = _host_pragma(m.group(1), m.group(2), offload_arch, collapse_at.get(i + 1))
        if new != line:
            lines[i] = new.ljust(len(line))
    return "\n".join(lines)


def _host_pragma(prefix: str, directive: str, offload_arch: str, collapse: tuple[int, int] | None) -> str:
    """One pragma line (`prefix` is `#pragma `, `directive` starts with `omp`) for the host compiler:

    - `allocate` and `declare mapper` directives blanked: the allocate directive says where
      variables live, which the host program cannot observe beyond alignment; a declare mapper
      has been applied to the map clauses already;
    - `begin declare target [clauses]` (5.1) as the 5.0 `declare target`: its device_type and
      indirect say nothing about the host's copy of the functions;
    - `requires` without the clauses ompgpu meets itself;
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
    if collapse is not None:
        depth, perfect = collapse
        directive = re.sub(r"\bcollapse\s*\(\s*" + str(depth) + r"\s*\)",
                           lambda c: f"collapse({perfect})" if perfect > 1 else "", directive, count=1)
    if _SHAPE_START.search(directive):
        directive = _host_shaping(directive)
    return prefix + directive


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


def host_item_text(item: ListItem) -> str:
    """A depend or affinity list item as C that the host compiler takes. An array shaping
    `([d1]..[dn])p` is the storage of d1 x .. x dn elements from p: `p[0:d1*..*dn]`; with
    sections after it (`([n][m])p[1:2][3]`) the element where the section starts, which is
    what the host runtime orders tasks by (libgomp compares the addresses of depend items)."""
    if not item.shape:
        return item.text
    dims = [f"({e.text})" for e in item.shape]
    if not item.sections:
        return f"{item.name}[0:{'*'.join(dims)}]"
    terms = []
    for k, sec in enumerate(item.sections):
        lower = f"({sec.lower.text})" if sec.lower is not None else "0"
        terms.append("*".join([lower] + dims[k + 1:]))
    return f"{item.name}[{' + '.join(terms)}]"


def _rename_host_api(text: str, pre) -> str:
    out = []
    for line in text.split("\n"):
        if "omp_" in line and not line.lstrip().startswith("#"):
            line = _RENAME_RE.sub(r"ompgpu_\1", line)
        out.append(line)
    return "\n".join(out)


def _line_marker(pre, text: str, offset: int, line_starts: list[int]) -> str:
    """A line marker naming the user's line of the preprocessed text at `offset`."""
    idx = bisect.bisect_right(line_starts, offset) - 1
    if offset > line_starts[idx] and idx + 1 < len(line_starts):
        return ""  # mid-line: the rest of this line continues as is
    if idx >= len(pre.origins):
        return ""
    file, line = pre.origins[idx]
    return f'\n# {line} "{file}"\n'


# ompgpu_host_trip_count's code of each comparison
_LOOP_COMPARISONS = {"<": 0, "<=": 1, ">": 2, ">=": 3, "!=": 4}


def _grid_trip_count(c: OmpConstruct, program: Program) -> str | None:
    """Host C text of the iteration count of an SPMD kernel that is one `target teams
    distribute parallel for` loop nest dealt out over the grid (no num_threads, no
    dist_schedule, no schedule but `static`), when its body is short: no loop and no call of
    a user function (a loop body that long measured faster on the default grid-stride
    launch, bench/results/flat-h100-2026-11-25-geometry.txt), and no reduction: each team ends
    by combining its partial result into the one variable, and a team per 256 iterations made
    that 131,040 contended atomic updates in examples/mpi/jacobi.c (1.97 ms against clang's
    0.36 ms, bench/results/mpi-h100-2026-11-25). The bounds must be free of side effects: the
    host evaluates them once more. None where any of that does not hold."""
    d = c.directive
    if tuple(d.leaves[:5]) != ("target", "teams", "distribute", "parallel", "for") or any(
            d.clause(k) is not None for k in ("num_threads", "dist_schedule", "if", "nowait", "depend", "reduction")):
        return None
    sched = d.clause("schedule")
    if sched is not None and (sched.schedule_kind != "static" or sched.chunk is not None):
        return None
    nest = loop_nest(c.body, collapse_depth(d))
    if not nest or not short_iteration(nest[-1].stmt, program.functions):
        return None
    counts = []
    printer = CPrinter()
    for f in nest:
        parts = canonical_for(f)
        if parts is None:
            return None
        _, lb, ub, step, cmp = parts
        op = _LOOP_COMPARISONS[cmp]
        if any(has_side_effect(e, PURE_LIBRARY) for e in (lb, ub, step)):
            return None
        text = [f"(long long)({printer.visit(e)})" for e in (lb, ub, step)]
        counts.append(f"ompgpu_host_trip_count({text[0]}, {text[1]}, {text[2]}, {op})")
    return " * ".join(counts)


def _clause_expr(d, kind: str) -> str | None:
    if d is None:
        return None
    c = d.clause(kind)
    if c is None or getattr(c, "expr", None) is None:
        return None
    return f"({c.expr.text})"


def _if_expr(d, modifiers: tuple[str, ...]) -> str | None:
    for c in d.clauses_of("if"):
        if c.modifier is None or c.modifier in modifiers:
            return f"({c.expr.text})"
    return None


def _flags(map_type: str, modifiers=(), extra=()) -> str:
    flags = list(MAP_FLAGS.get(map_type, [])) + [MODIFIER_FLAGS[m] for m in modifiers if m in MODIFIER_FLAGS] + list(extra)
    return " | ".join(flags) if flags else "0"


def _path(item: ListItem) -> str:
    """The C expression of the item's object without its sections: `a`, `s.in.p`."""
    return item.name + "".join(f"{acc}{m}" for acc, m in zip(item.accessors or ("." for _ in item.members), item.members))


def _section_entry(item: ListItem, flags: str, is_pointer: bool) -> MapEntry:
    x = _path(item)
    if not item.sections:
        if is_pointer:
            return MapEntry(f"(void *)({x})", f"(void *)({x})", "0", flags, item.text)
        return MapEntry(f"(void *)&({x})", f"(void *)&({x})", f"(long long)sizeof({x})", flags, item.text)
    sec = item.sections[0]
    lo = f"({sec.lower.text})" if sec.lower is not None else "0"
    if not sec.is_range:
        length = "1"
    elif sec.length is not None:
        length = f"({sec.length.text})"
    elif is_pointer:
        raise OmpSyntaxError(f"array section '{item.text}' on a pointer needs a length", item.coord)
    else:
        length = f"((long long)(sizeof({x}) / sizeof(({x})[0])) - {lo})"
    base = f"(void *)({x})" if is_pointer else f"(void *)&({x})"
    return MapEntry(base, f"(void *)&({x})[{lo}]", f"(long long)({length}) * (long long)sizeof(({x})[0])", flags, item.text)


def _attach_entries(item: ListItem, map_type: str, modifiers, attach: bool) -> list[MapEntry]:
    """`s.p[lo:n]` through a pointer member: the pointee section (a pointer-based section),
    then (construct entry only) the attachment of the device copy of `s.p` to it; the
    runtime attaches after every entry of the construct is mapped."""
    section = _section_entry(item, _flags(map_type, modifiers, ["OMPGPU_MAP_PTR"]), True)
    entries = [section]
    if attach:
        entries.append(MapEntry(f"(void *)&({_path(item)})", section.begin, "0", "OMPGPU_MAP_ATTACH", item.text))
    return entries


def _kernel_maps(k: Kernel, link_globals: frozenset[str] = frozenset()) -> list[MapEntry]:
    entries = []
    used = set()
    mods = {}
    for c in k.construct.directive.clauses:
        if c.kind == "map":
            for item in c.items:
                mods[item.name] = c.modifiers
    depend_only = _depend_only_names(k)
    for cap in k.captures:
        used.add(cap.name)
        implicit = ["OMPGPU_MAP_IMPLICIT"] if cap.implicit else []
        if cap.implicit and cap.name in depend_only:
            # Named only in depend(...): a dependence, not a use; nothing is mapped (the
            # kernel parameter is unused and gets the translated address or NULL).
            entries.append(MapEntry(f"(void *)&({cap.name})", f"(void *)&({cap.name})", "0",
                                    _flags("", (), ["OMPGPU_MAP_ATTACH_ONLY", "OMPGPU_MAP_ARG"]), cap.name))
        elif cap.how == "literal":
            entries.append(MapEntry(f"(void *)&({cap.name})", f"(void *)&({cap.name})", "0",
                                    _flags("", (), ["OMPGPU_MAP_LITERAL", "OMPGPU_MAP_ARG", *implicit]), cap.name))
        elif cap.how == "attach":
            entries.append(MapEntry(f"(void *)({cap.name})", f"(void *)({cap.name})", "0",
                                    _flags("", (), ["OMPGPU_MAP_ATTACH_ONLY", "OMPGPU_MAP_ARG", *implicit]), cap.name))
        elif cap.how == "pointer":
            item = cap.item or ListItem(cap.name, (), (), cap.name, k.coord)
            _check_contiguous(item, k.env)
            ptr = is_pointer(resolve_typedef(cap.sym.type, k.env))
            e = _section_entry(item, _flags(cap.map_type, mods.get(cap.name, ()), ["OMPGPU_MAP_PTR", "OMPGPU_MAP_ARG", *implicit]), ptr)
            if not ptr and not item.sections:
                e = MapEntry(f"(void *)({cap.name})", f"(void *)({cap.name})", f"(long long)sizeof({cap.name})", e.flags, e.name)
            elif not ptr:
                e = MapEntry(f"(void *)({cap.name})", e.begin, e.size, e.flags, e.name)
            entries.append(e)
        else:
            entries.append(MapEntry(f"(void *)&({cap.name})", f"(void *)&({cap.name})", f"(long long)sizeof({cap.name})",
                                    _flags(cap.map_type, mods.get(cap.name, ()), ["OMPGPU_MAP_ARG", *implicit]), cap.name))
    # Mapped items the region does not use still move data.
    struct_types: dict[str, str] = {}
    for c in k.construct.directive.clauses:
        if c.kind == "map":
            for item in c.items:
                if item.members and item.name not in used:
                    prior = struct_types.get(item.name)
                    struct_types[item.name] = struct_member_map(item, c.map_type, (prior, item) if prior else None,
                                                                pointer_member_section(item, k.env))
    for c in k.construct.directive.clauses:
        if c.kind == "map":
            for item in c.items:
                if item.name in used:
                    continue
                if item.members:
                    if item.name in struct_types:
                        whole = whole_struct(item)
                        entries.append(_section_entry(whole, _flags(struct_types.pop(item.name), c.modifiers), False))
                    continue
                sym = k.env.lookup(item.name)
                ptr = sym is not None and is_pointer(resolve_typedef(sym.type, k.env))
                entries.append(_section_entry(item, _flags(c.map_type, c.modifiers, ["OMPGPU_MAP_PTR"] if ptr else []), ptr))
    for map_type, item in k.attachments:
        entries += _attach_entries(item, map_type, mods_of(k.construct.directive, item), attach=True)
    # A `declare target link` variable the region uses is mapped tofrom unless a map
    # clause names it (OpenMP 5.1, implicit data-mapping rules).
    mapped = {item.name for c in k.construct.directive.clauses if c.kind == "map" for item in c.items}
    for sym in region_uses(k.construct, k.env).order:
        if sym.is_global and sym.name in link_globals and sym.name not in mapped:
            entries.append(MapEntry(f"(void *)&({sym.name})", f"(void *)&({sym.name})", f"(long long)sizeof({sym.name})",
                                    _flags("tofrom", (), ["OMPGPU_MAP_IMPLICIT"]), sym.name))
    return entries


def _depend_only_names(k: Kernel) -> set[str]:
    """Variables that a target construct names in depend clauses but neither its body nor
    its other clauses use (the analysis counts every clause item as a use)."""
    d = k.construct.directive
    named = {item.name for c in d.clauses_of("depend") for item in c.items}
    if not named:
        return set()
    others = {item.name for c in d.clauses if c.kind != "depend" for item in (getattr(c, "items", ()) or ())}
    for c in d.clauses:
        for attr in ("expr", "chunk"):
            e = getattr(c, attr, None)
            if e is not None and hasattr(e, "text"):
                others.update(_IDENT.findall(e.text))
    body_uses = {sym.name for sym in region_uses(k.construct.body, k.env).order} if k.construct.body is not None else set()
    return named - others - body_uses


def mods_of(d, item: ListItem) -> tuple[str, ...]:
    """The map-type modifiers of the clause that lists `item`."""
    for c in d.clauses:
        if c.kind == "map" and item in c.items:
            return c.modifiers
    return ()


def _data_maps(d, env) -> list[MapEntry]:
    entries, attachments = [], []
    entering = d.name in ("target data", "target enter data")
    for c in d.clauses:
        if c.kind == "map":
            for item in c.items:
                mtype = c.map_type
                if item.members:  # a struct member: the whole struct (see struct_member_map)
                    through_pointer = env is not None and pointer_member_section(item, env)
                    if through_pointer:
                        attachments += _attach_entries(item, c.map_type, c.modifiers, attach=entering)
                    if c.map_type in ("release", "delete", "alloc"):
                        mtype = c.map_type
                    elif through_pointer and not entering:
                        mtype = "alloc"   # exit data: the struct only held the pointer; it is not copied back
                    else:
                        mtype = struct_member_map(item, c.map_type, None, through_pointer)
                    item = whole_struct(item)
                _check_contiguous(item, env)
                entries.append(_section_entry(item, _flags(mtype, c.modifiers), _looks_pointer(item, env)))
        elif c.kind in ("to", "from") and d.name == "target update":
            for item in c.items:
                if _needs_section_update(item):
                    continue  # _update_sections
                if item.shape:
                    item = _shape_as_section(item, env)
                ptr = _looks_pointer(item, env) if not item.members else (env is not None and pointer_member_section(item, env))
                entries.append(_section_entry(item, _flags(c.kind, getattr(c, "modifiers", ())), ptr))
    return entries + attachments


def _needs_section_update(item: ListItem) -> bool:
    """A target update item that may not be contiguous: a stride, or several dimensions
    (also a shaped pointer with sections, `([n][m])p[0:n][1]`)."""
    return len(item.sections) > 1 or any(sec.stride is not None for sec in item.sections) or \
        bool(item.shape and item.sections)


def _check_shaped_pointer(item: ListItem, env) -> None:
    sym = env.lookup(item.name) if env is not None else None
    if sym is not None and not is_pointer(resolve_typedef(sym.type, env)):
        raise OmpSyntaxError(f"array shaping needs a pointer, and '{item.name}' is not one", item.coord)


def _shape_as_section(item: ListItem, env) -> ListItem:
    """A shaped pointer without sections, `([d1]..[dn])p`: the section p[0:d1*..*dn]."""
    _check_shaped_pointer(item, env)
    count = "*".join(f"({e.text})" for e in item.shape)
    sec = Section(CExpr("0", item.coord), CExpr(count, item.shape[0].coord), True, item.coord)
    return ListItem(item.name, (), (sec,), f"{item.name}[0:{count}]", item.coord)


@dataclass(frozen=True)
class SectionUpdate:
    """A target update of a section that may not be contiguous (runtime: ompgpu_target_update_section)."""

    flags: str
    base: str
    elem: str
    dims: tuple[str, ...]
    lower: tuple[str, ...]
    length: tuple[str, ...]
    stride: tuple[str, ...]
    name: str


def _update_sections(d, env) -> list[SectionUpdate]:
    """The items of a target update that go to the runtime one by one as n-dimensional
    sections: a[l0:n0:s0][l1:n1:s1]... of an array (or of a pointer to arrays), whose
    dimensions come from sizeof: dims[k] = sizeof(a[0]..[0], k zeros) / sizeof(one more)."""
    out = []
    for c in d.clauses:
        if c.kind not in ("to", "from"):
            continue
        for item in c.items:
            if not _needs_section_update(item):
                continue
            if item.members:
                raise UnsupportedError(f"target update of '{item.text}': a strided or multi-dimensional section of a "
                                       "struct member is not supported yet", item.coord)
            if item.shape:
                out.append(_shaped_update(item, c.kind, env))
                continue
            x, n = _path(item), len(item.sections)
            sym = env.lookup(item.name) if env is not None else None
            t = resolve_typedef(sym.type, env) if sym is not None else None
            levels = _array_levels(t, env)
            if levels < n:
                raise UnsupportedError(f"target update of '{item.text}': {n} dimensions of sections need an array of "
                                       f"{n} dimensions (or a pointer to arrays of {n - 1})", item.coord)
            zeros = lambda k: x + "[0]" * k  # noqa: E731
            extent = lambda k: f"(long long)(sizeof({zeros(k)}) / sizeof({zeros(k + 1)}))"  # noqa: E731

            def whole(k: int, lo: str) -> str:
                if k == 0 and is_pointer(t):
                    raise OmpSyntaxError(f"array section '{item.text}' on a pointer needs a length", item.coord)
                return f"({extent(k)} - {lo})"

            lower, length, stride = zip(*(_run_bounds(sec, lambda lo, k=k: whole(k, lo))
                                          for k, sec in enumerate(item.sections)))
            dims = tuple("0" if k == 0 else extent(k) for k in range(n))
            out.append(SectionUpdate(_flags(c.kind), f"(void *)({x})", f"(long long)sizeof({zeros(n)})", dims,
                                     lower, length, stride, item.text))
    return out


def _run_bounds(sec: Section | None, whole: Callable[[str], str]) -> tuple[str, str, str]:
    """Lower bound, length and stride (C text) of one dimension of a target update section;
    `whole(lower)` gives the length where the section has none (`a[lo:]`, or no section)."""
    lo = f"({sec.lower.text})" if sec is not None and sec.lower is not None else "0"
    if sec is not None and not sec.is_range:
        length = "1"
    elif sec is not None and sec.length is not None:
        length = f"({sec.length.text})"
    else:
        length = whole(lo)
    return lo, length, f"({sec.stride.text})" if sec is not None and sec.stride is not None else "1"


def _shaped_update(item: ListItem, kind: str, env) -> SectionUpdate:
    """`([d1]..[dn])p[sections]` as an n-dimensional section of the array the shape makes of
    p's elements: dimensions after the sections are whole."""
    _check_shaped_pointer(item, env)
    lower, length, stride = zip(*(_run_bounds(item.sections[k] if k < len(item.sections) else None,
                                              lambda lo, dim=dim: f"((long long)({dim.text}) - {lo})")
                                  for k, dim in enumerate(item.shape)))
    dims = ("0",) + tuple(f"(long long)({dim.text})" for dim in item.shape[1:])
    return SectionUpdate(_flags(kind), f"(void *)({item.name})", f"(long long)sizeof({item.name}[0])", dims,
                         lower, length, stride, item.written)


def _array_levels(t, env) -> int:
    """How many subscripts reach an element: 1 per array dimension, 1 for a pointer, then
    the dimensions of the array it points to."""
    levels = 0
    while t is not None:
        if isinstance(t, c_ast.ArrayDecl) or (levels == 0 and isinstance(t, c_ast.PtrDecl)):
            levels += 1
            t = resolve_typedef(t.type, env)
            continue
        break
    return levels


def _check_contiguous(item: ListItem, env) -> None:
    """A map of a multi-dimensional section must name contiguous storage (OpenMP): every
    dimension after the first whole. Mapping the first dimension's rows whole would copy back
    elements outside the section."""
    if len(item.sections) < 2 or env is None:
        return
    sym = env.lookup(item.name)
    t = resolve_typedef(sym.type, env) if sym is not None and not item.members else None
    dims = []
    while isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
        dims.append(t.dim if isinstance(t, c_ast.ArrayDecl) else None)
        t = resolve_typedef(t.type, env)
    for k, sec in enumerate(item.sections[1:], start=1):
        lower_zero = sec.lower is None or int_constant(sec.lower.text) == 0
        if not sec.is_range or not lower_zero:
            whole = False
        elif sec.length is None:
            whole = True
        else:
            dim = dims[k] if k < len(dims) else None
            dim_text = CPrinter().visit(dim) if dim is not None else None
            whole = dim_text is not None and (sec.length.text.strip() == dim_text or
                                              (int_constant(sec.length.text) is not None and
                                               int_constant(sec.length.text) == int_constant(dim_text)))
        if not whole:
            raise UnsupportedError(f"map of '{item.text}': a section whose dimensions after the first are not whole "
                                   "is not contiguous; map clauses need contiguous storage (target update takes "
                                   "such sections)", sec.coord)


def _looks_pointer(item: ListItem, env=None) -> bool:
    """Whether a section's base is a pointer value. An array decays the same way, except for
    a section without a length (`a[lo:]`, `a[:]`), which takes it from the array's size."""
    if not item.sections:
        return False
    sym = env.lookup(item.name) if env is not None else None
    if sym is not None and not item.members and is_array(resolve_typedef(sym.type, env)):
        return False
    return True


def _kernel_desc(k: Kernel, kname: str, offload: str, mode: str = "generic", max_threads: int = 1024,
                 dense: bool = False) -> dict:
    # the kernel, then (dense) its instance compiled for more resident teams
    names = [kname] + ([f"{kname}__dense"] if dense else [])
    return {"var": f"__ompgpu_kd_{kname}", "name": kname, "file": k.coord.file, "line": k.coord.line, "col": k.coord.col,
            "mode": "OMPGPU_MODE_SPMD" if mode == "spmd" else "OMPGPU_MODE_GENERIC", "max_threads": max_threads,
            "variants": [{"launch": f"__ompgpu_launch_{n}", "occupancy": f"__ompgpu_occupancy_{n}"} for n in names],
            "default_threads": 0,
            # A target region without teams runs as one team.
            "static_teams": 0 if k.teams is not None else 1}


# ---------------------------------------------------------------------------
# Extent of a statement in preprocessed C text

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


def _refer_to_device(text: str, names: dict[str, str]) -> str:
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


def _statement_end(text: str, pos: int, c: OmpConstruct) -> int:
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
