"""Tier 1: the workers of a generic kernel store their per-thread state at a fork only where
a work function of the kernel may read it (plan.call_effects.region_reads_thread_state). A plain
region that calls stateless code leaves the store out; everything that reads the team size,
the nesting level or the worksharing sequence keeps it, for every region of the kernel.
Run-and-check program: tests/programs/worker_state.c."""
import re
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options

HEADER = """#include <omp.h>
int a[256];
#pragma omp declare target
int g[256];
#pragma omp end declare target
#pragma omp declare target
void ext(int *p);
#pragma omp end declare target
int (*fp)(int);
int square(int x) { return x * x; }
int twice(int x) { return square(x) + square(x); }
int threads(void) { return omp_get_num_threads(); }
void forks(int *p) {
#pragma omp parallel
  p[0] = 1;
}
"""


def stores_state(tmp_path: Path, body: str) -> list[bool]:
    """For each generic kernel of the program, whether its workers store their state at a fork."""
    src = tmp_path / "k.c"
    src.write_text(HEADER + "int main(int argc, char **argv) {\n  int n = argc;\n" + body + "\n  return 0;\n}\n")
    cu = translate(str(src), Options(mode="generic")).device_cu
    return [flag == "true" for flag in re.findall(r"worker_wait<__pack_words, (true|false)>", cu)]


def test_a_region_of_stateless_calls_leaves_the_store_out(tmp_path):
    assert stores_state(tmp_path, """
#pragma omp target map(tofrom: a)
  {
    int x = n;
#pragma omp parallel num_threads(64) firstprivate(x) if(n > 0)
    { int v[4]; v[0] = twice(x); a[0] = v[0] + (int)sqrtf(4.0f); }
  }""") == [False]


def test_a_kernel_without_regions_stores_nothing(tmp_path):
    assert stores_state(tmp_path, "#pragma omp target map(tofrom: a)\n  a[0] = n;") == [False]


@pytest.mark.parametrize("region", [
    "#pragma omp parallel\n    a[omp_get_thread_num()] = 1;",
    "#pragma omp parallel\n    a[0] = omp_get_num_threads();",
    "#pragma omp parallel\n    a[0] = threads();",                      # state API in a callee
    "#pragma omp parallel\n    forks(a);",                               # a nested region in a callee
    "#pragma omp parallel\n    ext(a);",                                 # defined in another file
    "#pragma omp parallel\n    a[0] = fp(1);",                           # through a pointer
    "#pragma omp parallel\n    {\n#pragma omp for\n    for (int i = 0; i < 256; i++) a[i] = i;\n    }",
    "#pragma omp parallel for\n    for (int i = 0; i < 256; i++) a[i] = i;",
    "#pragma omp parallel\n    {\n#pragma omp barrier\n    }",
    "#pragma omp parallel\n    {\n#pragma omp atomic\n    a[0]++;\n    }",  # any construct, conservatively
    "#pragma omp parallel reduction(+: s)\n    s += 1;",
])
def test_what_may_read_the_state_keeps_the_store(tmp_path, region):
    assert stores_state(tmp_path, f"""
  int s = 0;
#pragma omp target map(tofrom: a, s)
  {{
    {region}
  }}""") == [True]


def test_one_region_that_reads_the_state_keeps_the_store_for_the_kernel(tmp_path):
    assert stores_state(tmp_path, """
#pragma omp target map(tofrom: a)
  {
#pragma omp parallel
    a[1] = square(n);
#pragma omp parallel
    a[0] = omp_get_num_threads();
  }
#pragma omp target map(tofrom: a)
  {
#pragma omp parallel
    a[1] = square(n);
  }""") == [True, False]


def generic_device(tmp_path: Path, body: str) -> str:
    src = tmp_path / "k.c"
    src.write_text(HEADER + "int main(int argc, char **argv) {\n  int n = argc;\n" + body + "\n  return 0;\n}\n")
    return translate(str(src), Options(mode="generic")).device_cu


def test_a_pack_of_unchanged_parameters_is_not_copied_at_the_fork(tmp_path):
    cu = generic_device(tmp_path, """
  int base = n, step = 2;
#pragma omp target firstprivate(base, step)
  {
#pragma omp parallel
    g[base] = step;
  }""")
    assert "ompgpu_fork(1, &__pack1, 0, " in cu
    assert "prefetch_words<>()" in cu and re.search(r"__p = \{ base, step \};", cu)


def test_a_pack_with_a_changed_or_shared_value_is_copied(tmp_path):
    cu = generic_device(tmp_path, """
  int base = n, step = 2, s = 0;
#pragma omp target firstprivate(base, step) map(tofrom: s)
  {
#pragma omp parallel
    a[base] = step;
    base++;
#pragma omp parallel
    a[base] = s;
  }""")
    assert "ompgpu_fork(1, &__pack1, sizeof(__pack1), " in cu and "ompgpu_fork(2, &__pack2, sizeof(__pack2), " in cu
    assert "__in.base" in cu
