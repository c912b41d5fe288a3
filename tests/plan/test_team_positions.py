"""Tier 1: omp_get_thread_num() and omp_get_num_threads() in a team-level region of an SPMD
kernel print as the thread's number and the team's size the compiler knows
(codegen/device/printer.py team_position); elsewhere the runtime answers.
tests/programs/team_positions.c checks the answers."""
from pathlib import Path

from ompgpu.driver import translate
from ompgpu.options import Options

SOURCE = """#include <omp.h>
int out[4][256];
#pragma omp declare target
static int mine(void) { return omp_get_thread_num(); }
#pragma omp end declare target
int main(void) {
#pragma omp target teams distribute num_teams(4) thread_limit(TL) map(tofrom: out)
  for (int t = 0; t < 4; t++) {
#pragma omp parallel CLAUSES
    {
      int me = omp_get_thread_num(), all = omp_get_num_threads();
      out[t][me] = all + mine();
#pragma omp parallel
      out[t][me] += omp_get_num_threads();
    }
  }
  return 0;
}
"""


def device_code(tmp_path: Path, limit: int = 128, clauses: str = "", mode: str = "auto") -> str:
    src = tmp_path / "p.c"
    src.write_text(SOURCE.replace("TL", str(limit)).replace("CLAUSES", clauses))
    return translate(str(src), Options(mode=mode, emit_cuda=True)).device_cu


def region(cuda: str, number: int) -> str:
    """The work function of the kernel's parallel region `number` (1: the team's, 2: the nested one)."""
    start = cuda.index(f"parallel region {number} of")
    return cuda[start:cuda.index("\n/* ", start)]


def region_code(tmp_path: Path, **kw) -> str:
    return region(device_code(tmp_path, **kw), 1)


def test_the_block_team_knows_its_positions(tmp_path):
    code = region_code(tmp_path)
    assert "int me = ((int)threadIdx.x);" in code and "int all = ((int)(128u));" in code


def test_a_team_of_num_threads_is_its_first_threads(tmp_path):
    code = region_code(tmp_path, clauses="num_threads(40)")
    assert "int me = ((int)threadIdx.x);" in code and "int all = ((int)(__team_size));" in code


def test_a_team_below_a_warp_is_the_block(tmp_path):
    """(A kernel that asks for the team's positions keeps its state, so its teams are not packed.)"""
    code = region_code(tmp_path, limit=16)
    assert "int me = ((int)threadIdx.x);" in code and "int all = ((int)(16u));" in code


def test_device_functions_nested_regions_and_generic_mode_ask_the_runtime(tmp_path):
    cuda = device_code(tmp_path)
    assert "return omp_get_thread_num();" in cuda          # the device function: any context may call it
    assert "omp_get_num_threads()" in region(cuda, 2)      # the nested region: a team of its own
    generic = region_code(tmp_path, mode="generic")
    assert "int me = omp_get_thread_num();" in generic and "int all = omp_get_num_threads();" in generic
