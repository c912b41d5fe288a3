"""Tier 1: a search's loop counted in 32 bits where it takes at most 2^31 iterations (issue 34, item
3; codegen/device/worksharing.py _counts_in_32_bits, loop.j2 counter32): one loop of a signed int
or short variable from a non-negative constant, increasing by a positive constant, dealt
cyclically (no schedule clause), whose body is a search (_first_match). Other loops keep 64-bit
counters (counting them all in 32 bits made kmeans slower)."""
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options

PROGRAM = """
float a[1 << 16], b[1 << 16];
int main(void) {
  int n = 1 << 16;
  long m = n;
  unsigned u = n;
  int at[4];
#pragma omp target teams distribute thread_limit(128) map(tofrom: a, b, at)
  for (int j = 0; j < 4; j++) {
    int first = 1 << 30;
#pragma omp parallel for reduction(min: first) CLAUSES
    for (LOOP)
      if (a[i] > b[j] && i < first) first = i;
    at[j] = first;
  }
  return 0;
}
"""


def translated(tmp_path: Path, loop: str, clauses: str = ""):
    src = tmp_path / "p.c"
    src.write_text(PROGRAM.replace("LOOP", loop).replace("CLAUSES", clauses))
    return translate(str(src), Options())


@pytest.mark.parametrize("loop", ["int i = 0; i < n; i++", "int i = 3; i <= n - 1; i += 2", "short i = 0; i < 1000; i++"])
def test_a_signed_loop_from_a_non_negative_constant_counts_in_32_bits(tmp_path, loop):
    cu = translated(tmp_path, loop).device_cu
    assert "const unsigned __end32 = __end < 0x80000000LL ? (unsigned)__end : 0x80000000u;" in cu
    assert "for (unsigned __cg = __first32; __cg < __end32; __cg += 8 * __stride32) {" in cu


@pytest.mark.parametrize("loop, clauses", [
    ("long i = 0; i < m; i++", ""),               # may take more than 2^31 values
    ("unsigned i = 0; i < u; i++", ""),           # likewise
    ("int i = -5; i < n; i++", ""),               # from a negative bound
    ("int i = n - 10; i < n; i++", ""),           # from a bound known at run time only
    ("int i = n; i > 0; i--", ""),                # decreasing (and no search)
    ("int i = 0; i < n; i++", "schedule(static)"),    # blocks, not cycles
])
def test_other_loops_count_in_64_bits(tmp_path, loop, clauses):
    cu = translated(tmp_path, loop, clauses).device_cu
    assert "__first32" not in cu


def test_a_loop_that_is_no_search_counts_in_64_bits(tmp_path):
    src = tmp_path / "p.c"
    src.write_text(PROGRAM.replace("LOOP", "int i = 0; i < n; i++").replace("CLAUSES", "")
                   .replace("if (a[i] > b[j] && i < first) first = i;", "a[i] += b[i] * 2;").replace(" reduction(min: first)", ""))
    assert "__first32" not in translate(str(src), Options()).device_cu
