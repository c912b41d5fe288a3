"""Tier 1: which host loops of target regions run as one persistent kernel (plan/persistent_loops.py),
why the others stay as written (-Rpass-missed=ompgpu), where the grid barriers go, which cells the
carry copies over and what the host code hands the runtime. tests/programs/persistent_loops.c
checks the answers in both modes."""
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options

PRELUDE = """#include <math.h>
#include <stdio.h>
double u[1024], w[1024], *p, *q;
int g(int x);
"""


def translated(tmp_path: Path, body: str, mode: str = "auto"):
    src = tmp_path / "loop.c"
    src.write_text(PRELUDE + "int main(int argc, char **argv) {\n  int n = argc * 512, it = 0, flag = 1;\n"
                   "  double err = 1.0;\n" + body + "\n  return it;\n}\n")
    opts = Options()
    opts.mode = mode
    return translate(str(src), opts)


def loop_remarks(t) -> list[str]:
    return [r for r in t.remarks if "host loop" in r]


JACOBI = """#pragma omp target data map(tofrom: u[0:n], w[0:n])
  do {
    err = 0.0;
#pragma omp target teams distribute parallel for reduction(max: err) map(tofrom: err)
    for (int i = 1; i < n - 1; i++) { w[i] = 0.5 * (u[i - 1] + u[i + 1]); err = fmax(err, fabs(w[i] - u[i])); }
#pragma omp target teams distribute parallel for
    for (int i = 1; i < n - 1; i++) u[i] = w[i];
    it++;
  } while (err > 1e-6 && it < 100);"""


@pytest.mark.parametrize("mode", ["auto", "generic"])
def test_a_loop_of_regions_and_scalars_runs_as_one_kernel_in_both_modes(tmp_path, mode):
    t = translated(tmp_path, JACOBI, mode)
    [r] = loop_remarks(t)
    assert "runs as one persistent kernel '__ompgpu_loop_main_l" in r and r.endswith("[-Rpass=ompgpu]")
    assert "2 grid barrier(s) an iteration" in r and "(err, n, it)" in r
    # the regions are device functions that their own kernels and the loop's call
    assert t.device_cu.count("__region(") >= 4 and "ompgpu::grid_barrier(__loop_barrier)" in t.device_cu
    assert "OMPGPU_LAUNCH_COOPERATIVE" in t.device_cu
    # the host calls the runtime first, and runs the loop as written where it declines
    host = t.host_c
    call = host.index("ompgpu_persistent_loop(")
    assert "ompgpu_target_loop(" in host[call:] or "ompgpu_target(" in host[call:]
    assert "err = __ompgpu_loop_scalars.err;" in host and "it = __ompgpu_loop_scalars.it;" in host


def test_the_grid_is_no_larger_than_the_regions_loops(tmp_path):
    host = translated(tmp_path, JACOBI).host_c
    call = host[host.index("ompgpu_persistent_loop("):]
    call = call[:call.index("\n")]
    assert "ompgpu_max_ll(ompgpu_host_trip_count(" in call


def test_flag_updates_and_a_pointer_swap(tmp_path):
    body = """#pragma omp target data map(tofrom: u[0:n], w[0:n]) map(alloc: flag)
  {
    p = u; q = w;
    while (flag) {
      flag = 0;
#pragma omp target update to(flag)
#pragma omp target teams distribute parallel for map(tofrom: flag)
      for (int i = 1; i < n - 1; i++) { q[i] = p[i] * 0.5; if (q[i] > 1e-9) flag = 1; }
#pragma omp target update from(flag)
      double *t = p; p = q; q = t;
      it++;
    }
  }"""
    t = translated(tmp_path, body)
    [r] = loop_remarks(t)
    assert "runs as one persistent kernel" in r and "2 grid barrier(s)" in r
    host = t.host_c
    assert "__ompgpu_loop_pointers[] = { (void *)p, (void *)q }" in host
    assert "p = (__typeof__(p))__ompgpu_loop_pointers[__ompgpu_loop_scalars.p__origin];" in host
    # the flag is written whole by the update first each iteration: nothing to carry where present
    assert "if (!ompgpu::loop_item_present(__loop_present," in t.device_cu


