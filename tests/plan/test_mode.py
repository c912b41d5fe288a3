"""Golden tests of the execution-mode planner (ompgpu/plan/mode.py): which kernels run SPMD
(lean: no runtime state at all), which keep team state, and which stay generic and why,
including kernels that look flat but are not."""
from pathlib import Path

import pytest

from ompgpu.options import Options
from ompgpu.driver import translate
from ompgpu.errors import UnsupportedError
from ompgpu.outliner.outline import outline
from ompgpu.parser.bind import bind_pragmas
from ompgpu.parser.cfront import parse_c, preprocess
from ompgpu.plan.mode import plan_kernels

PRELUDE = """#include <math.h>
#include <omp.h>
#define N 256
double a[N], b[N], m[N][N];
int hist[16];
static double twice(double x) { return 2 * x; }
static int whoami(void) { return omp_get_thread_num(); }
static double via(double x) { return twice(x) + whoami(); }
static int clampi(int v, int hi) { int o = v; if (o > hi) o = hi; return o; }
static int bump(int *p) { return ++*p; }
void opaque(double *p);
int main(void) {
  double s = 0; int n = N; double *p = a; int flag = 1;
"""
PRELUDE_LINES = PRELUDE.count("\n")


def plans(tmp_path: Path, body: str, mode: str = "auto"):
    src = tmp_path / "k.c"
    src.write_text(PRELUDE + body + "\n  return (int)s + flag;\n}\n")
    program = outline(bind_pragmas(parse_c(preprocess(str(src), "gcc", (), False))))
    return [plan_kernels(program, mode)[id(k)] for k in program.kernels]


