"""Tier 1: a lean SPMD kernel (no team state set up) whose region has num_threads zeroes the
counting barrier's state at the fork site, before the team starts (runtime/device/parallelism.cuh
spmd_sized_begin; a team of 40 threads hung on the GPU without it). A stateful SPMD kernel's
state is set up at its start, and generic mode forks its own way: neither calls it."""
from ompgpu.driver import translate
from ompgpu.options import Options

KERNEL = """int a[2000];
int main(void) {
  int pf = -1;
#pragma omp target map(tofrom: pf) map(to: a)
#pragma omp parallel for lastprivate(conditional: pf) num_threads(40)
  for (int i = 0; i < 2000; i++)
    if (a[i] % 10 == 3) pf = i;
  return pf;
}
"""


def _device_code(tmp_path, source: str, mode: str = "auto"):
    src = tmp_path / "k.c"
    src.write_text(source)
    t = translate(str(src), Options(mode=mode))
    return t.device_cu, t.remarks


def test_a_lean_sized_team_zeroes_the_counting_barrier_first(tmp_path):
    cu, remarks = _device_code(tmp_path, KERNEL)
    assert any("runs in SPMD mode" in r and "team state" in r for r in remarks), remarks   # lean: no team state
    begin, guard = cu.find("ompgpu::spmd_sized_begin(__ts"), cu.find("if (threadIdx.x < __ts")
    assert 0 <= begin < guard


def test_generic_and_unsized_regions_do_not_call_it(tmp_path):
    assert "spmd_sized_begin" not in _device_code(tmp_path, KERNEL, mode="generic")[0]
    assert "spmd_sized_begin" not in _device_code(tmp_path, KERNEL.replace(" num_threads(40)", ""))[0]
