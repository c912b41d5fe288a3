"""Tier 1: a lean SPMD kernel's distribute loop whose body opens with `if (C) continue;` tests C for
as many iterations as the team has threads at once and runs the first that does not skip
(analysis/skip_guard.py, loop.j2's guard). Which tests may be made ahead, and the code.
tests/programs/skip_guards.c checks the answers in both modes, bodies that change later tests
included."""
from pathlib import Path

from pycparser import c_parser

from ompgpu.analysis.skip_guard import skip_guard
from ompgpu.analysis.symbols import Env, declare
from ompgpu.driver import translate
from ompgpu.options import Options

KERNEL = """int level[4096], first[4097], edges[65536];
volatile int stop;
int bump(int u) { return u + 1; }
int main(void) {
  int *lv = level, depth = 1, limit = 3, changed = 0;
#pragma omp target teams distribute thread_limit(THREADS) map(to: first, edges) map(tofrom: lv[0:4096], changed)
  for (int u = 0; u < 4096; u++) {
    GUARD
    const int a = first[u], b = first[u + 1];
#pragma omp parallel for
    for (int e = a; e < b; e++)
      if (lv[edges[e]] < 0) { lv[edges[e]] = depth + 1; changed = 1; }
    AFTER
  }
  return changed;
}
"""


def _remarks(tmp_path: Path, guard: str, threads: int = 32, after: str = "") -> list[str]:
    src = tmp_path / "k.c"
    src.write_text(KERNEL.replace("THREADS", str(threads)).replace("GUARD", guard).replace("AFTER", after))
    t = translate(str(src), Options(mode="auto"))
    return [r for r in t.remarks if "skip condition" in r], t.device_cu


def test_a_frontier_test_is_made_for_a_warps_iterations_at_once(tmp_path):
    remarks, cu = _remarks(tmp_path, "if (lv[u] != depth) continue;")
    assert len(remarks) == 1 and "the team's 32 threads test the skip condition 'lv[u] != depth'" in remarks[0]
    assert "ompgpu::packed_team_first_taker(__take)" in cu
    assert "__take = !(lv[u] != depth);" in cu
    # the body no longer tests it: the first iteration that does not skip runs, the rest is tested again
    assert "if (lv[u] != depth)" not in cu and "__gb = __iv + 1;" in cu


def test_teams_below_a_warp_ballot_their_own_lanes(tmp_path):
    remarks, cu = _remarks(tmp_path, "if (lv[u] < 0 || u % 3 == limit) { continue; }", threads=16)
    assert len(remarks) == 1 and "16 threads" in remarks[0]
    assert "ompgpu::packed_team_first_taker(__take, 16u)" in cu and "__gb += 16u;" in cu


def test_tests_that_may_not_be_made_ahead(tmp_path):
    for guard in ("if (lv[edges[u]] < 0) continue;",     # a subscript read from memory
                  "if (bump(u) > 7) continue;",            # a call of the program's own function
                  "if (stop) continue;",                   # a volatile object
                  "if (lv[u + limit] < 0) continue;"):     # an address of a name the body assigns (AFTER)
        remarks, _ = _remarks(tmp_path, guard, after="limit = limit + 1;")
        assert remarks == [], guard
    # a test that is not the body's first statement, or that has an else
    assert _remarks(tmp_path, "if (lv[u] < 0) continue; else changed = 2;")[0] == []


def test_teams_of_a_block_meet_in_shared_memory(tmp_path):
    # 128 threads: a team per block; the warps' ballots meet in shared slots
    remarks, cu = _remarks(tmp_path, "if (lv[u] != depth) continue;", threads=128)
    assert len(remarks) == 1 and "the team's 128 threads test" in remarks[0]
    assert "ompgpu::block_team_first_taker(__take, 128u)" in cu and "packed_team_first_taker" not in cu


def test_generic_mode_keeps_the_test_in_the_body(tmp_path):
    src = tmp_path / "k.c"
    src.write_text(KERNEL.replace("THREADS", "32").replace("GUARD", "if (lv[u] != depth) continue;")
                   .replace("AFTER", ""))
    t = translate(str(src), Options(mode="generic"))
    assert not [r for r in t.remarks if "skip condition" in r] and "__take" not in t.device_cu


def test_the_analysis_reads_addresses_and_names():
    parser = c_parser.CParser()
    unit = parser.parse("int a[64]; int *p; const int k = 3; int g; void f(void) { int n; }")
    files = Env()
    for decl in unit.ext[:-1]:
        declare(files, decl)
    env = files.child()   # the kernel's scope: n is its local
    declare(env, unit.ext[-1].body.block_items[0])

    def guard_of(body: str):
        stmt = parser.parse("void h(void) {" + body + "}").ext[0].body
        return skip_guard(stmt, {"i"}, env)

    assert guard_of("if (a[i * 2 + n] > k) continue; a[i] = 1;") is not None
    assert guard_of("if (a[i] > g) continue; a[i] = 1;") is not None      # a value: read when it decides
    assert guard_of("if (a[i + g] > 0) continue; a[i] = 1;") is None      # a global in an address
    assert guard_of("if (p[i] > 0) continue; a[i] = 1;") is None          # a global pointer
    assert guard_of("if (a[i] > 0) continue; n = 2;") is not None          # n is not read by the test
    assert guard_of("if (a[i + n] > 0) continue; n = 2;") is None
    assert guard_of("if (a[i] > 0) continue; int *q = &n;") is not None
    assert guard_of("if (a[i + n] > 0) continue; int *q = &n;") is None    # its address is taken
    assert guard_of("if (a[i]++ > 0) continue; a[i] = 1;") is None
    assert guard_of("if (k / a[i] > 0) continue; a[i] = 1;") is None         # a divisor read from memory
    assert guard_of("if (a[i] / (i + 1) > 0) continue; a[i] = 1;") is not None
    assert guard_of("if (a[i] > 0) continue;") is None                     # nothing after it to run
    # a body that is one if: skipped where its condition fails
    only_if = guard_of("if (a[i] > k) { a[i] = 0; n = 1; }")
    assert only_if is not None and only_if.skips.op == "!" and len(only_if.rest.block_items) == 2
    assert guard_of("if (a[i] > k) a[i] = 0; else a[i] = 1;") is None
