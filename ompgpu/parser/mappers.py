"""`declare mapper` (OpenMP 5.0): a map of a struct variable whose type has a mapper becomes
the mapper's own map list, with the variable put in for the mapper's one.

    typedef struct { int len; double *data; } vec_t;
    #pragma omp declare mapper(vec_t v) map(v, v.data[0:v.len])
    #pragma omp target map(tofrom: x)          ->  map(tofrom: x, x.data[0:x.len])

The expansion happens when pragmas are bound, so every later pass (the outliner's captures
and attachments, the host's map entries) sees plain map clauses. The map type of each
generated item is the invoking clause's combined with the mapper clause's (OpenMP 5.0,
"map-type decay"): `to` keeps only the mapper's to/tofrom items as `to` and makes the rest
`alloc`, and so on. What is not supported yet is an error naming it: mappers for sections of
struct arrays (per element), for struct members, and in motion clauses (`target update`).
"""
from __future__ import annotations

import dataclasses
import re

from pycparser import c_ast

from ompgpu.errors import OmpSemanticError, UnsupportedError
from ompgpu.parser.directives import Directive, ListItem, MapClause
from ompgpu.parser.pragma import parse_pragma

# invoking map type -> mapper map type -> the generated item's map type
_DECAY = {
    "alloc": {"alloc": "alloc", "to": "alloc", "from": "alloc", "tofrom": "alloc"},
    "to": {"alloc": "alloc", "to": "to", "from": "alloc", "tofrom": "to"},
    "from": {"alloc": "alloc", "to": "alloc", "from": "from", "tofrom": "from"},
    "tofrom": {"alloc": "alloc", "to": "to", "from": "from", "tofrom": "tofrom"},
}
# Constructs whose map clauses use mappers.
_MAPPING_CONSTRUCTS = ("target data", "target enter data", "target exit data", "target update")


def type_key(t: c_ast.Node | None, typedefs: dict[str, c_ast.Node]) -> str | None:
    """The identity of a struct or union value type: 'struct TAG', or 'typedef NAME' for an
    anonymous one named by a typedef; None for any other type."""
    if not isinstance(t, c_ast.TypeDecl):
        return None
    inner = t.type
    if isinstance(inner, (c_ast.Struct, c_ast.Union)):
        return f"{'struct' if isinstance(inner, c_ast.Struct) else 'union'} {inner.name}" if inner.name else None
    if isinstance(inner, c_ast.IdentifierType) and len(inner.names) == 1 and inner.names[0] in typedefs:
        name = inner.names[0]
        return type_key(typedefs[name], typedefs) or f"typedef {name}"
    return None


def element_type_key(t: c_ast.Node | None, typedefs: dict[str, c_ast.Node]) -> str | None:
    """type_key of the elements of an array or pointer type (None otherwise)."""
    if isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
        return type_key(t.type, typedefs) or element_type_key(t.type, typedefs)
    if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) and len(t.type.names) == 1:
        under = typedefs.get(t.type.names[0])
        return element_type_key(under, typedefs) if under is not None else None
    return None


def written_type_key(text: str, typedefs: dict[str, c_ast.Node]) -> str | None:
    """type_key of a type as a declare mapper writes it ('struct vec', 'vec_t')."""
    words = text.split()
    if len(words) == 2 and words[0] in ("struct", "union"):
        return f"{words[0]} {words[1]}"
    if len(words) == 1 and words[0] in typedefs:
        return type_key(typedefs[words[0]], typedefs) or f"typedef {words[0]}"
    return None


