"""Tier 1: construct selectors of declare variant (parser/context.py): which construct sets a
selector matches (OpenMP 5.1's ordered subsequence), how matching selectors are scored, and the
errors for what is not supported. tests/programs/construct_variants.c checks whole programs."""
import pytest

from ompgpu.errors import OmpSemanticError, SourceCoord, UnsupportedError
from ompgpu.parser import parse_pragma
from ompgpu.parser.context import device_matches, host_matches, select_metadirective, selector_score


def traits(selector: str):
    d = parse_pragma(f"omp declare variant(v) match({selector})", SourceCoord("t.c", 1, 1))
    return d.clause("match").traits


@pytest.mark.parametrize("selector, context, host, device", [
    ("construct={parallel}", ("parallel",), True, True),
    ("construct={parallel}", (), False, False),
    ("construct={target}", ("target",), True, True),
    ("construct={target}", (), False, True),           # device code's construct set starts with target
    ("construct={teams, parallel}", ("teams", "parallel", "for"), True, True),
    ("construct={parallel, teams}", ("teams", "parallel"), False, False),   # order matters
    ("construct={parallel}, device={kind(gpu)}", ("parallel",), False, True),
    ("construct={parallel}, device={kind(host)}", ("parallel",), True, False),
])
def test_construct_sets(selector, context, host, device):
    t = traits(selector)
    assert host_matches(t, "sm_90", context) is host
    device_context = context if "target" in context else ("target",) + context
    assert device_matches(t, "sm_90", device_context) is device


def test_inner_constructs_score_higher():
    context = ("target", "parallel")
    target, parallel = traits("construct={target}"), traits("construct={parallel}")
    assert selector_score(parallel, context) > selector_score(target, context)
    # traits of other sets count before construct positions
    assert selector_score(traits("construct={target}, device={kind(gpu)}"), context) > selector_score(parallel, context)


def test_construct_trait_properties_and_unknown_traits_are_errors():
    with pytest.raises(UnsupportedError, match="properties of the construct trait 'simd'"):
        host_matches(traits("construct={simd(simdlen(4))}"), "sm_90", ("simd",))
    with pytest.raises(OmpSemanticError, match="unknown construct trait 'single'"):
        host_matches(traits("construct={single}"), "sm_90", ())


def test_metadirectives_keep_construct_parallel_an_error():
    d = parse_pragma("omp metadirective when(construct={parallel}: atomic) default(critical)", SourceCoord("t.c", 1, 1))
    with pytest.raises(UnsupportedError, match="in a metadirective is not supported yet"):
        select_metadirective(d, on_device=False)
