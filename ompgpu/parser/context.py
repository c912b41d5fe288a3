"""Context selectors (OpenMP 5.0/5.1, 7.1): whether device code or host code matches the traits
of a `declare variant` match clause or a `metadirective` when clause, and which variant of a
metadirective applies.

The device's traits: kind gpu, nohost and any; arch nvptx and nvptx64 (clang's names) and the
offload architecture (`sm_90`); isa the offload architecture. The host's: kind host, cpu and
any; arch x86_64. Construct traits (target, teams, parallel, for, simd, dispatch) hold where
the call stands: `context` is the construct set there (OpenMP 5.1, 2.3.1: the directive names of
the constructs that lexically enclose it, outermost first; device code's starts with target).
Implementation traits other than vendor (no vendor name is ompgpu's, so none matches),
properties of construct traits (`simd(simdlen(4))`) and conditions that are not constant are
errors naming them, never a guess.
"""
from __future__ import annotations

import re

from ompgpu.errors import OmpSemanticError, UnsupportedError
from ompgpu.parser.clause_rules import int_constant
from ompgpu.parser.directives import Directive, TraitSelector, WhenClause

__all__ = ["CONSTRUCT_TRAITS", "construct_names", "construct_traits", "device_matches", "host_matches", "select_metadirective",
           "selector_score"]

_DEVICE_KINDS = {"gpu": True, "nohost": True, "any": True, "host": False, "cpu": False, "fpga": False}
_COMPARISON = re.compile(r"^(.+?)\s*(==|!=|<=|>=|<|>)\s*(.+)$")


# The construct traits of OpenMP 5.1 (2.3.2): the leaf constructs a construct set holds.
CONSTRUCT_TRAITS = ("target", "teams", "parallel", "for", "simd", "dispatch")


def construct_traits(traits: tuple[TraitSelector, ...]) -> tuple[TraitSelector, ...]:
    """The construct traits of a selector (those that depend on where a call stands)."""
    return tuple(t for t in traits if t.trait_set == "construct")


def device_matches(traits: tuple[TraitSelector, ...], offload_arch: str,
                   context: tuple[str, ...] = ("target",)) -> bool:
    """Whether ompgpu's device code matches every trait of a context selector, at a place whose
    construct set is `context` (device code's: target, then what encloses the call there)."""
    return _constructs_match(traits, context) and all(
        _trait_matches(t, offload_arch) for t in traits if t.trait_set != "construct")


def construct_names(traits: tuple[TraitSelector, ...]) -> tuple[str, ...]:
    """The names of a selector's construct traits, in order; errors for unknown ones and for
    properties (`simd(simdlen(4))`)."""
    for t in construct_traits(traits):
        if t.name not in CONSTRUCT_TRAITS:
            raise OmpSemanticError(f"unknown construct trait '{t.name}' (expected {', '.join(CONSTRUCT_TRAITS)})",
                                   t.coord)
        if t.properties:
            raise UnsupportedError(f"properties of the construct trait '{t.name}' are not supported yet", t.coord)
    return tuple(t.name for t in construct_traits(traits))


def _constructs_match(traits: tuple[TraitSelector, ...], context: tuple[str, ...]) -> bool:
    """Whether the construct traits, in order, are a subsequence of the construct set."""
    rest = iter(context)
    return all(any(c == name for c in rest) for name in construct_names(traits))


def selector_score(traits: tuple[TraitSelector, ...], context: tuple[str, ...]) -> tuple[int, int]:
    """How specific a matching selector is at a place, for choosing among variants: the number
    of its other traits first, then its construct traits scored as OpenMP 5.1 (2.3.3) does, 2**(p-1)
    for the trait matched at position p of the construct set (inner constructs weigh more)."""
    score, p = 0, 0
    for t in construct_traits(traits):
        while p < len(context) and context[p] != t.name:
            p += 1
        p += 1
        score += 2 ** (p - 1)
    return (len(traits) - len(construct_traits(traits)), score)


def select_metadirective(d: Directive, on_device: bool, offload_arch: str = "sm_90") -> WhenClause | None:
    """The clause of a metadirective whose variant applies here (device code or host code): the
    most specific `when` whose selector matches, else default/otherwise, else None (nothing)."""
    matches = device_matches if on_device else host_matches
    whens = [c for c in d.clauses if isinstance(c, WhenClause) and c.kind == "when"]
    for t in (t for c in whens for t in construct_traits(c.traits)):
        if t.name not in ("target", "dispatch"):
            # (the constructs around a metadirective are not tracked where it is resolved)
            raise UnsupportedError(f"context selector 'construct={{{t.name}}}' in a metadirective is not supported yet "
                                   "(only construct={target})", t.coord)
    matching = [c for c in whens if matches(c.traits, offload_arch)]
    if matching:
        return max(matching, key=lambda c: len(c.traits))
    return next((c for c in d.clauses if isinstance(c, WhenClause) and c.kind != "when"), None)


# The host's traits: the CPU that the host compiler targets.
_HOST_KINDS = {"host": True, "cpu": True, "any": True, "gpu": False, "nohost": False, "fpga": False}
_HOST_ARCHS = ("x86_64", "x86-64", "amd64", "x86")


def host_matches(traits: tuple[TraitSelector, ...], offload_arch: str, context: tuple[str, ...] = ()) -> bool:
    """Whether host code matches every trait (target_device traits name the GPU, offload_arch,
    even there), at a place whose construct set is `context`."""
    return _constructs_match(traits, context) and all(
        _host_trait_matches(t, offload_arch) for t in traits if t.trait_set != "construct")


def _host_trait_matches(t: TraitSelector, offload_arch: str) -> bool:
    if t.trait_set == "target_device":
        return _trait_matches(t, offload_arch)
    props = [p.text.strip().strip('"') for p in t.properties]
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


def _trait_matches(t: TraitSelector, arch: str) -> bool:
    """Whether a trait other than a construct trait holds for the device of `arch` ("" for
    the host's implementation and user traits)."""
    props = [p.text.strip().strip('"') for p in t.properties]
    where = f"{t.trait_set}={{{t.name}}}"
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


