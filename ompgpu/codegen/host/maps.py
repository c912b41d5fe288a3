"""Map entries: the runtime's map arrays of target regions, target data and enter/exit data
(to/from/tofrom/alloc/release/delete, array sections, struct members, attach), and the
section updates of target update (non-contiguous and shaped ones too).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ompgpu.analysis.symbols import is_array, is_pointer, region_uses, resolve_typedef
from ompgpu.errors import OmpSyntaxError, UnsupportedError
from ompgpu.outliner.outline import Kernel, pointer_member_section, struct_member_map, whole_struct
from pycparser import c_ast

from ompgpu.codegen.cprint import CPrinter
from ompgpu.parser.clause_rules import int_constant
from ompgpu.parser.directives import CExpr, ListItem, Section
from ompgpu.codegen.host.source_text import IDENT


MAP_FLAGS = {"to": ["OMPGPU_MAP_TO"], "from": ["OMPGPU_MAP_FROM"], "tofrom": ["OMPGPU_MAP_TO", "OMPGPU_MAP_FROM"],
             "alloc": [], "release": ["OMPGPU_MAP_RELEASE"], "delete": ["OMPGPU_MAP_DELETE"], "": []}


MODIFIER_FLAGS = {"always": "OMPGPU_MAP_ALWAYS", "present": "OMPGPU_MAP_PRESENT"}


@dataclass(frozen=True)
class MapEntry:
    base: str
    begin: str
    size: str
    flags: str
    name: str


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


def kernel_maps(k: Kernel, link_globals: frozenset[str] = frozenset(), host_values: dict[str, str] | None = None) -> list[MapEntry]:
    """The map entries of a kernel launch. `host_values`: captured names that the host code
    does not declare (row lengths of variably modified variables) -> the expression of their
    value, passed as a compound literal."""
    host_values = host_values or {}
    entries = []
    used = set()
    mods = {}
    for c in k.construct.directive.clauses:
        if c.kind == "map":
            for item in c.items:
                mods[item.name] = c.modifiers
    depend_only = _depend_only_names(k)
    # uses_allocators(a(traits)): the runtime makes `a` on the device from the traits array
    trait_allocators = {allocator: traits for c in k.construct.directive.clauses if c.kind == "uses_allocators"
                        for allocator, traits in c.allocators if traits is not None}
    for cap in k.captures:
        used.add(cap.name)
        implicit = ["OMPGPU_MAP_IMPLICIT"] if cap.implicit else []
        if cap.implicit and cap.name in depend_only:
            # Named only in depend(...): a dependence, not a use; nothing is mapped (the
            # kernel parameter is unused and gets the translated address or NULL).
            entries.append(MapEntry(f"(void *)&({cap.name})", f"(void *)&({cap.name})", "0",
                                    _flags("", (), ["OMPGPU_MAP_ATTACH_ONLY", "OMPGPU_MAP_ARG"]), cap.name))
        elif cap.device_address:  # its address is the device's: passed as it is (an array decays to it)
            address = f"({cap.name})" if cap.how == "pointer" else f"&({cap.name})"
            value = f"(void *)&(void *){{ (void *){address} }}"
            entries.append(MapEntry(value, value, "0", _flags("", (), ["OMPGPU_MAP_LITERAL", "OMPGPU_MAP_ARG"]), cap.name))
        elif cap.how == "literal" and cap.name in host_values:
            value = f"(void *)&(long long){{ {host_values[cap.name]} }}"
            entries.append(MapEntry(value, value, "0", _flags("", (), ["OMPGPU_MAP_LITERAL", "OMPGPU_MAP_ARG", *implicit]),
                                    cap.name))
        elif cap.how == "literal" and cap.name in trait_allocators:
            traits = trait_allocators[cap.name]
            entries.append(MapEntry(f"(void *)({traits})", f"(void *)&({cap.name})",
                                    f"(long long)(sizeof({traits}) / sizeof(({traits})[0]))",
                                    _flags("", (), ["OMPGPU_MAP_LITERAL", "OMPGPU_MAP_ALLOCATOR", "OMPGPU_MAP_ARG"]),
                                    cap.name))
        elif cap.how == "literal":
            entries.append(MapEntry(f"(void *)&({cap.name})", f"(void *)&({cap.name})", "0",
                                    _flags("", (), ["OMPGPU_MAP_LITERAL", "OMPGPU_MAP_ARG", *implicit]), cap.name))
        elif cap.how == "private":   # a firstprivate array's device copy for the launch (its bytes now)
            entries.append(MapEntry(f"(void *)({cap.name})", f"(void *)({cap.name})", f"(long long)sizeof({cap.name})",
                                    _flags("", (), ["OMPGPU_MAP_PRIVATE", "OMPGPU_MAP_ARG", *implicit]), cap.name))
        elif cap.how == "attach":
            entries.append(MapEntry(f"(void *)({cap.name})", f"(void *)({cap.name})", "0",
                                    _flags("", (), ["OMPGPU_MAP_ATTACH_ONLY", "OMPGPU_MAP_ARG", *implicit]), cap.name))
        elif cap.how == "pointer":
            item = cap.item or ListItem(cap.name, (), (), cap.name, k.coord)
            _check_contiguous(item, k.env)
            ptr = is_pointer(resolve_typedef(cap.sym.type, k.env))
            e = _section_entry(item, _flags(cap.map_type, mods.get(cap.name, cap.modifiers), ["OMPGPU_MAP_PTR", "OMPGPU_MAP_ARG", *implicit]), ptr)
            if not ptr and not item.sections:
                e = MapEntry(f"(void *)({cap.name})", f"(void *)({cap.name})", f"(long long)sizeof({cap.name})", e.flags, e.name)
            elif not ptr:
                e = MapEntry(f"(void *)({cap.name})", e.begin, e.size, e.flags, e.name)
            entries.append(e)
        else:
            # A pointer in the construct's own map clause goes out translated (where it points into
            # mapped storage) and comes back as the region left it; one mapped by defaultmap(tofrom)
            # is its storage, bit for bit, both ways (tests/programs/defaultmap_forms.c).
            pointer_value = ["OMPGPU_MAP_POINTER_VALUE"] if not cap.implicit and is_pointer(
                resolve_typedef(cap.sym.type, k.env)) else []
            entries.append(MapEntry(f"(void *)&({cap.name})", f"(void *)&({cap.name})", f"(long long)sizeof({cap.name})",
                                    _flags(cap.map_type, mods.get(cap.name, cap.modifiers),
                                           ["OMPGPU_MAP_ARG", *pointer_value, *implicit]), cap.name))
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
                others.update(IDENT.findall(e.text))
    body_uses = {sym.name for sym in region_uses(k.construct.body, k.env).order} if k.construct.body is not None else set()
    return named - others - body_uses


def mods_of(d, item: ListItem) -> tuple[str, ...]:
    """The map-type modifiers of the clause that lists `item`."""
    for c in d.clauses:
        if c.kind == "map" and item in c.items:
            return c.modifiers
    return ()


def data_maps(d, env) -> list[MapEntry]:
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
                    continue  # update_sections
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


def update_sections(d, env) -> list[SectionUpdate]:
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
    dims = _lowered_row_lengths(item.name, env) or dims
    # Leading single subscripts pick one row (`m[dev][0:N]`, `a[2][3:5]`): the section begins at
    # the first range, and only the dimensions after that must be whole.
    first = next((k for k, sec in enumerate(item.sections) if sec.is_range), len(item.sections))
    for k, sec in enumerate(item.sections[first + 1:], start=first + 1):
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
            raise UnsupportedError(f"map of '{item.text}': a section whose dimensions after its first range are not whole "
                                   "is not contiguous; map clauses need contiguous storage (target update takes "
                                   "such sections)", sec.coord)


def _lowered_row_lengths(name: str, env) -> list | None:
    """The dimensions of a variably modified variable that parser/declarators.py made flat
    (`int m[n + 1][N]` is one flat array there): None for the first (a section of it is any
    run of rows), then each row length, from the hidden constant that holds it
    (`__ompgpu_vla_m_1 = N`); None where `name` was not lowered."""
    dims: list = [None]
    while True:
        sym = env.lookup(f"__ompgpu_vla_{name}_{len(dims)}")
        if sym is None or not isinstance(sym.decl, c_ast.Decl) or sym.decl.init is None:
            return dims if len(dims) > 1 else None
        dims.append(sym.decl.init)


def _looks_pointer(item: ListItem, env=None) -> bool:
    """Whether a section's base is a pointer value. An array decays the same way, except for
    a section without a length (`a[lo:]`, `a[:]`), which takes it from the array's size."""
    if not item.sections:
        return False
    sym = env.lookup(item.name) if env is not None else None
    if sym is not None and not item.members and is_array(resolve_typedef(sym.type, env)):
        return False
    return True
