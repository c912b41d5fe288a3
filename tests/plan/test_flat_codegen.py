"""Tier 1: the device code of flat loops and team constructs (issue 17): the coalesced loop
mapping, 32-bit loop arithmetic, one division per collapsed level, barriers that another
barrier implies left out (and said so by -Rpass=ompgpu), thread numbers read from threadIdx
where the team is known. Run-and-check programs (tests/programs) check the answers."""
import re
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.errors import UnsupportedError
from ompgpu.options import Options


def device(tmp_path: Path, body: str, mode: str = "auto") -> tuple[str, tuple[str, ...]]:
    src = tmp_path / "k.c"
    src.write_text("#include <omp.h>\nint a[4096], m[64][64];\nint main(int argc, char **argv) {\n  int n = argc * 1000;\n"
                   + body + "\n  return 0;\n}\n")
    t = translate(str(src), Options(mode=mode))
    return t.device_cu, t.remarks


def work_function(cu: str, index: int = 1) -> str:
    """The text of the work function of parallel region `index`."""
    start = cu.index(f"/* parallel region {index} of")
    end = cu.find("/* parallel region", start + 1)
    return cu[start:end if end > 0 else len(cu)]


@pytest.mark.parametrize("schedule", ["", "schedule(static)"])
def test_default_and_static_schedules_deal_the_grid(tmp_path, schedule):
    cu, _ = device(tmp_path, f"""
#pragma omp target teams distribute parallel for {schedule} map(tofrom: a)
  for (int i = 0; i < n; i++) a[i] += i;""")
    body = work_function(cu)
    assert "ompgpu::grid_loop_bounds(" in body
    # one loop per thread: no inner loop over a chunk of one iteration
    assert body.count("for (long long") == 1


def test_explicit_chunks_keep_their_schedule(tmp_path):
    cu, _ = device(tmp_path, """
#pragma omp target teams distribute parallel for schedule(static, 4) map(tofrom: a)
  for (int i = 0; i < n; i++) a[i] += i;""")
    body = work_function(cu)
    assert "grid_loop_bounds" not in body and "known_static_chunk_first(__chunk)" in body


def test_a_32_bit_loop_variable_is_computed_in_32_bits(tmp_path):
    cu, _ = device(tmp_path, """
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 0; i < n; i++) a[i] += i;
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (long i = 0; i < n; i++) a[i] += 1;""")
    assert "int i = (int)((unsigned)__lb0 + (unsigned)(__iv) * (unsigned)__st0);" in work_function(cu, 1)
    assert "long i = (long)(__lb0 + (__iv) * __st0);" in work_function(cu, 2)


def test_collapse_recovers_each_index_with_one_division(tmp_path):
    cu, _ = device(tmp_path, """
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: m)
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++) m[i][j] += i * j;""")
    body = work_function(cu)
    assert "const bool __narrow_nest = __ntotal <= 0xffffffffLL;" in body
    assert body.count("ompgpu_nest_split(") == 1  # the outermost index is what is left
    assert "const long long __idx0 = __q;" in body


def test_the_loop_that_ends_a_region_has_no_barrier_of_its_own(tmp_path):
    cu, remarks = device(tmp_path, """
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp target parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp for
    for (int i = 0; i < n; i++) a[i] *= 2;
  }""")
    assert "known_team_barrier" not in work_function(cu, 1)
    second = work_function(cu, 2)
    assert second.count("known_team_barrier") == 1  # between the loops; the last one ends the region
    removed = sorted(r for r in remarks if "implicit barrier" in r)
    assert len(removed) == 2 and all("[-Rpass=ompgpu]" in r for r in removed)
    assert [re.search(r"k\.c:(\d+):", r).group(1) for r in removed] == ["12", "6"]


def test_a_barrier_under_a_branch_is_the_divergence_safe_one(tmp_path):
    cu, _ = device(tmp_path, """
#pragma omp target parallel map(tofrom: a)
  {
    a[omp_get_thread_num()] = 1;
#pragma omp barrier
    if (n > 5) {
#pragma omp barrier
    }
  }""")
    body = work_function(cu)
    assert body.count("known_team_barrier<true, true>(") == 1 and body.count("known_team_barrier<false, true>(") == 1