# (name, kernel source, expected kind, substring of the reason, line of the reason within the body)
#   kind: "lean" = SPMD without runtime state, "spmd" = SPMD with team state, "generic"
CASES = [
    ("tdpf", """
#pragma omp target teams distribute parallel for map(to: a) map(from: b)
  for (int i = 0; i < N; i++) b[i] = a[i] + 1;""", "lean", None, None),
    ("tdpf_reduction", """
#pragma omp target teams distribute parallel for map(to: a) reduction(+: s)
  for (int i = 0; i < N; i++) s += a[i];""", "lean", None, None),
    ("tdpf_collapse", """
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: m)
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) m[i][j] *= 2;""", "lean", None, None),
    ("target_parallel_for", """
#pragma omp target parallel for map(tofrom: a)
  for (int i = 0; i < N; i++) a[i] = sqrt(a[i]);""", "lean", None, None),
    ("teams_loop", """
#pragma omp target teams loop map(tofrom: a)
  for (int i = 0; i < N; i++) a[i] += 1;""", "lean", None, None),
    ("num_threads_on_combined", """
#pragma omp target parallel for num_threads(64) map(tofrom: a)
  for (int i = 0; i < N; i++) a[i] += 1;""", "lean", None, None),
    ("static_chunk", """
#pragma omp target teams distribute parallel for schedule(static, 4) map(tofrom: a)
  for (int i = 0; i < N; i++) a[i] += 1;""", "lean", None, None),
    ("pure_serial_locals", """
#pragma omp target teams distribute map(tofrom: m)
  for (int i = 0; i < N; i++) {
    int row = i * 2;
    double w = sqrt((double)row) + 1.0;
#pragma omp parallel for
    for (int j = 0; j < N; j++) m[i][j] *= w;
  }""", "lean", None, None),
    ("two_regions_serial_loop", """
#pragma omp target teams map(tofrom: a, b)
  for (int it = 0; it < 3; it++) {
#pragma omp parallel for
    for (int j = 0; j < N; j++) a[j] += b[j];
#pragma omp parallel for
    for (int j = 0; j < N; j++) b[j] = a[j] * 0.5;
  }""", "lean", None, None),
    ("dynamic_needs_state", """
#pragma omp target teams distribute parallel for schedule(dynamic, 2) map(tofrom: a)
  for (int i = 0; i < N; i++) a[i] += 1;""", "spmd", "schedule(dynamic)", 1),
    ("api_in_region_needs_state", """
#pragma omp target parallel map(tofrom: hist)
  {
    hist[omp_get_thread_num() % 16] += 0;
  }""", "spmd", "call to 'omp_get_thread_num'", 3),
    ("barrier_single_master_in_the_team_stay_lean", """
#pragma omp target parallel map(tofrom: a)
  {
    a[0] = 1;
#pragma omp barrier
#pragma omp single
    a[1] = 2;
#pragma omp master
    a[2] = 3;
  }""", "lean", None, None),
    ("barrier_in_a_nested_region_needs_state", """
#pragma omp target parallel map(tofrom: a)
  {
#pragma omp parallel
    {
#pragma omp barrier
    }
  }""", "spmd", "'#pragma omp parallel' inside the parallel region", 3),
    ("stateless_device_function_stays_lean", """
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 0; i < N; i++) a[i] = twice(a[i]);""", "lean", None, None),
    ("device_function_needs_state", """
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 0; i < N; i++) a[i] = via(a[i]);""", "spmd", "call to 'via'", 2),
    ("external_function_needs_state", """
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 0; i < N; i++) opaque(&a[i]);""", "spmd", "call to 'opaque'", 2),
    ("nested_parallel_needs_state", """
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 0; i < N; i++) {
#pragma omp parallel for
    for (int k = 0; k < 4; k++) a[i] += k;
  }""", "spmd", "'#pragma omp parallel for' inside", 3),
    ("serial_write_to_memory", """
#pragma omp target teams distribute map(tofrom: a, m)
  for (int i = 0; i < N; i++) {
#pragma omp parallel for
    for (int j = 0; j < N; j++) m[i][j] += 1;
    a[i] = 0;
  }""", "lean", None, None),  # a guarded statement: thread 0 writes, then a team barrier
    ("api_call_between_regions", """
#pragma omp target teams map(tofrom: a)
  {
    int t = omp_get_max_threads();
#pragma omp parallel for
    for (int j = 0; j < N; j++) a[j] += t;
  }""", "generic", "call to 'omp_get_max_threads' outside", 3),
    ("team_number_between_regions", """
#pragma omp target teams map(tofrom: a)
  {
    int t = omp_get_team_num();
#pragma omp parallel for
    for (int j = 0; j < N; j++) a[j] += t;
  }""", "lean", None, None),
    ("wtime_timing_guarded", """
#pragma omp target thread_limit(64) map(tofrom: a, b)
  {
    double t0 = omp_get_wtime();
    for (int r = 0; r < 4; r++) {
#pragma omp parallel
      a[0] += 0;
    }
    b[0] = omp_get_wtime() - t0;
  }""", "lean", None, None),
    ("wtime_value_used_in_region", """
#pragma omp target map(tofrom: a)
  {
    double t0 = omp_get_wtime();
#pragma omp parallel for
    for (int j = 0; j < N; j++) a[j] = t0;
  }""", "generic", "differs between threads", 4),
    ("wtime_value_in_condition", """
#pragma omp target map(tofrom: a)
  {
    double t0 = omp_get_wtime();
    while (omp_get_wtime() - t0 < 1e-6) {
#pragma omp parallel for
      for (int j = 0; j < N; j++) a[j] += 1;
    }
  }""", "generic", "differs between threads", 4),
    ("unknown_function_call", """
#pragma omp target teams map(tofrom: a)
  {
    opaque(a);
#pragma omp parallel for
    for (int j = 0; j < N; j++) a[j] += 1;
  }""", "generic", "call to 'opaque'", 3),
    ("user_function_between_regions", """
#pragma omp target teams distribute map(tofrom: a)
  for (int i = 0; i < N; i++) {
    double w = via(1.0);
#pragma omp parallel for
    for (int j = 0; j < N; j++) a[j] += w;
  }""", "generic", "call to 'via'", 3),
    ("shared_reduction_variable", """
#pragma omp target teams distribute map(tofrom: m, b)
  for (int i = 0; i < N; i++) {
    double t = 0;
#pragma omp parallel for reduction(+: t)
    for (int j = 0; j < N; j++) t += m[i][j];
    b[i] = t;
  }""", "lean", None, None),
    ("shared_local_array", """
#pragma omp target teams distribute map(tofrom: m)
  for (int i = 0; i < N; i++) {
    double tile[8];
#pragma omp parallel for
    for (int j = 0; j < 8; j++) tile[j] = m[i][j];
  }""", "lean", None, None),
    ("shared_local_struct", """
#pragma omp target teams distribute map(tofrom: m)
  for (int i = 0; i < N; i++) {
    struct { double lo, hi; } range = {0, 0};
#pragma omp parallel for
    for (int j = 0; j < 8; j++) if (j == 0) range.lo = m[i][j];
  }""", "generic", "shares 'range'", 4),
    ("shared_kernel_parameter", """
#pragma omp target teams map(tofrom: a)
  {
#pragma omp parallel
    { if (omp_get_thread_num() == 0) n = 3; }
  }""", "generic", "shares 'n'", 3),
    ("pure_function_in_serial_code", """
#pragma omp target teams distribute map(tofrom: m)
  for (int i = 0; i < N; i++) {
    int k = clampi(i, 8);
#pragma omp parallel for
    for (int j = 0; j < N; j++) m[i][j] += k;
  }""", "lean", None, None),
    ("impure_function_in_serial_code", """
  int counter = 0;
#pragma omp target teams distribute map(tofrom: m, counter)
  for (int i = 0; i < N; i++) {
    int k = bump(&counter);
#pragma omp parallel for
    for (int j = 0; j < N; j++) m[i][j] += k;
  }""", "generic", "call to 'bump'", 4),
    ("address_of_local", """
#pragma omp target teams map(tofrom: a)
  {
    int k = 3;
    int *pk = &k;
#pragma omp parallel for
    for (int j = 0; j < N; j++) a[j] += *pk;
  }""", "generic", "takes the address of 'k'", 4),
    ("write_through_pointer", """
#pragma omp target teams map(tofrom: a) map(tofrom: p[0:N])
  {
    *p = 1;
#pragma omp parallel for
    for (int j = 0; j < N; j++) a[j] += 1;
  }""", "lean", None, None),
    ("write_through_pointer_in_expression", """
#pragma omp target teams map(tofrom: a) map(tofrom: p[0:N])
  {
    int k = (*p = 2) + 1;
#pragma omp parallel for
    for (int j = 0; j < N; j++) a[j] += k;
  }""", "generic", "through a pointer", 3),
    ("num_threads_inside", """
#pragma omp target teams distribute map(tofrom: m)
  for (int i = 0; i < N; i++) {
#pragma omp parallel for num_threads(32)
    for (int j = 0; j < N; j++) m[i][j] += 1;
  }""", "lean", None, None),  # the team is the block's first 32 threads
    ("if_clause", """
#pragma omp target parallel for if(parallel: flag) map(tofrom: a)
  for (int i = 0; i < N; i++) a[i] += 1;""", "generic", "'if' clause", 1),
    ("teams_reduction", """
#pragma omp target teams distribute reduction(+: s) map(to: a)
  for (int i = 0; i < N; i++) s += a[i];""", "generic", "reduction", 1),
    ("plain_target_serial", """
#pragma omp target map(tofrom: a)
  a[0] = 42;""", "generic", "serial code writes 'a'", 2),
    ("critical_outside_region", """
#pragma omp target teams map(tofrom: s)
  {
#pragma omp critical
    s += 1;
  }""", "generic", "'#pragma omp critical' outside", 3),
    ("printf_between_regions", """
#pragma omp target teams map(tofrom: a)
  {
    printf("x\\n");
#pragma omp parallel for
    for (int j = 0; j < N; j++) a[j] += 1;
  }""", "lean", None, None),
    ("printf_of_a_local_computed_by_all", """
#pragma omp target teams map(tofrom: a)
  {
    int k = printf("x\\n");
#pragma omp parallel for
    for (int j = 0; j < N; j++) a[j] += k;
  }""", "generic", "call to 'printf'", 3),
    ("serial_increment_of_shared_scalar", """
#pragma omp target teams distribute map(tofrom: m, s)
  for (int i = 0; i < N; i++) {
    s++;
#pragma omp parallel for
    for (int j = 0; j < N; j++) m[i][j] += 1;
  }""", "lean", None, None),
    ("serial_write_in_unbraced_if", """
#pragma omp target teams distribute map(tofrom: m, s)
  for (int i = 0; i < N; i++) {
    if (i == 0) s = 1;
#pragma omp parallel for
    for (int j = 0; j < N; j++) m[i][j] += 1;
  }""", "lean", None, None),
    ("atomic_update_in_serial_code_is_guarded", """
#pragma omp target teams distribute map(tofrom: m, hist)
  for (int i = 0; i < N; i++) {
    if (m[i][0] > 0) {
#pragma omp atomic
      hist[i % 16] += 1;
    }
#pragma omp parallel for
    for (int j = 0; j < N; j++) m[i][j] += 1;
  }""", "lean", None, None),
    ("atomic_capture_in_serial_code", """
  int v = 0;
#pragma omp target teams distribute map(tofrom: m, hist)
  for (int i = 0; i < N; i++) {
#pragma omp atomic capture
    v = hist[0]++;
#pragma omp parallel for
    for (int j = 0; j < N; j++) m[i][j] += v;
  }""", "generic", "'#pragma omp atomic' outside a parallel region", 4),
    ("serial_if_with_side_effect_in_condition", """
#pragma omp target teams distribute map(tofrom: m, s)
  for (int i = 0; i < N; i++) {
    if (s++ > 3) m[i][0] = 1;
#pragma omp parallel for
    for (int j = 0; j < N; j++) m[i][j] += 1;
  }""", "generic", "serial code writes 's'", 3),
]


