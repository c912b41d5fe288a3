"""Tier 1: a cyclic team loop of a known team (`parallel for` in `teams distribute`) gets a
path with no loop for teams with at least as many threads as iterations (loop.j2 one_round),
where its body may be emitted twice and holds no loop of its own.
tests/programs/one_round_loops.c checks the answers in both modes."""
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options

KERNEL = """int data[64 * 256], out[64];
int main(int argc, char **argv) {
  const int n = argc * 100;   /* a trip count the compiler does not know */
#pragma omp target teams distribute thread_limit(128) map(to: data) map(from: out)
  for (int t = 0; t < 64; t++) {
    int s = 0;
    for (int round = 0; round < 2; round++) {   /* a B-tree's levels: the region's loop is not spread */
#pragma omp parallel for reduction(+: s)
      for (int i = 0; i < n; i++) {
        BODY
      }
    }
    out[t] = s;
  }
  return 0;
}
"""
ONE_ROUND = "if (__end <= __stride) {"


def _device_code(tmp_path: Path, body: str, mode: str = "auto") -> str:
    src = tmp_path / "k.c"
    src.write_text(KERNEL.replace("BODY", body))
    return translate(str(src), Options(mode=mode)).device_cu


@pytest.mark.parametrize("mode", ["auto", "generic"])
def test_a_short_body_gets_the_one_iteration_path(tmp_path, mode):
    cu = _device_code(tmp_path, "if (data[t * 256 + i] < 0) continue; s += data[t * 256 + i];", mode)
    assert cu.count(ONE_ROUND) == 1
    # the path's iteration is the thread's first; the loop stays for longer trip counts
    one = cu[cu.index(ONE_ROUND):]
    assert "const long long __iv = __base + __first;" in one and "} while (0);" in one
    assert "for (long long __c = __first; __c < __end; __c += __stride)" in one


@pytest.mark.parametrize("body", [
    "for (int k = 0; k < 4; k++) s += data[t * 256 + i] + k;",      # a loop of its own: not doubled
    "again: s += data[t * 256 + i]; if (s < 0) { s = 0; goto again; }",   # a label would be defined twice
    "static int calls; s += data[t * 256 + i] + calls;",             # two copies would be two objects
])
def test_bodies_that_may_not_be_doubled_keep_the_loop(tmp_path, body):
    assert ONE_ROUND not in _device_code(tmp_path, body)