def test_master_and_single_read_the_thread_number_from_threadidx(tmp_path):
    for mode in ("auto", "generic"):
        cu, _ = device(tmp_path, """
  int count = 0;
#pragma omp target map(tofrom: count)
#pragma omp parallel num_threads(n)
  {
#pragma omp master
    count++;
#pragma omp single
    count++;
  }""", mode)
        body = work_function(cu)
        assert "omp_get_thread_num()" not in body and "single_begin" not in body
        assert "if (threadIdx.x == (unsigned)(0))" in body and "if (threadIdx.x == 0)" in body


def test_master_in_a_region_that_may_be_serialized_asks_the_runtime(tmp_path):
    cu, _ = device(tmp_path, """
  int count = 0;
#pragma omp target map(tofrom: count)
#pragma omp parallel if(n > 3)
  {
#pragma omp master
    count++;
  }""", "generic")
    assert "omp_get_thread_num() == (0)" in work_function(cu)


def test_copyprivate_on_the_device_is_a_named_error(tmp_path):
    with pytest.raises(UnsupportedError) as e:
        device(tmp_path, """
#pragma omp target parallel map(tofrom: a)
  {
    int v = 0;
#pragma omp single copyprivate(v)
    v = 7;
    a[omp_get_thread_num()] = v;
  }""")
    assert "copyprivate" in str(e.value) and "not supported" in str(e.value)


def host(tmp_path: Path, body: str) -> str:
    src = tmp_path / "h.c"
    src.write_text("#include <omp.h>\nint a[4096];\nint main(int argc, char **argv) {\n  int n = argc * 1000;\n" + body +
                   "\n  return 0;\n}\n")
    return translate(str(src), Options()).host_c


def test_a_short_loop_over_the_grid_is_launched_one_thread_per_iteration(tmp_path):
    text = host(tmp_path, """
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = n - 1; i >= 3; i -= 2) a[i] += i;""")
    assert ("ompgpu_target_loop(" in text and
            "ompgpu_host_trip_count((long long)(n - 1), (long long)(3), (long long)(-((long long) 2)), 3)" in text)


def kernel_desc_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("static const ompgpu_kernel_desc "))


@pytest.mark.parametrize("mode", ["auto", "generic"])
def test_a_loop_with_a_long_body_keeps_the_default_launch(tmp_path, mode):
    # a loop in the body: one wave of teams, over which distribute spreads the iterations, a
    # team's share each (a few long iterations then run on as many SMs: kmeans' 170 sums over
    # 494,020 points took 1.5x longer on the one team their count asks for)
    src = tmp_path / "l.c"
    src.write_text("int a[4096];\nint main(int argc, char **argv) {\n  int n = argc * 1000;\n"
                   "#pragma omp target teams distribute parallel for map(tofrom: a)\n"
                   "  for (int i = 0; i < n; i++) for (int k = 0; k < 4; k++) a[i] += k;\n  return 0;\n}\n")
    text = translate(str(src), Options(mode=mode)).host_c
    assert "ompgpu_target_loop(" not in text and "ompgpu_target(" in text
    assert kernel_desc_line(text).endswith(", 0, 0 };")


def test_a_bound_with_a_side_effect_keeps_the_default_launch(tmp_path):
    # the host may not evaluate the bound once more
    text = host(tmp_path, "\n#pragma omp target teams distribute parallel for map(tofrom: a)\n"
                          "  for (int i = 0; i < n++; i++) a[i] += 1;")
    assert "ompgpu_target_loop(" not in text and "ompgpu_target(" in text


@pytest.mark.parametrize("clause", ["schedule(static, 4)", "dist_schedule(static, 64)", "num_threads(64)", "nowait"])
def test_a_mapping_the_user_chose_keeps_the_default_launch(tmp_path, clause):
    text = host(tmp_path, f"""
#pragma omp target teams distribute parallel for {clause} map(tofrom: a)
  for (int i = 0; i < n; i++) a[i] += 1;""")
    assert "ompgpu_target_loop(" not in text


