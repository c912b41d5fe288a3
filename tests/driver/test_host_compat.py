"""OpenMP 5.x lowered in the host code for a host compiler that lacks it (ompgpu.codegen.host.compat):
the text each gap gets, and, with each older compiler this machine has, programs whose host code
(plain host parallelism and target regions' host fallbacks) must compute what gcc 12 computes."""
import os
import shutil
import subprocess
import sys

import pytest

from ompgpu.codegen.host.compat import host_openmp_gaps, lower_for_host_compiler
from ompgpu.parser.bind import bind_pragmas
from ompgpu.parser.cfront import parse_c, preprocess
from ompgpu.toolchain import host_cc

ALL_GAPS = frozenset({"masked", "scope", "atomic compare", "thread_limit on target", "scan phases",
                      "linear on combined target", "order clauses", "combined loop", "default firstprivate",
                      "allocate modifiers", "allocate on target", "error directive"})


def lowered(tmp_path, source: str, gaps=ALL_GAPS, offload: str = "none") -> str:
    src = tmp_path / "t.c"
    src.write_text(source)
    bound = bind_pragmas(parse_c(preprocess(str(src), host_cc(), (), False)), "sm_90")
    text = bound.pre.text
    out = lower_for_host_compiler(text, bound.ast, gaps, offload)
    assert out.count("\n") == text.count("\n")  # line numbers stay
    return out


def code_lines(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip() and not line.startswith("#")
            or line.startswith("#pragma")]


def test_gaps_by_compiler():
    assert host_openmp_gaps(("gcc", 12)) == frozenset() and host_openmp_gaps(("gcc", 14)) == frozenset()
    assert {"masked", "scope", "atomic compare", "scan phases"} <= host_openmp_gaps(("gcc", 11))
    assert host_openmp_gaps(("clang", 14)) == {"scope", "atomic compare", "thread_limit on target", "order clauses",
                                               "combined loop", "default firstprivate", "allocate modifiers",
                                               "allocate on target", "error directive"}
    assert host_openmp_gaps(("clang", 16)) == {"scope", "atomic compare", "thread_limit on target", "order clauses",
                                               "allocate modifiers", "allocate on target", "error directive"}
    assert host_openmp_gaps(("clang", 19)) == {"scope", "allocate modifiers", "allocate on target"}
    assert host_openmp_gaps(None) == frozenset()


def test_no_gaps_no_change(tmp_path):
    src = "int main(void) { int s = 0;\n#pragma omp parallel\n#pragma omp scope reduction(+: s)\n s += 1;\n return s; }\n"
    assert lowered(tmp_path, src, frozenset()) == lowered(tmp_path, src, frozenset({"masked"}))
    assert "#pragma omp scope reduction(+: s)" in lowered(tmp_path, src, frozenset())


def test_scope_becomes_a_loop_of_one_iteration_per_thread(tmp_path):
    src = "int main(void) { int s = 0;\n#pragma omp parallel\n{\n#pragma omp scope reduction(+: s) nowait\n s += 1;\n}\nreturn s; }\n"
    lines = code_lines(lowered(tmp_path, src))
    scope = next(line for line in lines if "_Pragma" in line)
    assert scope.startswith("{ extern int omp_get_num_threads(void); _Pragma(\"omp for schedule(static, 1) reduction(+: s) nowait\")")
    assert "for (int __ompgpu_scope_thread = 0; __ompgpu_scope_thread < omp_get_num_threads(); ++__ompgpu_scope_thread)" in scope
    assert "s += 1; }" in lines


def test_masked(tmp_path):
    src = ("int main(void) { int a = 0, b = 0, c = 0;\n#pragma omp parallel\n{\n#pragma omp masked\n a++;\n"
           "#pragma omp masked filter(0)\n b++;\n#pragma omp masked filter(a - 1)\n c++;\n}\n"
           "#pragma omp parallel masked filter(1) num_threads(2)\n c++;\nreturn a; }\n")
    lines = code_lines(lowered(tmp_path, src))
    assert lines.count("#pragma omp master") == 2
    thread_num = "({ extern int omp_get_thread_num(void); omp_get_thread_num(); })"
    assert f"if ({thread_num} == (a - 1))" in lines
    assert f'_Pragma("omp parallel num_threads(2)") if ({thread_num} == (1))' in lines


def test_atomic_compare_makes_every_atomic_of_the_file_one_critical(tmp_path):
    src = ("int main(void) { int x = 0, m = 0;\n#pragma omp parallel\n{\n#pragma omp atomic compare\n if (x < 5) { x = 5; }\n"
           "#pragma omp atomic update\n m++;\n}\nreturn x; }\n")
    lines = code_lines(lowered(tmp_path, src))
    assert lines.count("#pragma omp critical(__ompgpu_atomic)") == 2 and not any("atomic" in line.split("(")[0] for line in lines)
    plain = "int main(void) { int m = 0;\n#pragma omp parallel\n#pragma omp atomic\n m++;\nreturn m; }\n"
    assert "#pragma omp atomic" in lowered(tmp_path, plain)  # no compare in the file: atomics stay