@pytest.mark.parametrize("name, body, kind, why, line", CASES, ids=[c[0] for c in CASES])
def test_mode(tmp_path, name, body, kind, why, line):
    (p,) = plans(tmp_path, body)
    got = "generic" if p.mode == "generic" else ("lean" if p.lean else "spmd")
    assert got == kind, (p.not_spmd, p.needs_state)
    reason = p.not_spmd if kind == "generic" else p.needs_state
    if why is None:
        assert reason is None
        return
    assert why in reason.why
    assert reason.coord.line == PRELUDE_LINES + 1 + line, reason  # each body starts with a newline


def test_at_least_25_kernels_are_pinned():
    assert len(CASES) >= 25


def test_forced_generic_keeps_the_reason_free(tmp_path):
    (p,) = plans(tmp_path, CASES[0][1], mode="generic")
    assert p.mode == "generic" and p.not_spmd is None


def test_forcing_spmd_where_illegal_is_an_error(tmp_path):
    body = dict((c[0], c[1]) for c in CASES)["shared_local_struct"]
    with pytest.raises(UnsupportedError) as e:
        plans(tmp_path, body, mode="spmd")
    assert "--mode=spmd" in str(e.value) and "shares 'range'" in str(e.value)


def test_remarks_name_the_mode_and_the_blocker(tmp_path):
    src = tmp_path / "r.c"
    src.write_text(PRELUDE + dict((c[0], c[1]) for c in CASES)["api_call_between_regions"] + CASES[0][1]
                   + "\n  return 0;\n}\n")
    t = translate(str(src), Options())
    modes = [r for r in t.remarks if "kernel '" in r]
    assert len(modes) == 2
    generic, spmd = modes
    assert "generic (warp-specialized) mode" in generic and f"r.c:{PRELUDE_LINES + 1 + 3}:" in generic
    assert "omp_get_max_threads" in generic and "[-Rpass=ompgpu]" in generic
    assert "SPMD mode" in spmd and "team state" in spmd and "soft stack" in spmd


