"""Tier 1: a team's loop counted in 32 bits where it takes at most 2^31 iterations (issue 34, item
3; codegen/device/worksharing.py _counts_in_32_bits, loop.j2 counter32): one loop of a signed int
or short variable from a non-negative constant, increasing by a positive constant, dealt
cyclically (no schedule clause)."""
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
#pragma omp target teams distribute thread_limit(128) map(tofrom: a, b)
  for (int j = 0; j < 4; j++) {
#pragma omp parallel for CLAUSES
    for (LOOP)
      a[i] += b[i] * 2;
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
    assert "for (unsigned __c = __first32; __c < __end32; __c += __stride32) {" in cu


@pytest.mark.parametrize("loop, clauses", [
    ("long i = 0; i < m; i++", ""),               # may take more than 2^31 values
    ("unsigned i = 0; i < u; i++", ""),           # likewise
    ("int i = -5; i < n; i++", ""),               # from a negative bound
    ("int i = n - 10; i < n; i++", ""),           # from a bound known at run time only
    ("int i = n; i > 0; i--", ""),                # decreasing
    ("int i = 0; i < n; i++", "schedule(static)"),    # blocks, not cycles
])
def test_other_loops_count_in_64_bits(tmp_path, loop, clauses):
    cu = translated(tmp_path, loop, clauses).device_cu
    assert "__first32" not in cu
