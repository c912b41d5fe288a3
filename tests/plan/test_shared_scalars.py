"""Tier 1: loops of a parallel region that keep a team-shared scalar in a register
(ompgpu/codegen/shared_scalars.py), and the ones that must not. tests/programs/
shared_scalar_loops.c checks the answers."""
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options

HEAD = """#include <omp.h>
int out[8];
#pragma omp declare target
int pure(int v) { return v + 1; }
void meet(void) {
#pragma omp barrier
}
#pragma omp end declare target
"""


def device(tmp_path: Path, region: str, before: str = "int count = 0;", mode: str = "auto") -> str:
    src = tmp_path / "k.c"
    src.write_text(HEAD + "int main(void) {\n  int mapped = 0;\n#pragma omp target map(tofrom: out, mapped) thread_limit(64)\n  {\n"
                   + before + "\n#pragma omp parallel num_threads(64)\n  {\n" + region + "\n  }\n  out[0] = count;\n  }\n  return 0;\n}\n")
    return translate(str(src), Options(mode=mode)).device_cu


MASTER_LOOP = """
    for (int j = 0; j < 100; j++) {
#pragma omp master
      count++;
    }"""


@pytest.mark.parametrize("mode", ["auto", "generic"])
def test_a_master_update_in_a_loop_is_held_and_written_through(tmp_path, mode):
    cu = device(tmp_path, MASTER_LOOP, mode=mode)
    assert "auto count__reg1 = count;" in cu
    assert "ompgpu_store_through_postinc(count, count__reg1);" in cu


@pytest.mark.parametrize("body", [
    "#pragma omp master\n count++;\n#pragma omp barrier",             # a barrier in the loop
    "#pragma omp critical\n count++;",                                 # critical synchronizes
    "#pragma omp atomic\n count++;",                                   # an atomic
    "#pragma omp master\n count++;\n meet();",                         # a call to a function with a barrier
    "#pragma omp single\n count++;",                                   # single ends in a barrier
    "#pragma omp master\n { count++; omp_set_lock(0); }",              # a lock routine
])
def test_loops_that_synchronize_keep_the_variable_in_memory(tmp_path, body):
    cu = device(tmp_path, "for (int j = 0; j < 100; j++) {\n" + body + "\n}")
    assert "__reg" not in cu


def test_calls_to_functions_without_synchronization_and_queries_are_allowed(tmp_path):
    cu = device(tmp_path, """
    for (int j = 0; j < 100; j++) {
#pragma omp master
      count += pure(omp_get_thread_num());
    }""")
    # (the team's thread number is known in a team-level region: codegen/device/printer.py team_position)
    assert "(count = (count__reg1 += (pure(((int)threadIdx.x)))));" in cu


@pytest.mark.parametrize("before,region", [
    ("int count = 0; int *p = &count;", MASTER_LOOP),             # its address is taken
    ("volatile int count = 0;", MASTER_LOOP),                     # volatile
    ("int count = 0;", "for (int j = 0; j < 100; j++) { if (count > 5) out[1] = 1; }"),  # only read
    ("int count[1] = {0};", "for (int j = 0; j < 100; j++) {\n#pragma omp master\n count[0]++;\n}"),  # not a scalar
])
def test_variables_that_may_be_reached_otherwise_stay_in_memory(tmp_path, before, region):
    cu = device(tmp_path, region, before=before)
    assert "__reg" not in cu


def test_a_mapped_variable_stays_in_memory(tmp_path):
    # declared outside the target region: a mapped pointer of the host code may reach its storage
    cu = device(tmp_path, "for (int j = 0; j < 100; j++) {\n#pragma omp master\n mapped++;\n}")
    assert "__reg" not in cu


def test_a_struct_member_of_the_same_name_is_not_the_variable(tmp_path):
    cu = device(tmp_path, """
    for (int j = 0; j < 100; j++) {
#pragma omp master
      { count++; s.count++; }
    }""", before="int count = 0; struct { int count; } s = {0};")
    assert "ompgpu_store_through_postinc(count, count__reg1);" in cu and "s.count++;" in cu


def test_generic_workers_take_unchanged_kernel_parameters_from_the_parameters(tmp_path):
    # n and scale reach the region by value and the kernel never changes them: the workers build
    # the pack's copy of them from the kernel's parameters (nvcc then sees one value for every
    # fork); m is changed by the serial code, so it comes from the pack
    src = tmp_path / "k.c"
    src.write_text("""int out[64];
int main(int argc, char **argv) {
  int n = argc, m = argc + 1, scale = 3;
#pragma omp target map(tofrom: out) thread_limit(64)
  {
    m = m * 2;
#pragma omp parallel num_threads(32)
    out[omp_get_thread_num() % 64] = n * scale + m;
  }
  return 0;
}
""")
    cu = translate(str(src), Options(mode="generic")).device_cu
    assert "__p = { n, m, scale }" not in cu
    line = next(l for l in cu.splitlines() if "__p = {" in l)
    fields = line.split("{", 1)[1].rstrip("}; ").split(", ")
    assert "n" in fields and "scale" in fields and "__in.m" in fields