_LOOP = "\n  for (int i = 0; i < N; i++) s += 0;"
# (clauses of `target teams distribute parallel for`, mode, launch bound, exact block size)
LAUNCH_CASES = [
    # no thread_limit: bound = the team size the runtime launches by default, which
    # OMP_TEAMS_THREAD_LIMIT may still lower (so the device code reads blockDim.x)
    ("", "auto", 256, 0),
    ("", "generic", 160, 0),
    # constant thread_limit (generic: plus the master warp), constant num_threads in SPMD:
    # the block is that size on every launch and the device code uses the constant
    ("thread_limit(64)", "auto", 64, 64),
    ("thread_limit(64)", "generic", 96, 96),
    ("thread_limit(512)", "generic", 544, 544),
    ("thread_limit(64) num_threads(48)", "auto", 48, 48),
    ("num_threads(600)", "auto", 600, 0),
    # a count known only at run time: any block size up to the CUDA limit
    ("thread_limit(s)", "auto", 1024, 0),
    ("num_threads(s)", "auto", 1024, 0),
    ("thread_limit(64) num_threads(s)", "auto", 64, 0),
]


@pytest.mark.parametrize("clauses, mode, bound, exact", LAUNCH_CASES)
def test_launch_bound_and_exact_block(tmp_path, clauses, mode, bound, exact):
    body = f"\n  #pragma omp target teams distribute parallel for {clauses} map(tofrom: s)" + _LOOP
    (p,) = plans(tmp_path, body, mode=mode)
    assert (p.max_threads, p.exact_threads) == (bound, exact)


