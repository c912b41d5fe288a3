"""Tier 1: reductions into a local of an SPMD kernel's serial code that every thread keeps its
own copy of, the team's total handed to each (KernelPlan.allreduced, runtime/device/
reduction.cuh's all-reduce), and team-level regions that store nothing, which need no barrier
on entry (KernelPlan.storeless_regions). tests/programs/serial_local_reductions.c checks the
answers in both modes."""
from pathlib import Path

from ompgpu.driver import translate
from ompgpu.options import Options
from ompgpu.outliner.outline import outline
from ompgpu.parser.bind import bind_pragmas
from ompgpu.parser.cfront import parse_c, preprocess
from ompgpu.plan.mode import plan_kernels

HEAD = """int key[4096], ptr[4096], out[64];
#pragma omp declare target
void bump(int *p) { *p += 1; }
#pragma omp end declare target
int main(void) {
#pragma omp target teams distribute thread_limit(128) map(to: key, ptr) map(from: out)
  for (int i = 0; i < 64; i++) {
    int node = i;
"""
TAIL = """
    out[i] = node;
  }
  return 0;
}
"""
DESCENT = """
    for (int level = 0; level < 3; level++) {
      int c = 0;
#pragma omp parallel for reduction(+: c)
      for (int s = 0; s < 512; s++) c += key[(node * 64 + s) % 4096] <= i;
      node = ptr[(node + c) % 4096];
    }"""


def _source(tmp_path: Path, body: str) -> Path:
    src = tmp_path / "k.c"
    src.write_text(HEAD + body + TAIL)
    return src


def plan(tmp_path: Path, body: str, mode: str = "auto"):
    program = outline(bind_pragmas(parse_c(preprocess(str(_source(tmp_path, body)), "gcc", (), False))))
    (k,) = program.kernels
    return plan_kernels(program, mode)[id(k)]


def device(tmp_path: Path, body: str, mode: str = "auto") -> str:
    return translate(str(_source(tmp_path, body)), Options(mode=mode)).device_cu


def test_a_reduction_the_serial_code_reads_is_handed_to_every_thread(tmp_path):
    p = plan(tmp_path, DESCENT)
    assert p.mode == "spmd" and p.allreduced_names == ("c",) and p.team_shared_names == ()
    cu = device(tmp_path, DESCENT)
    assert "ompgpu_allreduce_block(ompgpu::RED_ADD, &c__target, c, 128u, 0u);" in cu
    assert "OMPGPU_SHARED int c__team" not in cu and "ompgpu_reduce_known" not in cu
    # the region stores nothing: no barrier before it; one after it (the all-reduce's slots)
    assert "serial code read memory" not in cu


def test_a_regions_items_take_the_slot_sets_in_turn_and_wait_before_reusing_one(tmp_path):
    body = """
    int a = 0, b = 0, c = 0;
#pragma omp parallel for reduction(+: a) reduction(max: b) reduction(min: c)
    for (int s = 0; s < 512; s++) { a += key[s]; b = key[s] > b ? key[s] : b; c = ptr[s] < c ? ptr[s] : c; }
    node = a + b + c;"""
    cu = device(tmp_path, body)
    # each call says its place among the region's items; the runtime picks the slot set from it
    # and, for the third (a set's reuse), meets the team first (reduction.cuh allreduce_block)
    first = cu.index("ompgpu_allreduce_block(ompgpu::RED_ADD, &a__target, a, 128u, 0u);")
    second = cu.index("ompgpu_allreduce_block(ompgpu::RED_MAX, &b__target, b, 128u, 1u);")
    third = cu.index("ompgpu_allreduce_block(ompgpu::RED_MIN, &c__target, c, 128u, 2u);")
    assert first < second < third


def test_generic_mode_reduces_into_the_masters_copy(tmp_path):
    assert plan(tmp_path, DESCENT, mode="generic").allreduced == frozenset()
    assert "ompgpu_allreduce" not in device(tmp_path, DESCENT, mode="generic")


def test_a_local_another_region_shares_outright_is_one_copy_for_the_team(tmp_path):
    body = DESCENT.replace("      node = ptr", """#pragma omp parallel
      {
#pragma omp atomic
        c += 1;
      }
      node = ptr""")
    p = plan(tmp_path, body)
    assert p.allreduced == frozenset() and p.team_shared_names == ("c",)
    cu = device(tmp_path, body)
    assert "ompgpu_allreduce" not in cu and "ompgpu_reduce_known(ompgpu::RED_ADD, &c__target" in cu


def test_a_team_of_num_threads_keeps_the_shared_copy(tmp_path):
    body = DESCENT.replace("parallel for reduction", "parallel for num_threads(64) reduction")
    p = plan(tmp_path, body)
    assert p.allreduced == frozenset()


def test_arrays_sections_and_user_reductions_are_not_all_reduced(tmp_path):
    body = """
    int h[4] = {0, 0, 0, 0};
#pragma omp parallel for reduction(+: h)
    for (int s = 0; s < 64; s++) h[s % 4] += key[s];
    node = h[0] + h[3];"""
    assert plan(tmp_path, body).allreduced == frozenset()


def test_a_region_that_stores_keeps_its_entry_barrier(tmp_path):
    for region in ("for (int s = 0; s < 512; s++) { c += key[s]; ptr[s] = s; }",
                   "for (int s = 0; s < 512; s++) { c += key[s]; bump(&c); }",
                   "for (int s = 0; s < 512; s++) { int node = s; c += key[node]; node++; }"):
        body = f"""
    int c = key[node];
#pragma omp parallel for reduction(+: c)
    {region}
    node = c;"""
        p = plan(tmp_path, body)
        assert p.storeless_regions == frozenset(), region
        assert "serial code read memory" in device(tmp_path, body), region


def test_a_guarded_statement_right_after_a_region_meets_the_team_once(tmp_path):
    body = DESCENT + """
    int v = -1;
#pragma omp parallel for reduction(max: v)
    for (int s = 0; s < 512; s++) if (key[node % 4096] == i && ptr[s] > v) v = ptr[s];
    out[i] = v;"""
    cu = device(tmp_path, body)
    # the region's closing barrier, then thread 0's stores and the barrier that publishes them
    region_end = "  ompgpu::block_barrier();\n}\nif (threadIdx.x == 0) {\n"
    assert region_end in cu
    assert cu.count("ompgpu::block_barrier();") == 3  # each region's closing one, the publishing one