@pytest.mark.parametrize("body, why", [
    ("for (int k = 0; k < 3; k++) {\n#pragma omp target teams distribute parallel for\n"
     "  for (int i = 0; i < n; i++) u[i] += 1;\n  printf(\"%d\\n\", k);\n}", "calls 'printf' on the host"),
    ("for (int k = 0; k < 3; k++) {\n#pragma omp target teams distribute parallel for\n"
     "  for (int i = 0; i < n; i++) u[i] += 1;\n  w[k] = 1;\n}", "uses an array element"),
    ("for (int k = 0; k < 3; k++) {\n#pragma omp target teams distribute parallel for nowait\n"
     "  for (int i = 0; i < n; i++) u[i] += 1;\n}", "has a 'nowait' clause"),
    ("for (int k = 0; k < 3; k++) {\n#pragma omp target parallel for\n"
     "  for (int i = 0; i < n; i++) u[i] += 1;\n}", "has no teams"),
    ("for (int k = 0; k < 3; k++) {\n#pragma omp target teams distribute parallel for\n"
     "  for (int i = 0; i < n; i++) u[i] += 1;\n  it = g(it);\n}", "calls 'g' on the host"),
    ("for (int k = 0; k < 3; k++) {\n#pragma omp target teams distribute parallel for map(tofrom: u[0:k])\n"
     "  for (int i = 0; i < k; i++) u[i] += 1;\n  n = n + 1;\n}", None),
    ("for (int k = 0; k < 3; k++) {\n#pragma omp target teams distribute parallel for map(tofrom: u[0:n])\n"
     "  for (int i = 0; i < n; i++) u[i] += 1;\n  n--;\n}", "whose bounds name 'n', which the loop changes"),
    ("for (int k = 0; k < 3; k++) {\n  p = p + 1;\n#pragma omp target teams distribute parallel for\n"
     "  for (int i = 0; i < n; i++) p[i] += 1;\n}", "computes the pointer 'p'"),
])
def test_loops_left_as_written_say_why(tmp_path, body, why):
    t = translated(tmp_path, body)
    [r] = loop_remarks(t)
    if why is None:   # the bounds name the loop's own counter: fine, the loop runs as one kernel
        assert "runs as one persistent kernel" in r
        return
    assert "runs as written, a kernel launch per region and iteration" in r and why in r, r
    assert r.endswith("[-Rpass-missed=ompgpu]")
    assert "ompgpu_persistent_loop(" not in t.host_c


def test_a_continue_puts_a_barrier_first_in_each_iteration(tmp_path):
    body = """#pragma omp target data map(tofrom: u[0:n])
  for (int k = 0; k < 10; k++) {
    if (k % 2) continue;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) u[i] += k;
  }"""
    t = translated(tmp_path, body)
    [r] = loop_remarks(t)
    # the one at the top, which also parts one iteration's region from the next one's
    assert "1 grid barrier(s) an iteration" in r
    loop = t.device_cu[t.device_cu.index("for (int k = 0; k < 10; k++)"):]
    assert loop.index("ompgpu::grid_barrier(__loop_barrier)") < loop.index("continue")


def test_loops_without_target_regions_say_nothing(tmp_path):
    t = translated(tmp_path, "for (int k = 0; k < 3; k++) it += k;\n#pragma omp target teams distribute parallel for\n"
                             "for (int i = 0; i < n; i++) u[i] = i;")
    assert loop_remarks(t) == []


PACKED = """#pragma omp target data map(tofrom: u[0:n], w[0:n])
  for (int k = 0; k < 4; k++) {
#pragma omp target teams distribute thread_limit(32)
    for (int i = 0; i < n; i++) {
      w[i] += 1.0;
      double s = 0.0;
#pragma omp parallel for reduction(+: s)
      for (int j = 0; j < 64; j++) s += u[(i + j) % n];
      u[i] = s * 0.5;
    }
#pragma omp target teams distribute thread_limit(16)
    for (int i = 0; i < n; i++) {
#pragma omp parallel for
      for (int j = 0; j < 16; j++) w[(i * 16 + j) % n] += BODY;
    }
  }"""


def test_packed_regions_run_in_a_loop_whose_blocks_hold_as_many_teams(tmp_path):
    t = translated(tmp_path, PACKED.replace("BODY", "1.0"))
    [r] = loop_remarks(t)
    assert "runs as one persistent kernel" in r and "blocks of 128 threads (4 or 8 teams to a block)" in r
    # each region's device function takes its league: its own launch's, or every team of the loop's grid
    assert t.device_cu.count("ompgpu::packed_league(4u)") == 1 and t.device_cu.count("ompgpu::packed_league(8u)") == 1
    assert "OMPGPU_LAUNCH_BOUNDS(128) __ompgpu_loop_main_l" in t.device_cu


def test_a_loop_whose_packed_region_runs_a_team_per_block_runs_as_written(tmp_path):
    # omp_get_team_num names the block: that region's kernel is not packed after all
    t = translated(tmp_path, PACKED.replace("BODY", "omp_get_team_num()"))
    [r] = loop_remarks(t)
    assert "runs as written" in r and "runs a team per block, not the packed teams" in r, r
    assert r.endswith("[-Rpass-missed=ompgpu]")
    assert "ompgpu_persistent_loop(" not in t.host_c and "__ompgpu_loop_main" not in t.device_cu
