"""Tier 1: atomic updates summed per block before they reach memory (issue 34; plan/combine.py,
runtime/device/combine.cuh, runtime/host/target.cpp combine_mask). Only arrays and pointers that a
lean SPMD kernel uses for nothing but relaxed atomic additions, in a kernel whose every access goes
through the arrays and pointers it receives. Run-and-check program: tests/programs/combined_atomics.c."""
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options

PROGRAM = """
PRELUDE
float cost[4096], lower[64], gain[4];
int assign[4096], switches[4];
int main(void) {
  int n = 4096, c = 1;
#pragma omp target teams distribute parallel for map(to: cost, assign) map(tofrom: lower, gain, switches) DIRECTIVE
  for (int i = 0; i < n; i++) {
    BODY
  }
  return 0;
}
"""

BODY = """const float d = cost[i] * 0.5f;
    if (d < cost[i]) {
#pragma omp atomic
      gain[c] += cost[i] - d;
#pragma omp atomic
      switches[c]++;
    } else {
#pragma omp atomic
      lower[c * 32 + assign[i]] -= d;
    }"""


def translated(tmp_path: Path, body: str = BODY, prelude: str = "", directive: str = "", mode: str = "auto"):
    src = tmp_path / "p.c"
    src.write_text(PROGRAM.replace("PRELUDE", prelude).replace("BODY", body).replace("DIRECTIVE", directive))
    return translate(str(src), Options(mode=mode))


def test_arrays_only_updated_atomically_are_summed_per_block(tmp_path):
    t = translated(tmp_path)
    assert any("atomic updates of 'lower', 'gain', 'switches' summed per block" in r for r in t.remarks), t.remarks
    cu = t.device_cu
    # the table begins and ends the kernel; each update names its array's bit in the launch's mask
    assert "ompgpu::combine_begin(__omp_combine);" in cu and "ompgpu::combine_end();" in cu
    assert "ompgpu::combine_update(ompgpu::ATOMIC_ADD, &(gain[c]), cost[i] - d, 1u);" in cu
    assert "ompgpu::combine_update(ompgpu::ATOMIC_ADD, &(switches[c]), 1, 2u);" in cu
    assert "ompgpu::combine_update(ompgpu::ATOMIC_SUB, &(lower[(c * 32) + assign[i]]), d, 0u);" in cu
    assert ", unsigned __omp_combine)" in cu and ", cfg->combine);" in cu
    # per argument, in capture order: the values 0, the arrays read -1, the candidates k + 1
    host = t.host_c
    roles = host[host.index("__combine[] = {"):].split("}", 1)[0]
    assert sorted(int(x) for x in roles.split("{", 1)[1].split(",")) == sorted([1, 2, 3, -1, -1, 0, 0])
    assert "__combine, 0, " in host   # the combine roles, then grid_tiles (then grid_waves)


@pytest.mark.parametrize("body, prelude, directive, mode", [
    (BODY + "\n    cost[i] = gain[c];", "", "", "auto"),                       # gain read: only lower, switches
    (BODY.replace("gain[c] += cost[i] - d;", "gain[c] += cost[i] - d;\n#pragma omp atomic read\n      cost[i] = gain[0];"), "", "", "auto"),
])
def test_an_array_read_in_the_kernel_is_not_combined(tmp_path, body, prelude, directive, mode):
    t = translated(tmp_path, body, prelude, directive, mode)
    assert any("atomic updates of 'lower', 'switches' summed per block" in r for r in t.remarks), t.remarks


@pytest.mark.parametrize("body, prelude, directive, mode", [
    (BODY, "", "", "generic"),                                                   # not lean SPMD
    (BODY.replace("const float d = cost[i] * 0.5f;", "const float *q = cost; const float d = q[i] * 0.5f;"), "", "", "auto"),
    (BODY.replace("#pragma omp atomic\n      gain", "#pragma omp atomic seq_cst\n      gain").replace("switches[c]++", "switches[c] += 0")
     .replace("lower[c * 32 + assign[i]] -= d;", "lower[0] -= d;\n#pragma omp atomic seq_cst\n      lower[1] += d;"), "", "", "auto"),
    (BODY, "float extra[8];\n#pragma omp declare target(extra)", "", "auto"),   # (unused global: fine)
    (BODY.replace("const float d = cost[i] * 0.5f;", "const float d = cost[i] * extra[0];"),
     "float extra[8];\n#pragma omp declare target(extra)", "", "auto"),             # a global read: unknown storage
    (BODY.replace("const float d = cost[i] * 0.5f;", "const float d = *(float *)&assign[i];"), "", "", "auto"),
])
def test_kernels_that_may_reach_storage_another_way_combine_nothing(tmp_path, body, prelude, directive, mode):
    t = translated(tmp_path, body, prelude, directive, mode)
    combined = [r for r in t.remarks if "summed per block" in r]
    if "extra" in prelude and "extra[0]" not in body:
        assert combined, t.remarks
        return
    if "seq_cst" in body:   # gain and lower have a seq_cst update: only switches
        assert any("atomic updates of 'switches' summed" in r for r in combined), t.remarks
        return
    assert not combined, t.remarks
    assert "combine_" not in t.device_cu
