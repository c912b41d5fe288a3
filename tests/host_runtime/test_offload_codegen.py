"""Host code generation for target tasks, host fallbacks, pointer attachment and declare
target link (ompgpu/codegen/host/), the errors for what stays unsupported, and the
multi-device run-and-check programs on an emulated machine with several GPUs."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ompgpu.options import Options
from ompgpu.driver import translate
from ompgpu.errors import OmpgpuError

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = REPO / "tests" / "programs"


def host_code(tmp_path: Path, src: str) -> str:
    f = tmp_path / "t.c"
    f.write_text(src)
    return translate(str(f), Options(inputs=[str(f)], offload="emu")).host_c


def error_of(tmp_path: Path, src: str) -> str:
    f = tmp_path / "t.c"
    f.write_text(src)
    with pytest.raises(OmpgpuError) as e:
        translate(str(f), Options(inputs=[str(f)], offload="emu"))
    return e.value.render()


NOWAIT = """
int main(void) {
  double a[100], *p = a;
  int n = 50, s = 3;
#pragma omp target nowait map(tofrom: a) map(to: p[0:n]) depend(out: a) depend(in: s)
  for (int i = 0; i < n; i++) a[i] = p[i] * s;
#pragma omp target update from(a) nowait depend(inout: a)
#pragma omp target enter data map(to: p[0:n]) depend(in: a)
#pragma omp taskwait
  return 0;
}
"""


def test_nowait_becomes_a_task_with_depend_and_data_sharing(tmp_path):
    text = host_code(tmp_path, NOWAIT)
    tasks = re.findall(r"#pragma omp task\b.*", text)
    assert len(tasks) == 3, tasks
    target_task, update_task, enter_task = tasks
    assert "depend(out: a)" in target_task and "depend(in: s)" in target_task
    # the mapped array by address; values (pointer, bound, firstprivate scalar) at the encounter
    assert re.search(r"shared\(a\)", target_task)
    fp = re.search(r"firstprivate\(([^)]*)\)", target_task).group(1).replace(" ", "").split(",")
    assert set(fp) == {"p", "n", "s"}
    assert "if(0)" not in target_task and "if(0)" not in update_task
    assert "depend(inout: a)" in update_task
    # depend without nowait: an undeferred task that still waits for its dependences
    assert "if(0)" in enter_task and "depend(in: a)" in enter_task


def test_array_parameter_is_taken_by_value(tmp_path):
    # `double x[]` is a pointer: a task that outlives the call must not share the parameter
    text = host_code(tmp_path, """
void fill(double x[100], int k) {
#pragma omp target nowait map(from: x[0:100])
  for (int i = 0; i < 100; i++) x[i] = k;
}
""")
    task = re.search(r"#pragma omp task\b.*", text).group(0)
    assert "shared" not in task and re.search(r"firstprivate\((x, k|k, x)\)", task), task


def test_fallback_runs_on_the_host_without_nowait_or_depend(tmp_path):
    text = host_code(tmp_path, NOWAIT)
    fallback = re.findall(r"#pragma omp target (?!update|enter).*", text)
    assert len(fallback) == 1
    line = fallback[0]
    assert "nowait" not in line and "depend" not in line
    assert line.rstrip().endswith("if(target: 0)")
    assert "map(tofrom: a)" in line


def test_fallback_keeps_parallel_if(tmp_path):
    text = host_code(tmp_path, """
int main(void) {
  int a[10], c = 1, d = 0;
#pragma omp target parallel for if(c) map(tofrom: a)
  for (int i = 0; i < 10; i++) a[i] = i;
#pragma omp target parallel for if(target: d) if(parallel: c) map(tofrom: a)
  for (int i = 0; i < 10; i++) a[i] = i;
  return a[3];
}
""")
    lines = re.findall(r"#pragma omp target parallel for.*", text)
    assert lines[0].split() == "#pragma omp target parallel for map(tofrom: a) if(parallel: c) if(target: 0)".split()
    assert "if(parallel: c)" in lines[1] and "if(target: d)" not in lines[1] and lines[1].rstrip().endswith("if(target: 0)")


def test_depend_only_variable_is_not_mapped(tmp_path):
    text = host_code(tmp_path, """
double big[1000], out[10];
int main(void) {
#pragma omp target nowait map(from: out) depend(in: big)
  for (int i = 0; i < 10; i++) out[i] = i;
  return 0;
}
""")
    entry = re.search(r'\{ [^\n]*"big" \}', text).group(0)
    assert "OMPGPU_MAP_ATTACH_ONLY" in entry and "OMPGPU_MAP_TO" not in entry and ", 0, " in entry


def test_pointer_member_section_attaches(tmp_path):
    text = host_code(tmp_path, """