def test_a_loop_with_a_reduction_takes_one_wave_at_most(tmp_path):
    # Each team combines its partial sum into the one variable at its end: a team per 256
    # iterations made that 131,040 contended updates (examples/mpi/jacobi.c, 5x slower), so one
    # wave at most (grid_waves 1); and a loop of 62 iterations gets one team, not 1,056 whose
    # idle 1,055 each add their identity to the variable.
    text = host(tmp_path, """
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+: s) map(to: a)
  for (int i = 0; i < n; i++) s += a[i];""")
    assert "ompgpu_target_loop(" in text and "ompgpu_host_trip_count((long long)(0), (long long)(n), (long long)(1), 0)" in text
    assert kernel_desc_line(text).endswith(", 0, 1 };")


def test_a_short_loop_takes_the_default_waves(tmp_path):
    text = host(tmp_path, """
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 0; i < n; i++) a[i] += 1;""")
    assert kernel_desc_line(text).endswith(", 0, 0 };")   # grid_waves 0: OMPGPU_GRID_WAVES


def test_a_generic_kernels_loop_takes_one_wave_at_most(tmp_path):
    src = tmp_path / "g.c"
    src.write_text("int a[4096];\nint main(int argc, char **argv) {\n  int n = argc * 1000;\n"
                   "#pragma omp target teams distribute parallel for map(tofrom: a)\n"
                   "  for (int i = 0; i < n; i++) a[i] += 1;\n  return 0;\n}\n")
    text = translate(str(src), Options(mode="generic")).host_c
    assert "ompgpu_target_loop(" in text and "OMPGPU_MODE_GENERIC" in kernel_desc_line(text)
    assert kernel_desc_line(text).endswith(", 0, 1 };")


def test_tiles_walk_blocks_of_consecutive_iterations_on_fewer_threads(tmp_path):
    # a cache-blocked transpose: each iteration is a 32 x 32 tile, rows n apart (footprint.py):
    # 32 rows x 2 lines for each of the two arrays = 128 lines of 128 bytes (its body names a
    # tile variable, so the walk stays as written: analysis/tile_walks.py)
    body = """
  double *x = (double *)0, *y = (double *)0;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: x[0:n*n], y[0:n*n]) SCHED
  for (int it = 0; it < n; it += 32)
    for (int jt = 0; jt < n; jt += 32)
      for (int i = it; i < it + 32; i++)
        for (int j = jt; j < jt + 32; j++) y[(long)j * n + i] += x[(long)i * n + j] * jt;"""
    cu, remarks = device(tmp_path, body.replace("SCHED", ""))
    assert "ompgpu::tile_loop_bounds(__n, blockDim.x, 16384LL," in work_function(cu)
    assert any("tiles of about 16384 bytes" in r for r in remarks)
    # an explicit schedule keeps one chunk per thread of the grid
    cu, _ = device(tmp_path, body.replace("SCHED", "schedule(static)"))
    assert "tile_loop_bounds" not in cu and "grid_loop_bounds" in cu


@pytest.mark.parametrize("collapse", [True, False])
def test_iterations_that_share_lines_with_their_neighbours_keep_one_thread_each(tmp_path, collapse):
    # A matrix product of constant order: each (i, j) reads a row of x and a column of y
    # (about 209 KB of lines), but a warp of neighbouring j shares the row and the columns'
    # lines. Walking them in blocks on about L2 / 209 KB threads ran 123x slower than clang 19.
    nest = ("collapse(2)\n  for (int i = 0; i < 1536; i++)\n    for (int j = 0; j < 1536; j++) {" if collapse else
            "\n  for (int i = 0; i < 1536; i++)\n    for (int j = 0; j < 1536; j++) {")
    cu, remarks = device(tmp_path, f"""
  double *x = (double *)0, *y = (double *)0, *z = (double *)0;
#pragma omp target teams distribute parallel for map(to: x[0:1536*1536], y[0:1536*1536]) map(from: z[0:1536*1536]) {nest}
      double sum = 0;
      for (int k = 0; k < 1536; k++) sum += x[i * 1536 + k] * y[k * 1536 + j];
      z[i * 1536 + j] = sum;
    }}""")
    assert "tile_loop_bounds" not in cu
    assert any("share cache lines with their neighbours" in r for r in remarks)
    if collapse:   # the model's inputs: 96 lines of the row, 1536 of the column, 1 of z; a warp: 96 + 1536 x 2 + 2
        assert any("touch about 209024 bytes of cache lines each, a warp of 32 consecutive ones about 405760 "
                   "together [-Rpass-analysis=ompgpu]" in r for r in remarks), remarks


