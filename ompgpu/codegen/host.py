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

from ompgpu.analysis.symbols import is_pointer, resolve_typedef
from ompgpu.codegen.render import render
from ompgpu.errors import OmpSyntaxError, UnsupportedError
from ompgpu.outliner.outline import Kernel, Program, struct_member_map, whole_struct, target_kind
from ompgpu.parser.bind import OmpConstruct
from ompgpu.parser.directives import ListItem

MAP_FLAGS = {"to": ["OMPGPU_MAP_TO"], "from": ["OMPGPU_MAP_FROM"], "tofrom": ["OMPGPU_MAP_TO", "OMPGPU_MAP_FROM"],
             "alloc": [], "release": ["OMPGPU_MAP_RELEASE"], "delete": ["OMPGPU_MAP_DELETE"], "": []}
MODIFIER_FLAGS = {"always": "OMPGPU_MAP_ALWAYS", "present": "OMPGPU_MAP_PRESENT"}
# Host OpenMP device-memory API calls that ompgpu's runtime implements (libgomp has its own).
RENAMED_HOST_API = ("omp_target_alloc", "omp_target_free", "omp_target_memcpy", "omp_target_is_present",
                    "omp_target_associate_ptr", "omp_target_disassociate_ptr", "omp_get_num_devices",
                    "omp_get_default_device", "omp_set_default_device", "omp_get_initial_device",
                    "omp_is_initial_device", "omp_get_device_num")
_RENAME_RE = re.compile(r"\b(" + "|".join(RENAMED_HOST_API) + r")\b")


@dataclass(frozen=True)
class MapEntry:
    base: str
    begin: str
    size: str
    flags: str
    name: str


def generate_host(program: Program, kernel_names: dict[int, str], offload: str, device_globals: tuple[str, ...] = (),
                  kernel_modes: dict[int, str] | None = None, kernel_max_threads: dict[int, int] | None = None) -> str:
    pre = program.bound.pre
    text = pre.text
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
                                      (kernel_max_threads or {}).get(id(k), 1024)))
            teams = k.teams
            spmd = (kernel_modes or {}).get(id(k)) == "spmd"
            return render("host_target.j2", kd=f"__ompgpu_kd_{kname}", maps=_kernel_maps(k), device=device, if_cond=if_cond,
                          num_teams=(_clause_expr(teams, "num_teams") if teams else None) or "0",
                          thread_limit=(_clause_expr(teams, "thread_limit") if teams else None) or _clause_expr(d, "thread_limit") or "0",
                          # SPMD: the combined region's num_threads is the block size.
                          num_threads=_clause_expr(d, "num_threads") if spmd else None,
                          fallback=_line_marker(pre, text, start, line_starts) + text[start:end])
        maps = _data_maps(d)
        if d.name == "target data":
            body = replace(body_start, end, nested)
            udp = [item.name for cl in d.clauses if cl.kind in ("use_device_ptr", "use_device_addr") for item in cl.items]
            return render("host_data.j2", loc=loc_name, maps=maps, device=device, if_cond=if_cond, body=body,
                          use_device_ptr=udp)
        fn = {"target enter data": "ompgpu_target_data_begin", "target exit data": "ompgpu_target_data_end",
              "target update": "ompgpu_target_update"}[d.name]
        # nowait/depend: executed synchronously, an allowed schedule of a deferred task.
        return render("host_standalone.j2", fn=fn, loc=loc_name, maps=maps, device=device, if_cond=if_cond)

    body = replace(0, len(text), sorted(spans, key=lambda s: (s[0], -s[1])))
    body = _rename_host_api(body, pre)
    return render("host.c.j2", source=pre.path, descs=descs, locs=locs, body=body, globals=device_globals)


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


def _section_entry(item: ListItem, flags: str, is_pointer: bool) -> MapEntry:
    x = item.name
    if item.members:
        raise UnsupportedError(f"mapping a struct member ('{item.text}') is not supported yet", item.coord)
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


def _kernel_maps(k: Kernel) -> list[MapEntry]:
    entries = []
    used = set()
    mods = {}
    for c in k.construct.directive.clauses:
        if c.kind == "map":
            for item in c.items:
                mods[item.name] = c.modifiers
    for cap in k.captures:
        used.add(cap.name)
        implicit = ["OMPGPU_MAP_IMPLICIT"] if cap.implicit else []
        if cap.how == "literal":
            entries.append(MapEntry(f"(void *)&({cap.name})", f"(void *)&({cap.name})", "0",
                                    _flags("", (), ["OMPGPU_MAP_LITERAL", "OMPGPU_MAP_ARG", *implicit]), cap.name))
        elif cap.how == "attach":
            entries.append(MapEntry(f"(void *)({cap.name})", f"(void *)({cap.name})", "0",
                                    _flags("", (), ["OMPGPU_MAP_ATTACH_ONLY", "OMPGPU_MAP_ARG", *implicit]), cap.name))
        elif cap.how == "pointer":
            item = cap.item or ListItem(cap.name, (), (), cap.name, k.coord)
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
    for c in k.construct.directive.clauses:
        if c.kind == "map":
            for item in c.items:
                if item.name not in used:
                    sym = k.env.lookup(item.name)
                    ptr = sym is not None and is_pointer(resolve_typedef(sym.type, k.env))
                    entries.append(_section_entry(item, _flags(c.map_type, c.modifiers, ["OMPGPU_MAP_PTR"] if ptr else []), ptr))
    return entries


def _data_maps(d) -> list[MapEntry]:
    entries = []
    for c in d.clauses:
        if c.kind == "map":
            for item in c.items:
                mtype = c.map_type
                if item.members:  # a struct member: the whole struct (see struct_member_map)
                    mtype = struct_member_map(item, c.map_type, None) if c.map_type not in ("release", "delete", "alloc") else c.map_type
                    item = whole_struct(item)
                entries.append(_section_entry(item, _flags(mtype, c.modifiers), _looks_pointer(item)))
        elif c.kind in ("to", "from") and d.name == "target update":
            for item in c.items:
                entries.append(_section_entry(item, _flags(c.kind, getattr(c, "modifiers", ())), _looks_pointer(item)))
    return entries


def _looks_pointer(item: ListItem) -> bool:
    # Without types here, a section's base is taken as the pointer value (array decays the same way).
    return bool(item.sections)


def _kernel_desc(k: Kernel, kname: str, offload: str, mode: str = "generic", max_threads: int = 1024) -> dict:
    return {"var": f"__ompgpu_kd_{kname}", "name": kname, "file": k.coord.file, "line": k.coord.line, "col": k.coord.col,
            "mode": "OMPGPU_MODE_SPMD" if mode == "spmd" else "OMPGPU_MODE_GENERIC", "max_threads": max_threads, "launch": f"__ompgpu_launch_{kname}", "default_threads": 0,
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