def test_default_team_threads_match_the_host_runtime():
    """The planner's bound for kernels without thread_limit is the team size that the host
    runtime launches by default; if they drifted apart, OMP_TEAMS_THREAD_LIMIT-free launches
    would be clamped below (or launched above) the compiled bound."""
    from ompgpu.plan.mode import DEFAULT_TEAM_THREADS
    root = Path(__file__).resolve().parents[2]
    cpp = (root / "ompgpu/runtime/host/target.cpp").read_text()
    assert "t = generic ? 128 + kMasterWarp : 256;" in cpp and "kMasterWarp = 32;" in cpp
    assert DEFAULT_TEAM_THREADS == {"spmd": 256, "generic": 128 + 32}


def test_exact_block_reaches_the_device_code(tmp_path):
    """A two-warp team's loop strides are the constant 64, not blockDim.x; its barriers are the
    whole block's (barrier 0: the team is the block). One-warp teams: tests/plan/test_packed_teams.py."""
    src = tmp_path / "w.c"
    src.write_text(PRELUDE + """
#pragma omp target teams distribute thread_limit(64) map(tofrom: m)
  for (int i = 0; i < N; i++) {
    if (m[i][0] < 0) continue;
#pragma omp parallel for
    for (int j = 0; j < N; j++) m[i][j] += 1;
  }
  return (int)s + flag;
}
""")
    cu = translate(str(src), Options()).device_cu
    assert "ompgpu::block_barrier()" in cu and "__stride = (long long)(64u)" in cu
    assert "(blockDim.x)" not in cu


# (target clauses, kernel body, the plan's block_expr): a thread_limit the device can evaluate
# again to the launch's value (by-value captures never assigned in the kernel)
BLOCK_EXPR_CASES = [
    ("thread_limit(flag)", "", "flag"),
    ("thread_limit(flag * 2)", "", "flag * 2"),
    ("thread_limit(flag)", "flag = 3;", None),          # the kernel assigns it
    ("thread_limit(bump(&flag))", "", None),           # a call
    ("thread_limit(flag++)", "", None),                # a side effect
    ("map(tofrom: flag) thread_limit(flag)", "", None),  # mapped: the device copy may differ
    ("thread_limit(64)", "", "64"),
    ("", "", None),
]


@pytest.mark.parametrize("clauses, serial, expected", BLOCK_EXPR_CASES)
def test_block_expr(tmp_path, clauses, serial, expected):
    body = f"""
  #pragma omp target {clauses} map(tofrom: s)
  {{
    {serial}
    #pragma omp parallel num_threads(flag)
    s += 1;
  }}"""
    (p,) = plans(tmp_path, body)
    assert p.mode == "spmd" or expected is None
    assert p.block_expr == expected


# -- the instance for more resident teams (kernel.py: the dense instance) ------------------------

@pytest.mark.parametrize("kernel, bounds", [
    # a grid loop of long iterations: 1280 threads (DENSE_THREADS)
    ("""
#pragma omp target teams distribute parallel for map(to: m) map(from: b)
  for (int i = 0; i < N; i++) { double t = 0; for (int k = 0; k < N; k++) t += m[i][k] * m[k][i]; b[i] = t; }""",
     "256, 5"),
    # a flat loop of short iterations: none
    ("""
#pragma omp target teams distribute parallel for map(to: a) map(from: b)
  for (int i = 0; i < N; i++) b[i] = a[i] + 1;""", None),
])
def test_kernels_that_wait_on_loads_get_an_instance_for_more_resident_teams(tmp_path, kernel, bounds):
    src = tmp_path / "u.c"
    src.write_text(PRELUDE + kernel + "\n  return (int)s + flag;\n}\n")
    cu = translate(str(src), Options()).device_cu
    if bounds is None:
        assert "__dense" not in cu
    else:
        assert f"OMPGPU_LAUNCH_BOUNDS({bounds}) __omp_offloading_main_" in cu and "__dense(" in cu