@pytest.mark.parametrize("inner", [
    "for (int k = 0; k < n; k++) s += a[i * 64 + k % 64];",            # a trip count that is not a constant
    "for (int k = 0; k < 8; k++) s += a[i * 8 + k];",                  # too few inner iterations to be a tile
    "int k = 0; while (k < 1000) s += a[k++ % 4096];",                 # a while loop
])
def test_other_inner_loops_keep_the_grid_mapping(tmp_path, inner):
    cu, _ = device(tmp_path, f"""
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 0; i < n; i++) {{ int s = 0; {inner} a[i] = s; }}""")
    assert "grid_loop_bounds" in work_function(cu) and "tile_loop_bounds" not in cu


@pytest.mark.parametrize("body, batched", [
    ("for (int i = 0; i < 4096; i++) a[i] = a[4095 - i] + 1;", True),
    ("for (int i = 0; i < 64; i++) for (int j = 0; j < 64; j++) m[j][i] = m[i][j];", True),   # collapse(2) below
    ("for (int i = 0; i < 4096; i++) a[i] += 1;", False),                  # not a plain store
    ("for (int i = 0; i < 4096; i++) a[i] = i;", True),
    ("for (int i = 0; i < 4096; i++) a[i++ % 7] = 0;", False),             # a subscript with a side effect
    ("for (int i = 0; i < 4096; i++) a[i] = g(i);", False),                # a call of a user function
    ("for (int i = 0; i < 4096; i++) { int v = a[i]; a[i] = v; }", False),  # two statements
])
def test_a_store_loop_reads_iterations_ahead_of_their_stores(tmp_path, body, batched):
    """A team's loop without a schedule clause whose body is one `lhs = rhs` store: loop.j2 runs
    BATCH_ITERATIONS at a time, their reads before their stores (tests/programs/batched_stores.c)."""
    from ompgpu.codegen.device import BATCH_ITERATIONS
    last = BATCH_ITERATIONS - 1
    collapse = " collapse(2)" if "for (int j" in body else ""
    src = tmp_path / "k.c"
    src.write_text("int a[4096], m[64][64];\nint g(int x) { return x; }\nint main(void) {\n"
                   "#pragma omp target teams num_teams(2) map(tofrom: a, m)\n  {\n"
                   f"#pragma omp parallel for{collapse}\n    {body}\n  }}\n  return 0;\n}}\n")
    body_cu = work_function(translate(str(src), Options()).device_cu)
    assert (f"__cb += {BATCH_ITERATIONS} * __stride" in body_cu) == batched
    if batched:
        assert body_cu.index(f"__bv{last} = ") < body_cu.index("if (__bin0) *__bp0 = __bv0;")


@pytest.mark.parametrize("clause", ["schedule(static, 1)", "schedule(dynamic)", "lastprivate(x)"])
def test_a_loop_whose_schedule_the_user_chose_is_not_batched(tmp_path, clause):
    src = tmp_path / "k.c"
    src.write_text("int a[4096];\nint main(void) {\n  int x = 0;\n#pragma omp target teams num_teams(2) map(tofrom: a, x)\n  {\n"
                   f"#pragma omp parallel for {clause}\n    for (int i = 0; i < 4096; i++) {{ x = i; a[i] = a[4095 - i]; }}\n"
                   f"#pragma omp parallel for {clause}\n    for (int i = 0; i < 4096; i++) a[i] = a[4095 - i];\n  }}\n  return 0;\n}}\n")
    assert "__cb += " not in translate(str(src), Options()).device_cu
