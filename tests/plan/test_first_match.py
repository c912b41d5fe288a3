"""Tier 1: a search written as a min reduction stops each thread after the group of iterations in
which it found its first match (issue 34; codegen/device/worksharing.py _first_match, loop.j2
first_match). Only `if (... && i < v) v = i;` under reduction(min: v) over an increasing loop:
there, a thread's later iterations cannot change v. Run-and-check program:
tests/programs/first_match.c."""
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options

PROGRAM = """
double cdf[4096];
int pick[64];
int g(int k) { static int calls; return calls++ + k; }
#pragma omp declare target to(g)
int main(void) {
  int n = 4096;
#pragma omp target teams distribute thread_limit(128) map(to: cdf) map(from: pick)
  for (int j = 0; j < 64; j++) {
    const double u = j / 64.0;
    int first = n;
#pragma omp parallel for reduction(REDOP: first)
    for (LOOP)
      BODY;
    pick[j] = first;
  }
  return 0;
}
"""


def translated(tmp_path: Path, body: str, op: str = "min", loop: str = "int i = 0; i < n; i++"):
    src = tmp_path / "p.c"
    src.write_text(PROGRAM.replace("BODY", body).replace("REDOP", op).replace("LOOP", loop))
    return translate(str(src), Options())


@pytest.mark.parametrize("body", [
    "if (cdf[i] >= u && i < first) first = i",
    "if (first > i && cdf[i] >= u) first = i",
    "if (i < first) { first = i; }",
    "{ if (cdf[i] > u && cdf[i] < 2 * u && i < first) first = i; }",
])
def test_a_search_stops_at_the_first_match(tmp_path, body):
    t = translated(tmp_path, body)
    assert any("the min reduction 'first' takes the loop variable 'i'" in r for r in t.remarks), t.remarks
    cu = t.device_cu
    assert "for (unsigned __cg = __first32; __cg < __end32; __cg += 8 * __stride32) {" in cu
    # past the end the loop's last iteration again, with no test that would hold the loads back
    assert "const unsigned __c = min(__cg + __g * __stride32, __end32 - 1);" in cu
    assert "if (first != ompgpu_red_identity<std::remove_reference_t<decltype(first)>>(ompgpu::RED_MIN)) break;" in cu


@pytest.mark.parametrize("body, op, loop", [
    ("if (cdf[i] >= u) first = i", "min", "int i = 0; i < n; i++"),                 # the last match, not the first
    ("if (cdf[i] >= u && i < first) first = i", "max", "int i = 0; i < n; i++"),
    ("if (cdf[i] >= u && i < first) first = i", "min", "int i = n - 1; i >= 0; i--"),   # decreasing
    ("if (cdf[i] >= u && i < first) first = i; else first = first", "min", "int i = 0; i < n; i++"),
    ("if (g(i) && i < first) first = i", "min", "int i = 0; i < n; i++"),           # a call may have effects
    ("if (cdf[i] >= u && i < first) first = i + 1", "min", "int i = 0; i < n; i++"),
    ("if (cdf[i] >= u || i < first) first = i", "min", "int i = 0; i < n; i++"),
])
def test_other_loops_run_every_iteration(tmp_path, body, op, loop):
    t = translated(tmp_path, body, op, loop)
    assert not any("takes the loop variable" in r for r in t.remarks), t.remarks
    assert "__cg" not in t.device_cu
