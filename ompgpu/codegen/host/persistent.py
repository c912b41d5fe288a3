"""A host loop run as one persistent kernel (plan/persistent_loops.py): the host's side. The loop
statement becomes a call of the runtime (runtime/host/persistent.cpp) with the loop's items and
its scalars; where the runtime cannot run it so, the loop runs as written (its regions launched
as usual), and else the host's scalars take the values the loop ended with."""
from __future__ import annotations

import re
from ompgpu.codegen.device.persistent import scalar_type
from ompgpu.codegen.host.maps import MapEntry, kernel_maps
from ompgpu.codegen.host.trip_counts import nest_trip_count
from ompgpu.codegen.render import render
from ompgpu.parser.ctokens import Tokens, scan_statement
from ompgpu.plan.persistent_loops import PersistentLoop

_KEYWORD = re.compile(r"\b(for|while|do)\b")


def loop_span(text: str, line_starts: list[int], loop: PersistentLoop) -> tuple[int, int] | None:
    """[start, end) of the loop statement in the host text: from its keyword (at the column the
    parser saw, or the nearest on its line where the line was rewritten) to its end; None where
    it cannot be told (the loop then runs as written: its kernel is never launched)."""
    c = loop.loop.coord
    line_start = line_starts[c.line - 1]
    line_end = text.find("\n", line_start)
    keyword = {"For": "for", "While": "while", "DoWhile": "do"}[type(loop.loop).__name__]
    candidates = [m.start() for m in _KEYWORD.finditer(text, line_start, line_end if line_end >= 0 else len(text))
                  if m.group(1) == keyword]
    if not candidates:
        return None
    start = min(candidates, key=lambda p: abs(p - (line_start + c.column - 1)))
    end = scan_statement(Tokens(text, start))
    return (start, end) if end is not None else None


def loop_entries(loop: PersistentLoop, link_globals: frozenset[str], vla_sizes: dict[str, str]) -> list[MapEntry]:
    """The map entries of the loop's items, in order, then every other entry its regions' map
    clauses have (items the regions do not use: they must be present)."""
    maps = {id(k): kernel_maps(k, link_globals, vla_sizes) for k in loop.kernels}
    entries = []
    for item in loop.items:
        if item.pointer:   # a pointer of the host code: where it points now, translated
            entries.append(MapEntry(f"(void *)({item.name})", f"(void *)({item.name})", "0", "OMPGPU_MAP_PTR", item.name))
        elif item.cell and item.local:   # declared inside the loop: no host storage, never present
            size = f"(long long)sizeof({scalar_type(item.sym, loop.env)})"
            entries.append(MapEntry("(void *)0", "(void *)0", size, "OMPGPU_MAP_LOOP_COPY", item.name))
        elif item.cell:   # a scalar: its device copy where present (its value moves to the loop's cells)
            entries.append(MapEntry(f"(void *)&({item.name})", f"(void *)&({item.name})",
                                    f"(long long)sizeof({item.name})", "OMPGPU_MAP_LOOP_COPY", item.name))
        else:
            entries.append(maps[id(item.kernel)][item.capture])
    for k in loop.kernels:
        entries += maps[id(k)][len(k.captures):]
    return entries


def grid_iterations(loop: PersistentLoop) -> str:
    """Host C text of the most iterations any region of the loop deals out over the grid (0:
    unknown; the runtime then launches all the teams the GPU holds)."""
    if loop.grid_nests is None:
        return "0"
    counts = [nest_trip_count(nest) for nest in loop.grid_nests]
    if any(c is None for c in counts):
        return "0"
    return "ompgpu_max_ll(" * (len(counts) - 1) + counts[0] + "".join(f", {c})" for c in counts[1:])


def loop_text(loop: PersistentLoop, kd: str, entries: list[MapEntry], fallback: str) -> str:
    state = [{"name": s.name, "type": scalar_type(s, loop.env), "written": s.name in loop.written} for s in loop.state]
    pointers = [{"name": p.name, "written": p.name in loop.written} for p, _ in loop.pointers]
    return render("host_loop.j2", loop=loop, kd=kd, maps=entries, state=state, pointers=pointers, fallback=fallback,
                  iterations=grid_iterations(loop))


def loop_desc(loop: PersistentLoop) -> dict:
    """The loop kernel's descriptor (host.c.j2's fields, as codegen/host/program.py's _kernel_desc)."""
    return {"var": f"__ompgpu_kd_{loop.name}", "name": loop.name, "file": loop.coord.file, "line": loop.coord.line,
            "col": loop.coord.col, "mode": "OMPGPU_MODE_SPMD", "max_threads": loop.team_threads,
            "variants": [{"name": loop.name, "launch": f"__ompgpu_launch_{loop.name}",
                          "occupancy": f"__ompgpu_occupancy_{loop.name}"}],
            "default_threads": loop.team_threads, "construct": "host loop of target regions", "scratch_per_team": 0,
            "combine_roles": (), "static_teams": 0, "grid_tiles": 0, "grid_waves": 0}
