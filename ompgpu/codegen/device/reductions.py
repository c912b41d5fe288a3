"""Reductions (scalars, arrays, array sections) and inscan reductions (scan loops)."""
from __future__ import annotations

from pycparser import c_ast

from ompgpu.analysis.symbols import is_array, is_pointer, resolve_typedef, walk_nodes
from ompgpu.errors import OmpSemanticError, UnsupportedError
from ompgpu.parser.bind import OmpConstruct, loop_nest
from ompgpu.parser.directives import Directive
from ompgpu.parser.clause_rules import int_constant
from ompgpu.codegen.device.cdecl import cxx_name, type_string


RED_OPS = {"+": "RED_ADD", "-": "RED_ADD", "*": "RED_MUL", "min": "RED_MIN", "max": "RED_MAX", "&": "RED_BAND",
           "|": "RED_BOR", "^": "RED_BXOR", "&&": "RED_LAND", "||": "RED_LOR"}


def reduction_items(em, d: Directive, kinds: tuple[str, ...] = ("reduction",)) -> list[dict]:
    """What reduction_scope.j2 needs for each item of d's reduction clauses (of `kinds`): a
    scalar, a whole array (any rank), or a one-dimensional array section `a[lo:len]`."""
    out = []
    for c in d.clauses:
        if c.kind not in kinds or c.modifier == "inscan":  # inscan: the scan loop's own (scan_loop)
            continue
        for item in c.items:
            name = cxx_name(item.name)
            entry = {"op": RED_OPS[c.op], "name": name, "kind": "scalar", "allreduce": False, "item": 0}
            sym = em.declared_symbol(item.name)
            entry["decl"] = id(sym.decl) if sym is not None and sym.decl is not None else None
            t = resolve_typedef(sym.type, em.env) if sym is not None else None
            if item.members:
                raise UnsupportedError(f"reduction over the struct member '{item.text}' is not supported yet", item.coord)
            if not item.sections:
                if t is not None and is_array(t):
                    entry.update(kind="array", private_decl=type_string(sym.type, name + "__priv"),
                                 private_type=type_string(sym.type))
                out.append(entry)
                continue
            if len(item.sections) > 1 or not item.sections[0].is_range:
                raise UnsupportedError(f"reduction over '{item.text}' is not supported yet (only whole arrays and "
                                       "one-dimensional array sections a[lower:length])", item.coord)
            sec = item.sections[0]
            lower = sec.lower.text if sec.lower is not None else "0"
            if sec.length is not None:
                length = sec.length.text
            elif t is not None and isinstance(t, c_ast.ArrayDecl) and t.dim is not None:
                length = f"({em.visit(t.dim)}) - ({lower})"
            else:
                raise OmpSemanticError(f"the array section '{item.text}' needs a length (its array's size is not known)",
                                       item.coord)
            entry.update(kind="section", lower=lower, length=length, constant_length=int_constant(length))
            out.append(entry)
    return out


def scan_loop(em, n: OmpConstruct, d: Directive, kind: str, chunk: str | None, range_from) -> str:
    """A worksharing loop with inscan reductions (scan.j2): its body is split at its
    `#pragma omp scan` into the input phase and the scan phase, each run over every
    iteration by a loop of its own."""
    # A scan loop is two worksharing loops, and worksharing.py hands inscan loops to this
    # function: the import is at call time, so the modules load in one order.
    from ompgpu.codegen.device import worksharing

    scans, names = [], []
    for c in d.clauses:
        if c.kind == "reduction" and c.modifier == "inscan":
            for item in c.items:
                sym = em.declared_symbol(item.name)
                t = resolve_typedef(sym.type, em.env) if sym is not None else None
                if item.members or item.sections or t is None or is_array(t) or is_pointer(t):
                    raise UnsupportedError(f"an inscan reduction of '{item.text}' in device code is not supported "
                                           "yet (only scalar variables)", item.coord)
                scans.append({"name": cxx_name(item.name), "op": RED_OPS[c.op]})
                names.append(item.name)
        elif c.kind in ("reduction", "lastprivate", "linear"):
            raise UnsupportedError(f"'{c.kind}' next to an inscan reduction in device code is not supported yet",
                                   c.coord)
    if range_from is not None or "distribute" in d.leaves:
        raise UnsupportedError(f"an inscan reduction on '#pragma omp {d.name}' in device code is not supported yet "
                               "(only on loops of one team: for, parallel for, for simd, simd)", d.coord)
    if d.has("nowait"):
        raise UnsupportedError("an inscan reduction with 'nowait' in device code is not supported yet", d.coord)
    loops = worksharing.analyze_loops(em, d, n.body)
    inner = loop_nest(n.body, len(loops))[-1].stmt
    items = (inner.block_items or []) if isinstance(inner, c_ast.Compound) else []
    at = [k for k, s in enumerate(items) if isinstance(s, OmpConstruct) and s.directive.name == "scan"]
    if len(at) != 1:
        raise OmpSemanticError("a loop with an inscan reduction must have exactly one '#pragma omp scan' directly "
                               "in its body", d.coord)
    scan = items[at[0]].directive
    clause = scan.clauses[0]
    if sorted(item.name for item in clause.items) != sorted(names):
        raise OmpSemanticError("the list of '#pragma omp scan' must be the loop's inscan reduction items", clause.coord)
    before, after = items[:at[0]], items[at[0] + 1:]
    declared = {s.name for s in before if isinstance(s, c_ast.Decl) and s.name}
    used_after = {node.name for s in after for node in walk_nodes(s) if isinstance(node, c_ast.ID)}
    if declared & used_after:
        raise UnsupportedError(f"'{sorted(declared & used_after)[0]}', declared before '#pragma omp scan', is used after "
                               "it: not supported yet in device code", scan.coord)
    input_part, scan_part = (before, after) if clause.kind == "inclusive" else (after, before)
    inclusive = clause.kind == "inclusive"

    def input_phase(text: str) -> str:
        fresh = "".join(f"{s['name']}__t {s['name']} = ompgpu_red_identity<{s['name']}__t>(ompgpu::{s['op']});\n"
                        for s in scans)
        store = "".join(f"{s['name']}__scan[__iv] = {s['name']};\n" for s in scans)
        return "{\n" + fresh + text + store + "}\n"

    def scan_phase(text: str) -> str:
        prefix = "".join(
            f"const {s['name']}__t {s['name']} = " +
            (f"{s['name']}__scan[__iv];\n" if inclusive
             else f"__iv == 0 ? {s['name']}__initial : {s['name']}__scan[__iv - 1];\n") for s in scans)
        return "{\n" + prefix + text + "}\n"

    def phase_loop(part, wrap) -> str:
        return worksharing.loop_code(em, d, n.body, kind, chunk, None, [], False, barrier=True,
                               phase=(c_ast.Compound(list(part), coord=inner.coord), wrap))

    return em.render_with_ids("scan.j2", scans=scans, trip_count=" * ".join(l.trip_count for l in loops), input_loop=phase_loop(input_part, input_phase),
                  scan_loop=phase_loop(scan_part, scan_phase), team_size=em.team_size, aligned=em.aligned(),
                  whole_block=em.whole_block)