struct s { int n; double *p; };
int main(void) {
  struct s v;
  double buf[8];
  v.n = 8; v.p = buf;
#pragma omp target map(tofrom: v.p[2:4])
  v.p[3] = v.n;
#pragma omp target enter data map(to: v) map(to: v.p[0:8])
#pragma omp target exit data map(from: v.p[0:8]) map(release: v)
  return 0;
}
""")
    names = re.findall(r'OMPGPU_MAP_[A-Z_ |]*, "([^"]*)" \}', text)
    flags = re.findall(r'\{ ([^\n]*), "v\.p\[2:4\]" \}', text)
    assert any("OMPGPU_MAP_ATTACH" in f and "(void *)&(v.p)" in f for f in flags)
    assert any("OMPGPU_MAP_PTR" in f and "OMPGPU_MAP_TO | OMPGPU_MAP_FROM" in f for f in flags)
    # exit data: no attach entry, the struct is not copied back for the pointee's from
    end = text.index("ompgpu_target_data_end")
    exit_block = text[text.rindex("ompgpu_map_entry", 0, end):end]   # the exit construct's own map array
    assert "OMPGPU_MAP_ATTACH" not in exit_block
    assert "v" in names


def test_target_in_reduction_runs_in_a_task_that_joins_the_reduction(tmp_path):
    text = host_code(tmp_path, """int main(void) { int x = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+: x)
  {
#pragma omp target in_reduction(+: x)
  x += 1;
  }
  return x; }""")
    assert re.search(r"#pragma omp task if\(0\) .*in_reduction\(\+: x\)", text)
    entry = re.search(r'\{ [^\n]*"x" \}', text).group(0)
    assert "OMPGPU_MAP_TO | OMPGPU_MAP_FROM" in entry  # the task's copy, mapped tofrom
    # the host fallback maps the task's copy tofrom instead of joining the reduction again
    assert re.search(r"#pragma omp target\s+map\(tofrom: x\) if\(target: 0\)", text)


def test_link_variables_register_and_map_implicitly(tmp_path):
    text = host_code(tmp_path, """
double big[64];
#pragma omp declare target link(big)
double plain[4];
#pragma omp declare target to(plain)
int main(void) {
#pragma omp target
  for (int i = 0; i < 64; i++) big[i] = plain[i % 4];
  return 0;
}
""")
    assert "ompgpu_register_link_global((void *)&big" in text
    assert "ompgpu_register_global((void *)&plain" in text
    entry = re.search(r'\{ [^\n]*"big" \}', text).group(0)
    assert "OMPGPU_MAP_TO | OMPGPU_MAP_FROM | OMPGPU_MAP_IMPLICIT" in entry and "OMPGPU_MAP_ARG" not in entry
    assert '"plain" }' not in text


@pytest.mark.parametrize("src,message", [
    ("""int main(void) { int x = 0;
#pragma omp target defaultmap(firstprivate: all)
  x = 1;
  return x; }""", "'defaultmap(firstprivate: all)' is not supported yet"),
    ("""int main(void) { int a[10];
#pragma omp target teams distribute parallel for ordered(1) map(tofrom: a)
  for (int i = 1; i < 10; i++) {
#pragma omp ordered depend(sink: i - 1)
    a[i] = a[i - 1] + 1;
#pragma omp ordered depend(source)
  }
  return a[9]; }""", "(a doacross loop) is not supported on the device"),
    ("""struct s { double *p; };
int main(void) { struct s *v = 0;
#pragma omp target map(tofrom: v->p[0:4])
  v->p[0] = 1;
  return 0; }""", "a member reached through '->'"),
])
def test_unsupported_is_an_error(tmp_path, src, message):
    err = error_of(tmp_path, src)
    assert message in err and re.match(r".*t\.c:\d+:\d+: error: ", err, re.S), err


# ---------------------------------------------------------------- several devices (emulated)

MULTI = ["multi_device", "multi_device_nowait", "default_device"]


@pytest.fixture(scope="module")
def multi_exes(tmp_path_factory):
    out = tmp_path_factory.mktemp("multi")
    exes = {}
    for name in MULTI:
        exe = out / name
        r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", str(PROGRAMS / f"{name}.c"), "-o",
                            str(exe)], capture_output=True, text=True, cwd=REPO, timeout=600)
        assert r.returncode == 0, r.stderr
        exes[name] = exe
    return exes


@pytest.mark.parametrize("devices", ["2", "3"])
@pytest.mark.parametrize("name", MULTI)
def test_multi_device_program_on_emulated_gpus(multi_exes, name, devices):
    env = dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY", OMPGPU_EMU_DEVICES=devices, OMPGPU_INFO="1")
    r = subprocess.run([str(multi_exes[name])], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout == (PROGRAMS / f"{name}.expected").read_text()
    # every device really ran kernels
    launched_on = {int(m) for m in re.findall(r": kernel .*, device (\d+)$", r.stderr, re.M)}
    assert launched_on == set(range(int(devices))), r.stderr[-2000:]