def test_thread_limit_on_target(tmp_path):
    src = ("int main(void) { int n = 3, s = 0;\n#pragma omp target thread_limit(n) map(tofrom: s)\n{\n s = 1;\n}\n"
           "#pragma omp target parallel thread_limit(8) num_threads(n)\n s++;\n"
           "#pragma omp target teams thread_limit(8)\n s++;\nreturn s; }\n")
    lines = code_lines(lowered(tmp_path, src))
    assert "#pragma omp target  map(tofrom: s)" in lines
    body = next(line for line in lines if line.startswith("{ extern int omp_get_max_threads(void); extern void"))
    assert "if (__ompgpu_nthreads > (n)) omp_set_num_threads((n));" in body
    assert "s = 1;" in lines and "} omp_set_num_threads(__ompgpu_nthreads); }" in lines
    combined = next(line for line in lines if line.startswith("#pragma omp target parallel"))
    assert "thread_limit" not in combined and "int __ompgpu_n = ((n) < (8) ? (n) : (8))" in combined
    assert "#pragma omp target teams thread_limit(8)" in lines  # teams' own clause, which every compiler has


def test_scan_phases_in_braces(tmp_path):
    src = ("int main(void) { int s = 0, t = 0, a[8], b[8];\n#pragma omp parallel for reduction(inscan, +: s, t)\n"
           "for (int i = 0; i < 8; i++) {\n s += a[i];\n t += 1;\n#pragma omp scan inclusive(s, t)\n b[i] = s;\n a[i] = t;\n}\n"
           "return s; }\n")
    text = lowered(tmp_path, src)
    assert "for (int i = 0; i < 8; i++) { {" in text
    assert '} _Pragma("omp scan inclusive(s, t)") {' in text
    assert text.count("} }") == 1


def test_allocate_clauses_in_the_5_0_form(tmp_path):
    """allocate(allocator(a), align(n): list) (5.1) as allocate(a: list); a target construct's
    allocate clauses left out (clang wants their allocators in uses_allocators)."""
    src = ("#include <omp.h>\nint main(void) { int t = 0, u = 0;\n"
           "#pragma omp parallel private(t) allocate(allocator(omp_low_lat_mem_alloc), align(64): t)\n{ t = 1; }\n"
           "#pragma omp parallel private(u) allocate(align(32): u)\n{ u = 1; }\n"
           "#pragma omp target teams private(t) allocate(omp_low_lat_mem_alloc: t)\n{ t = 2; }\nreturn 0; }\n")
    lines = [line.split() for line in lowered(tmp_path, src).split("\n") if line.startswith("#pragma")]
    assert ["#pragma", "omp", "parallel", "private(t)", "allocate(omp_low_lat_mem_alloc:", "t)"] in lines
    assert ["#pragma", "omp", "parallel", "private(u)", "allocate(u)"] in lines
    assert ["#pragma", "omp", "target", "teams", "private(t)"] in lines


def test_error_directive_at_execution_as_statements(tmp_path):
    src = ('int main(void) { int r = 0;\n#pragma omp error at(execution) severity(warning) message("careful")\n'
           'r = 1;\nreturn r; }\n')
    out = lowered(tmp_path, src)
    assert 'fputs("careful", stderr)' in out and "exit(1)" not in out and "#pragma omp error" not in out


def test_order_clauses_left_out(tmp_path):
    src = ("int main(void) { int a[8];\n#pragma omp parallel for order(reproducible: concurrent) schedule(static)\n"
           "for (int i = 0; i < 8; i++) a[i] = i;\nreturn a[1]; }\n")
    line = next(line for line in lowered(tmp_path, src).split("\n") if line.startswith("#pragma"))
    assert line.split() == ["#pragma", "omp", "parallel", "for", "schedule(static)"]


