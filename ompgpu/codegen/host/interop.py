"""The interop construct (OpenMP 5.1) in host code, which gcc 12 does not know: each construct
becomes calls of the host runtime on its pragma's line (runtime/host/interop.cpp).

`init(target, targetsync: obj)` makes an interop object for the construct's device (its
device clause, else the default device), `use(obj)` waits for the work queued on the
object's targetsync stream, `destroy(obj)` waits likewise, frees the object and sets obj to
omp_interop_none. A depend clause is a taskwait with those dependences first; nowait changes
nothing (the construct completes at once, which nowait allows). Built without offload, every
object is omp_interop_none: the host has no foreign runtime.
"""
from __future__ import annotations

import re

from pycparser import c_ast

from ompgpu.parser.bind import OmpConstruct
from ompgpu.parser.cfront import walk_nodes
from ompgpu.parser.directives import InteropClause
from ompgpu.codegen.host.pragmas import _clause_spans, pragma_operator

__all__ = ["interop_kinds", "lower_interop", "taskwait_for_depends", "without_offload"]

# The interop routines for a build without offload, where ompgpu's overlay of <omp.h> declared
# them (the host's OpenMP library has none): every object there is omp_interop_none.
_ROUTINES_FOR_NONE = (
    "int omp_get_num_interop_properties(const omp_interop_t o) { (void)o; return 0; }",
    "omp_intptr_t omp_get_interop_int(const omp_interop_t o, omp_interop_property_t p, int *rc) "
    "{ (void)o; (void)p; if (rc) *rc = omp_irc_empty; return 0; }",
    "void *omp_get_interop_ptr(const omp_interop_t o, omp_interop_property_t p, int *rc) "
    "{ (void)o; (void)p; if (rc) *rc = omp_irc_empty; return 0; }",
    "const char *omp_get_interop_str(const omp_interop_t o, omp_interop_property_t p, int *rc) "
    "{ (void)o; (void)p; if (rc) *rc = omp_irc_empty; return 0; }",
    "const char *omp_get_interop_name(const omp_interop_t o, omp_interop_property_t p) "
    "{ static const char *const n[] = {\"fr_id\", \"fr_name\", \"vendor\", \"vendor_name\", \"device_num\", "
    "\"platform\", \"device\", \"device_context\", \"targetsync\"}; (void)o; return p >= -9 && p <= -1 ? n[-p - 1] : 0; }",
    "const char *omp_get_interop_type_desc(const omp_interop_t o, omp_interop_property_t p) "
    "{ (void)o; (void)p; return 0; }",
    "const char *omp_get_interop_rc_desc(const omp_interop_t o, omp_interop_rc_t rc) "
    "{ (void)o; return rc == omp_irc_empty ? \"the interop object is omp_interop_none\" : "
    "rc == omp_irc_success ? \"success\" : \"failure\"; }",
)


# omp_target_is_accessible (5.1), which ompgpu's overlay declares for gcc: without offload every
# device is the host.
_IS_ACCESSIBLE_FOR_NONE = ("int omp_target_is_accessible(const void *p, size_t n, int d) "
                           "{ (void)p; (void)n; return d == omp_get_initial_device(); }")


def without_offload(text: str) -> str:
    """The host code of a build without offload: the OpenMP 5.1 routines that ompgpu's overlay of
    <omp.h> declared and its runtime defines (interop, omp_target_is_accessible), defined (weak,
    after everything) where the program calls them."""
    routines = []
    if "__ompgpu_overlay_declares_interop" in text and "omp_get_interop" in text:
        routines += _ROUTINES_FOR_NONE
    if text.count("omp_target_is_accessible") > 1:   # (one is the overlay's declaration)
        routines.append(_IS_ACCESSIBLE_FOR_NONE)
    if not routines:
        return text
    return text + "\n" + "\n".join("__attribute__((weak)) " + r for r in routines) + "\n"


def interop_kinds(types) -> int:
    """The runtime's kinds word for a list of interop types: 1 target, 2 targetsync."""
    return (1 if "target" in types else 0) | (2 if "targetsync" in types else 0)


def taskwait_for_depends(pragma_line: str) -> str:
    """`_Pragma("omp taskwait depend(...)")` for the depend clauses of a pragma line ("" for none)."""
    depends = [pragma_line[start:end] for start, end, _, _ in _clause_spans(pragma_line, ("depend",))]
    if not depends:
        return ""
    return pragma_operator("omp taskwait " + " ".join(depends))


_INTEROP_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+interop\b", re.M)


def lower_interop(text: str, ast: c_ast.FileAST, offload: str) -> str:
    if not _INTEROP_DIRECTIVE.search(text):   # (a text search: no walk of the AST for most files)
        return text
    constructs = [n for n in walk_nodes(ast) if isinstance(n, OmpConstruct) and n.directive.name == "interop"]
    if not constructs:
        return text
    lines = text.split("\n")
    for c in constructs:
        i = c.coord.line - 1
        d = c.directive
        device = d.clause("device")
        where = f"({device.expr.text})" if device is not None else "OMPGPU_DEVICE_DEFAULT"
        calls = []
        for cl in d.clauses:
            if not isinstance(cl, InteropClause):
                continue
            obj = f"({cl.item.text})"
            if offload == "none":
                if cl.kind in ("init", "destroy"):
                    calls.append(f"{obj} = (omp_interop_t)0;")   # omp_interop_none (a macro)
            elif cl.kind == "init":
                calls.append(f"ompgpu_interop_init(&{obj}, {where}, {interop_kinds(cl.types)});")
            elif cl.kind == "use":
                calls.append(f"ompgpu_interop_use({obj});")
            else:
                calls.append(f"ompgpu_interop_destroy(&{obj});")
        lines[i] = "{ " + " ".join(filter(None, [taskwait_for_depends(lines[i])] + calls)) + " }"
    return "\n".join(lines)
