"""Context selectors (OpenMP 5.0/5.1, 7.1): whether device code or host code matches the traits
of a `declare variant` match clause or a `metadirective` when clause, and which variant of a
metadirective applies.

The device's traits: kind gpu, nohost and any; arch nvptx and nvptx64 (clang's names) and the
offload architecture (`sm_90`); isa the offload architecture; construct `target`. The host's:
kind host, cpu and any; arch x86_64. Construct traits other than `target`, implementation
traits other than vendor (no vendor name is ompgpu's, so none matches) and conditions that are
not constant are errors naming them, never a guess.
"""
from __future__ import annotations

import re

from ompgpu.errors import OmpSemanticError, UnsupportedError
from ompgpu.parser.clause_rules import int_constant
from ompgpu.parser.directives import Directive, TraitSelector, WhenClause

__all__ = ["device_matches", "host_matches", "select_metadirective"]

_DEVICE_KINDS = {"gpu": True, "nohost": True, "any": True, "host": False, "cpu": False, "fpga": False}
_COMPARISON = re.compile(r"^(.+?)\s*(==|!=|<=|>=|<|>)\s*(.+)$")


# The construct traits ompgpu knows: `target` (device code) and `dispatch` (the call of a
# dispatch construct, OpenMP 5.1). Others are errors naming them.
_CONSTRUCT_TRAITS = ("target", "dispatch")


def device_matches(traits: tuple[TraitSelector, ...], offload_arch: str, dispatch: bool = False) -> bool:
    """Whether ompgpu's device code matches every trait of a context selector (`dispatch`: at
    the call of a dispatch construct)."""
    constructs = ("target", "dispatch") if dispatch else ("target",)
    return all(_trait_matches(t, offload_arch, constructs) for t in traits)


def select_metadirective(d: Directive, on_device: bool, offload_arch: str = "sm_90") -> WhenClause | None:
    """The clause of a metadirective whose variant applies here (device code or host code): the
    most specific `when` whose selector matches, else default/otherwise, else None (nothing)."""
    matches = device_matches if on_device else host_matches
    whens = [c for c in d.clauses if isinstance(c, WhenClause) and c.kind == "when"]
    matching = [c for c in whens if matches(c.traits, offload_arch)]
    if matching:
        return max(matching, key=lambda c: len(c.traits))
    return next((c for c in d.clauses if isinstance(c, WhenClause) and c.kind != "when"), None)


# The host's traits: the CPU that the host compiler targets.
_HOST_KINDS = {"host": True, "cpu": True, "any": True, "gpu": False, "nohost": False, "fpga": False}
_HOST_ARCHS = ("x86_64", "x86-64", "amd64", "x86")


def host_matches(traits: tuple[TraitSelector, ...], offload_arch: str, dispatch: bool = False) -> bool:
    """Whether host code matches every trait (target_device traits name the GPU, offload_arch,
    even there; `dispatch`: at the call of a dispatch construct)."""
    constructs = ("dispatch",) if dispatch else ()
    return all(_host_trait_matches(t, offload_arch, constructs) for t in traits)


def _host_trait_matches(t: TraitSelector, offload_arch: str, constructs: tuple[str, ...]) -> bool:
    if t.trait_set == "target_device":
        return _trait_matches(t, offload_arch)
    props = [p.text.strip().strip('"') for p in t.properties]
    if t.trait_set == "construct":
        return _trait_matches(t, "", constructs)   # host code: outside every target construct
    if t.trait_set == "device":
        if t.name == "kind":
            return _kind_matches(t, props, _HOST_KINDS)
        if t.name == "arch":
            return all(p in _HOST_ARCHS for p in props)
        if t.name == "isa":
            return False   # no claim about the host CPU's instruction sets
    return _trait_matches(t, "")


def _kind_matches(t: TraitSelector, props: list[str], kinds: dict[str, bool]) -> bool:
    """kind(...) against one side's table of the OpenMP device kinds."""
    unknown = [p for p in props if p not in kinds]
    if unknown:
        raise OmpSemanticError(f"unknown device kind '{unknown[0]}' in '{t.trait_set}={{kind}}' "
                               f"(expected {', '.join(kinds)})", t.coord)
    return all(kinds[p] for p in props)


def _trait_matches(t: TraitSelector, arch: str, constructs: tuple[str, ...] = ("target",)) -> bool:
    props = [p.text.strip().strip('"') for p in t.properties]
    where = f"{t.trait_set}={{{t.name}}}"
    if t.trait_set == "construct":
        if t.name in _CONSTRUCT_TRAITS and not props:
            return t.name in constructs
        raise UnsupportedError(f"context selector '{where}' is not supported yet "
                               "(only construct={target} and construct={dispatch})", t.coord)
    if t.trait_set in ("device", "target_device"):
        if t.name == "kind":
            return _kind_matches(t, props, _DEVICE_KINDS)
        if t.name == "arch":
            return all(p in ("nvptx", "nvptx64", arch) for p in props)
        if t.name == "isa":
            return all(p == arch for p in props)
        if t.name == "device_num" and t.trait_set == "target_device":
            raise UnsupportedError(f"context selector '{where}' is not supported yet", t.coord)
        raise OmpSemanticError(f"unknown trait '{t.name}' in the {t.trait_set} set (expected kind, arch or isa)", t.coord)
    if t.trait_set == "implementation":
        if t.name == "vendor":
            return all(p == "ompgpu" for p in props)
        raise UnsupportedError(f"context selector '{where}' is not supported yet "
                               "(implementation={vendor(...)} only)", t.coord)
    if t.trait_set == "user" and t.name == "condition":
        if len(props) != 1:
            raise OmpSemanticError("user={condition(...)} takes one expression", t.coord)
        value = _constant(t.properties[0].text)
        if value is None:
            raise UnsupportedError(f"user={{condition({t.properties[0].text})}} is not a constant expression; "
                                   "a condition evaluated at run time is not supported yet", t.coord)
        return value != 0
    raise OmpSemanticError(f"unknown trait '{t.name}' in the {t.trait_set} set", t.coord)


def _constant(text: str) -> int | None:
    value = int_constant(text)
    if value is not None:
        return value
    m = _COMPARISON.match(text.strip())
    if m:
        a, b = int_constant(m.group(1)), int_constant(m.group(3))
        if a is not None and b is not None:
            return int({"==": a == b, "!=": a != b, "<=": a <= b, ">=": a >= b, "<": a < b, ">": a > b}[m.group(2)])
    return None