@pytest.mark.parametrize("src, expected", [
    # the loop leaf of a combined construct (clang 14): reduction on both, the loop's clauses with it
    ("int main(void) { int s = 0, i;\n#pragma omp target parallel loop bind(thread) num_threads(4) "
     "reduction(+: s) lastprivate(i) collapse(1)\nfor (i = 0; i < 8; i++) { s += i; }\nreturn s; }\n",
     '_Pragma("omp target parallel num_threads(4) reduction(+: s) map(tofrom: s, i)") '
     '_Pragma("omp loop bind(thread) reduction(+: s) lastprivate(i) collapse(1)")'),
    # the target leaf of a combined target loop with linear (gcc 11)
    ("int main(void) { int k = 0, s = 0, a[8];\n#pragma omp target parallel for linear(k: 2) map(tofrom: a) "
     "reduction(+: s) firstprivate(a) if(target: 1)\nfor (int i = 0; i < 8; i++) { k += 2; s += a[i]; }\nreturn k; }\n",
     '_Pragma("omp target map(tofrom: a) firstprivate(a) if(target: 1) map(tofrom: k, s)") '
     '_Pragma("omp parallel for linear(k: 2) reduction(+: s) firstprivate(a)")'),
])
def test_combined_constructs_split(tmp_path, src, expected):
    line = next(line for line in lowered(tmp_path, src).split("\n") if "_Pragma" in line)
    assert line == expected


def test_default_firstprivate_as_a_list(tmp_path):
    src = ("enum { K = 3 };\nint g;\nint twice(int x) { return 2 * x; }\nint main(void) { int v = 1, s = 0, *p = &s;\n"
           "#pragma omp task default(firstprivate) shared(s)\n{ int own = K; v += twice(own) + g; *p = v; s++; }\n"
           "return v; }\n")
    line = next(line for line in lowered(tmp_path, src).split("\n") if line.startswith("#pragma omp task"))
    assert line.split() == ["#pragma", "omp", "task", "firstprivate(g,", "p,", "v)", "shared(s)"]


# Host code that runs: each lowering, in plain host parallelism and in target regions' host fallbacks.
FALLBACK_PROGRAM = r"""
#include <stdio.h>
#include <omp.h>
int main(void) {
  int masked_runs = 0, filter_runs = 0, s = 0, sum[8], a[8], x = 100, k = 10, lim = 0;
  #pragma omp parallel num_threads(4)
  {
    #pragma omp masked
    masked_runs++;
    #pragma omp masked filter(2)
    { filter_runs += 10 * omp_get_thread_num(); }
    #pragma omp scope reduction(+: s)
    s += 1;
    #pragma omp atomic compare
    if (omp_get_thread_num() < x) { x = omp_get_thread_num(); }
  }
  for (int i = 0; i < 8; i++) a[i] = i;
  int run = 0;
  #pragma omp parallel for reduction(inscan, +: run) num_threads(2)
  for (int i = 0; i < 8; i++) {
    run += a[i];
    run += 0;
    #pragma omp scan inclusive(run)
    sum[i] = run;
  }
  #pragma omp target thread_limit(2) map(tofrom: lim)
  {
    #pragma omp parallel
    {
      #pragma omp master
      lim = omp_get_num_threads();
    }
  }
  #pragma omp target parallel for linear(k: -3) map(tofrom: k)
  for (int i = 0; i < 8; i++) k -= 3;
  printf("%d %d %d %d %d %d %d %d\n", masked_runs, filter_runs, s, x, sum[7], sum[3], lim <= 2 && lim >= 1, k);
  return 0;
}
"""
FALLBACK_EXPECTED = "1 20 4 0 28 6 1 -14\n"

OLD_COMPILERS = [c for c in ("gcc-11", "clang-14", "clang-16", "clang-19") if shutil.which(c)]


@pytest.mark.toolchain
@pytest.mark.parametrize("compiler", ["default"] + OLD_COMPILERS)
@pytest.mark.parametrize("offload", ["none", "emu"])
def test_lowered_host_code_runs(compiler, offload, tmp_path):
    """OMP_TARGET_OFFLOAD=DISABLED: target regions run their host fallbacks."""
    env = dict(os.environ, OMP_TARGET_OFFLOAD="DISABLED")
    if compiler != "default":
        env.update(OMPGPU_HOST_CC=compiler, OMPGPU_HOST_CXX=compiler.replace("gcc", "g++").replace("clang", "clang++"))
    src = tmp_path / "fallback.c"
    src.write_text(FALLBACK_PROGRAM)
    b = subprocess.run([sys.executable, "-m", "ompgpu", "cc", f"--offload={offload}", str(src), "-o", str(tmp_path / "t")],
                       capture_output=True, text=True, env=env, timeout=600)
    if b.returncode != 0 and "omp.h" in b.stderr and "not found" in b.stderr:
        pytest.skip(f"{compiler} has no OpenMP header here (libomp-N-dev)")
    assert b.returncode == 0, b.stderr
    r = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, env=env, timeout=120)
    if r.returncode != 0 and "libomp" in r.stderr + b.stderr:
        pytest.skip(f"{compiler}: {r.stderr.strip()[:200]}")
    assert r.returncode == 0, r.stderr
    assert r.stdout == FALLBACK_EXPECTED