@dataclasses.dataclass
class MapperTable:
    """The mappers declared so far: (identifier, type key) -> the declare mapper directive."""

    mappers: dict[tuple[str, str], Directive] = dataclasses.field(default_factory=dict)

    def declare(self, d: Directive, typedefs: dict[str, c_ast.Node]) -> None:
        ident, type_text = d.mapper
        key = written_type_key(type_text, typedefs)
        if key is None:
            raise OmpSemanticError(f"'declare mapper' needs a struct or union type, not '{type_text}'", d.coord)
        if (ident, key) in self.mappers:
            raise OmpSemanticError(f"mapper '{ident}' for '{type_text}' is declared twice", d.coord)
        self.mappers[(ident, key)] = d

    @property
    def default_types(self) -> frozenset[str]:
        return frozenset(key for ident, key in self.mappers if ident == "default")

    def apply(self, d: Directive, var_type) -> Directive:
        """d with each map of a variable whose type has a mapper replaced by the mapper's maps.
        var_type(name) -> (type key of a struct value, type key of struct elements)."""
        if not self.mappers or not (d.leaves[0] == "target" or d.name in _MAPPING_CONSTRUCTS):
            return d
        clauses, changed = [], False
        for c in d.clauses:
            if c.kind in ("to", "from"):  # target update's motion clauses
                for item in c.items:
                    value, elements = var_type(item.name)
                    if self.mappers.get(("default", value or elements or "")) is not None:
                        raise UnsupportedError(f"'target update' of '{item.text}', whose type has a declare mapper, is "
                                               "not supported yet", item.coord)
            if c.kind != "map":
                clauses.append(c)
                continue
            named = next((m[len("mapper("):-1] for m in c.modifiers if m.startswith("mapper(")), None)
            modifiers = tuple(m for m in c.modifiers if not m.startswith("mapper("))
            kept, expanded = [], []
            for item in c.items:
                value, elements = var_type(item.name)
                mapper = self._mapper_for(item, named, value, elements)
                if mapper is None:
                    kept.append(item)
                else:
                    expanded += self._expand(d, c, modifiers, item, mapper)
            if named is None and not expanded:
                clauses.append(c)
                continue
            changed = True
            if kept:
                clauses.append(dataclasses.replace(c, items=tuple(kept), modifiers=modifiers))
            clauses += expanded
        return dataclasses.replace(d, clauses=tuple(clauses)) if changed else d

    def _mapper_for(self, item: ListItem, named: str | None, value: str | None, elements: str | None) -> Directive | None:
        ident = named or "default"
        if item.is_plain and value is not None:
            mapper = self.mappers.get((ident, value))
            if mapper is None and named is not None:
                raise OmpSemanticError(f"no mapper '{named}' is declared for the type of '{item.name}'", item.coord)
            return mapper
        if elements is not None and self.mappers.get((ident, elements)) is not None:
            raise UnsupportedError(f"map of '{item.text}': a declare mapper for each element of an array section is not "
                                   "supported yet", item.coord)
        if item.members and named is not None:
            raise UnsupportedError(f"map of '{item.text}' with mapper '{named}': mappers of struct members are not "
                                   "supported yet", item.coord)
        if named is not None:
            raise OmpSemanticError(f"no mapper '{named}' is declared for the type of '{item.text}'", item.coord)
        return None

    @staticmethod
    def _expand(d: Directive, c: MapClause, modifiers: tuple[str, ...], item: ListItem, mapper: Directive) -> list:
        var = mapper.items[0].name
        out = []
        for mc in mapper.clauses:
            # release and delete (exit data) apply to every item the mapper maps
            kind = _DECAY[c.map_type].get(mc.map_type, mc.map_type) if c.map_type in _DECAY else c.map_type
            texts = [_substitute(i.text, var, item.name) for i in mc.items]
            prefix = ", ".join([*modifiers, kind])
            parsed = parse_pragma(f"omp {d.name} map({prefix}: {', '.join(texts)})", item.coord)
            parsed = dataclasses.replace(parsed, clauses=tuple(pc for pc in parsed.clauses if pc.kind == "map"))
            for pc in parsed.clauses:
                out.append(dataclasses.replace(pc, coord=item.coord,
                                               items=tuple(dataclasses.replace(i, coord=item.coord) for i in pc.items)))
        return out


def _substitute(text: str, var: str, name: str) -> str:
    """text with the identifier var (not a member name after '.' or '->') replaced by name."""
    return re.sub(r"(?<![\w.$])(?<!->)" + re.escape(var) + r"(?![\w$])", name, text)

