"""Tier 1: the `ompgpu` command line behaves like gcc/clang."""
import subprocess
import sys
from pathlib import Path

import pytest

from ompgpu.cli import main, parse_cc_args

SIMPLE = """#include <stdio.h>
int main(void) {
  int n = 64, s = 0;
  int a[64];
  #pragma omp target teams distribute parallel for map(from: a) reduction(+: s)
  for (int i = 0; i < n; i++) { a[i] = i; s += i; }
  printf("%d %d\\n", a[63], s);
  return 0;
}
"""


@pytest.fixture
def simple(tmp_path):
    p = tmp_path / "simple.c"
    p.write_text(SIMPLE)
    return p


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("ompgpu ")


def test_help_without_arguments(capsys):
    assert main([]) == 2
    assert "usage: ompgpu cc" in capsys.readouterr().out


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_cc_help_prints_the_usage(capsys, flag):
    """`ompgpu cc --help`, as `gcc --help`: the usage, status 0, not an unknown argument."""
    assert main(["cc", flag]) == 0
    out = capsys.readouterr()
    assert "usage: ompgpu cc" in out.out and "unknown argument" not in out.err


def test_cc_version(capsys):
    assert main(["cc", "--version"]) == 0
    assert capsys.readouterr().out.startswith("ompgpu ")


def test_gcc_style_flags_are_understood():
    o = parse_cc_args(["-O3", "-g", "-DN=4", "-I", "inc", "-Ufoo", "-lm", "-L/x", "-std=c11", "-w", "-v", "-fopenmp",
                       "-fopenmp-targets=nvptx64-nvidia-cuda", "--offload-arch=sm_80", "-c", "-o", "x.o", "a.c"])
    assert (o.opt_level, o.debug, o.std, o.no_warnings, o.verbose, o.compile_only, o.output) == \
        ("-O3", True, "-std=c11", True, True, True, "x.o")
    assert o.cpp_args == ["-DN=4", "-Iinc", "-Ufoo"]
    assert o.link_args == ["-lm", "-L/x"]
    assert o.offload_arch == "sm_80" and o.inputs == ["a.c"]


@pytest.mark.parametrize("argv, message", [
    (["--bogus", "a.c"], "unknown argument: '--bogus'"),
    (["--offload-arch=gfx90a", "a.c"], "invalid --offload-arch 'gfx90a'"),
    (["--offload=opencl", "a.c"], "invalid --offload 'opencl'"),
    (["-fopenmp-targets=amdgcn-amd-amdhsa", "a.c"], "unsupported offload target"),
    (["--mode=simd", "a.c"], "invalid --mode 'simd'"),
    ([], "no input files"),
])
def test_bad_arguments_are_errors(argv, message, capsys):
    assert main(["cc", *argv]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_missing_input_file(capsys, tmp_path):
    assert main(["cc", "-fsyntax-only", str(tmp_path / "nope.c")]) == 1
    assert "no such file or directory" in capsys.readouterr().err


def test_syntax_only_writes_nothing(simple, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["cc", "-fsyntax-only", str(simple)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["simple.c"]


def test_emit_cuda_writes_a_kernel(simple, tmp_path):
    out = tmp_path / "k.cu"
    assert main(["cc", "--emit-cuda", str(simple), "-o", str(out)]) == 0
    cu = out.read_text()
    assert 'OMPGPU_GLOBAL void OMPGPU_LAUNCH_BOUNDS(256) __omp_offloading_main_l5(' in cu
    # a flat kernel is lean SPMD: no master, no runtime init, a grid-stride loop over the whole grid
    assert "kernel_init" not in cu and "worker_wait" not in cu
    assert "ompgpu::grid_loop_bounds(" in cu and "ompgpu_reduce_known(" in cu
    out_g = tmp_path / "g.cu"
    assert main(["cc", "--emit-cuda", "--mode=generic", str(simple), "-o", str(out_g)]) == 0
    cu = out_g.read_text()
    assert "ompgpu::kernel_init_generic(__omp_team_threads);" in cu and "ompgpu::worker_wait<" in cu


def test_remarks_name_the_mode(simple, capsys):
    assert main(["cc", "--emit-cuda", "-Rpass=ompgpu", str(simple), "-o", "/dev/null"]) == 0
    err = capsys.readouterr().err
    assert f"{simple}:5:" in err and "remark:" in err and "SPMD mode" in err and "[-Rpass=ompgpu]" in err


def test_cpp_errors_pass_through(tmp_path, capsys):
    p = tmp_path / "inc.c"
    p.write_text('#include "does_not_exist.h"\nint main(void){return 0;}\n')
    assert main(["cc", "-fsyntax-only", str(p)]) == 1
    assert "does_not_exist.h" in capsys.readouterr().err


def test_c_syntax_error_has_caret(tmp_path, capsys):
    p = tmp_path / "bad.c"
    p.write_text("int main(void) {\n  int x = 3\n  return x;\n}\n")
    assert main(["cc", "-fsyntax-only", str(p)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{p}:3:3: error: syntax error before 'return'")
    assert err.splitlines()[1] == "  return x;" and err.splitlines()[2] == "  ^"


DEVICE_FUNCTION_USES_A_HOST_GLOBAL = """#include <stdio.h>
static int counts[4], spare;
#pragma omp declare target
static void bump(int t) { int k = t; counts[k]++; }
#pragma omp end declare target
int main(void) {
#pragma omp target teams distribute num_teams(4) map(tofrom: counts)
  for (int t = 0; t < 4; t++) bump(t);
  printf("%d %d\\n", counts[2], spare);
  return 0;
}
"""


def test_device_function_using_a_global_that_is_not_declare_target(tmp_path, capsys):
    """The device has no copy of such a variable (the region's map is the region's, not its
    callees'): an error at the use, as gcc's, not a failure of the generated code."""
    p = tmp_path / "global_use.c"
    p.write_text(DEVICE_FUNCTION_USES_A_HOST_GLOBAL)
    assert main(["cc", "--emit-cuda", str(p), "-o", str(tmp_path / "t.cu")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{p}:4:38: error: 'counts' is used in 'bump', which runs on the device, "
                          "but it is not declare target"), err
    assert "declare target(counts)" in err and "Traceback" not in err and "g++" not in err
    # declared target, it compiles
    p.write_text(DEVICE_FUNCTION_USES_A_HOST_GLOBAL.replace("static int counts[4], spare;",
                                                            "#pragma omp declare target\nstatic int counts[4];\n"
                                                            "#pragma omp end declare target\nstatic int spare;")
                 .replace(":4:38:", ":6:38:"))
    assert main(["cc", "--emit-cuda", str(p), "-o", str(tmp_path / "t.cu")]) == 0, capsys.readouterr().err


@pytest.mark.toolchain
def test_compile_link_and_run_under_emulator(simple, tmp_path):
    exe = tmp_path / "simple"
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", "-save-temps", "-v", str(simple),
                        "-o", str(exe)], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "-DOMPGPU_EMU" in r.stderr  # -v prints the sub-commands
    assert (tmp_path / "simple.host.c").exists() and (tmp_path / "simple.device.cu").exists()
    run = subprocess.run([str(exe)], capture_output=True, text=True, env={"OMP_TARGET_OFFLOAD": "MANDATORY",
                                                                           "OMPGPU_INFO": "1"})
    assert run.stdout == "63 2016\n"
    assert "kernel __omp_offloading_main_l5:" in run.stderr and "spmd" in run.stderr


def test_compile_only_then_link(simple, tmp_path):
    obj = tmp_path / "simple.o"
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", "-c", str(simple), "-o", str(obj)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    exe = tmp_path / "linked"
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", str(obj), "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert subprocess.run([str(exe)], capture_output=True, text=True).stdout == "63 2016\n"


def test_offload_none_runs_on_the_host(simple, tmp_path):
    exe = tmp_path / "host_only"
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=none", str(simple), "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert subprocess.run([str(exe)], capture_output=True, text=True).stdout == "63 2016\n"


def test_unsupported_construct_is_an_error_not_wrong_code(tmp_path, capsys):
    p = tmp_path / "cancel.c"
    p.write_text("int main(void) {\n  int x = 0;\n  #pragma omp target map(tofrom: x)\n  {\n"
                 "    #pragma omp parallel\n    {\n    #pragma omp cancel parallel\n    x++;\n    }\n  }\n  return x;\n}\n")
    assert main(["cc", "--emit-cuda", str(p), "-o", str(tmp_path / "t.cu")]) == 1
    err = capsys.readouterr().err
    assert f"{p}:7:" in err and "'cancel' inside a target region is not supported" in err


def test_doctor_reports_tools(capsys):
    main(["doctor"])
    out = capsys.readouterr().out
    for label in ("nvcc:", "C compiler:", "GPU:", "cupy:"):
        assert label in out


def test_schedule_static_is_dealt_out_over_the_grid(tmp_path):
    """schedule(static) on an SPMD distribute parallel for: one iteration per thread and chunk
    (coalesced), not one contiguous block per thread."""
    src = tmp_path / "s.c"
    src.write_text("int main(void) {\n  double a[1000];\n"
                   "  #pragma omp target teams distribute parallel for schedule(static) map(from: a)\n"
                   "  for (int i = 0; i < 1000; i++) a[i] = i;\n  return (int)a[5] - 5;\n}\n")
    out = tmp_path / "s.cu"
    assert main(["cc", "--emit-cuda", str(src), "-o", str(out)]) == 0
    cu = out.read_text()
    assert "ompgpu::grid_loop_bounds(" in cu and "known_static_block(" not in cu


@pytest.mark.parametrize("inner", ["for (int j = i; j < 8; j++)", "for (int j = 0; j < i + 1; j++)",
                                   "for (int j = 0; j < 8; j += i + 1)"])
def test_non_rectangular_collapse_runs_the_inner_loop_whole(tmp_path, capsys, inner):
    """OpenMP 5.0 allows collapsing loops whose bounds depend on an outer loop: the nest is
    collapsed over its rectangular outer loop and the inner loop runs whole in each iteration
    (tests/programs/collapse_nonrectangular.c runs such nests)."""
    src = tmp_path / "tri.c"
    src.write_text("int main(void) {\n  int a[8][8];\n"
                   "  #pragma omp target teams distribute parallel for collapse(2) map(from: a)\n"
                   f"  for (int i = 0; i < 8; i++)\n    {inner}\n      a[i][j] = i + j;\n  return 0;\n}}\n")
    assert main(["cc", "--emit-cuda", str(src), "-o", str(tmp_path / "tri.cu")]) == 0
    cu = (tmp_path / "tri.cu").read_text()
    assert "for (int j = " in cu and "ompgpu_nest_split" not in cu  # the inner loop as a loop of its own


def test_clang_and_gcc_offload_flags_of_a_makefile_are_understood():
    o = parse_cc_args(["-fopenmp", "-fopenmp-targets=nvptx64-nvidia-cuda", "-Xopenmp-target", "-march=sm_80",
                       "-foffload=nvptx-none", "-foffload-options=-lm", "-fPIC", "-Wl,-rpath,/opt/x", "-Xlinker",
                       "--as-needed", "-MMD", "-MP", "-MF", "dep.d", "-MT", "obj.o", "-c", "a.c"])
    assert o.offload_arch == "sm_80" and o.pic and o.compile_only
    assert o.link_args == ["-Wl,-rpath,/opt/x", "-Xlinker", "--as-needed"]
    assert o.dependency_args("a.c") == ["-MMD", "-MF", "dep.d", "-MT", "obj.o", "-MP"]
    assert parse_cc_args(["-Xopenmp-target=nvptx64-nvidia-cuda", "-march=sm_70", "a.c"]).offload_arch == "sm_70"
    assert parse_cc_args(["-foffload=disable", "a.c"]).offload == "none"
    assert parse_cc_args(["-shared", "a.c"]).shared


def test_dependency_file_is_named_after_the_object_as_gcc_names_it():
    assert parse_cc_args(["-MD", "-c", "src/a.c", "-o", "build/a.o"]).dependency_args("src/a.c") == \
        ["-MD", "-MF", "build/a.d", "-MT", "build/a.o"]
    assert parse_cc_args(["-MMD", "-c", "src/a.c"]).dependency_args("src/a.c") == ["-MMD", "-MF", "a.d", "-MT", "a.o"]
    assert parse_cc_args(["-c", "a.c"]).dependency_args("a.c") == []


@pytest.mark.parametrize("argv, message", [
    (["-Xopenmp-target=amdgcn-amd-amdhsa", "-march=gfx90a", "a.c"], "unsupported offload target 'amdgcn-amd-amdhsa'"),
    (["-Xopenmp-target", "-O3", "a.c"], "unsupported argument '-O3' to '-Xopenmp-target'"),
    (["-Xopenmp-target", "-march=gfx90a", "a.c"], "invalid -march 'gfx90a'"),
    (["-Xopenmp-target"], "argument to '-Xopenmp-target' is missing"),
    (["-foffload=amdgcn-amdhsa", "a.c"], "unsupported offload target 'amdgcn-amdhsa'"),
])
def test_bad_offload_target_flags_are_named(argv, message):
    with pytest.raises(Exception, match=message.replace("(", r"\(")):
        parse_cc_args(argv)


def test_ompgpu_without_cc_is_the_compiler_that_wrappers_call(simple, tmp_path, capsys):
    # OMPI_CC=ompgpu mpicc ... and CC=ompgpu make call `ompgpu <gcc arguments>`; the build's
    # $CC (ompgpu itself, or a wrapper of it) must not become ompgpu's own host compiler.
    env = {**__import__("os").environ, "CC": "/bin/false", "CXX": "/bin/false"}
    r = subprocess.run([sys.executable, "-m", "ompgpu", "--offload=emu", str(simple), "-o", str(tmp_path / "s")],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert subprocess.run([str(tmp_path / "s")], capture_output=True, text=True).stdout == "63 2016\n"
    assert main(["simpel"]) == 1
    assert "unknown command 'simpel'" in capsys.readouterr().err


def test_make_dependency_file_lists_the_headers(tmp_path):
    (tmp_path / "k.h").write_text("#define N 8\n")
    (tmp_path / "k.c").write_text('#include "k.h"\nint main(void) {\n  int a[N];\n'
                                  "#pragma omp target map(from: a)\n  for (int i = 0; i < N; i++) a[i] = i;\n"
                                  "  return a[N - 1] - 7;\n}\n")
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", "-MMD", "-MP", "-c", "k.c", "-o", "obj/k.o"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode != 0   # obj/ does not exist: gcc fails the same way
    (tmp_path / "obj").mkdir()
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", "-MMD", "-MP", "-c", "k.c", "-o", "obj/k.o"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    deps = (tmp_path / "obj" / "k.d").read_text()
    assert deps.startswith("obj/k.o: k.c k.h") and "\nk.h:" in deps


def test_a_host_only_variant_called_in_a_target_region_is_an_error(tmp_path, capsys):
    """A function that only a host `begin declare variant` block defines has no device
    version: calling it in a target region is a named error, never the host's code on the GPU."""
    src = tmp_path / "v.c"
    src.write_text("#pragma omp begin declare variant match(device={kind(host)})\n"
                   "static int where(void) { return 1; }\n"
                   "#pragma omp end declare variant\n"
                   "int main(void) {\n"
                   "  int w = 0;\n"
                   "#pragma omp target map(from: w)\n"
                   "  w = where();\n"
                   "  return w;\n"
                   "}\n")
    rc = main(["cc", "--offload=emu", "--emit-cuda", str(src), "-o", str(tmp_path / "v.cu")])
    err = capsys.readouterr().err
    assert rc == 1
    assert f"{src}:1:13: error: 'where' is defined in a 'begin declare variant' block" in err, err


def test_clangs_omp_h_variants_stay_the_host_compilers(tmp_path):
    """clang's <omp.h> defines omp_is_initial_device in `begin declare variant` blocks: with
    clang as the host compiler the host keeps them as written (clang resolves them) and the
    device uses its own runtime's routine."""
    import shutil
    clang = shutil.which("clang-19") or shutil.which("clang")
    if clang is None:
        pytest.skip("no clang here")
    src = tmp_path / "iid.c"
    src.write_text("#include <omp.h>\n#include <stdio.h>\nint main(void) {\n  int d = -1;\n"
                   "#pragma omp target map(from: d)\n  d = omp_is_initial_device();\n"
                   "  printf(\"%d %d\\n\", omp_is_initial_device(), d);\n  return 0;\n}\n")
    probe = subprocess.run([clang, "-fopenmp", "-E", str(src)], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"{clang} has no <omp.h>")
    out = tmp_path / "iid.cu"
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", "--emit-cuda", str(src), "-o", str(out)],
                       capture_output=True, text=True, env={**__import__("os").environ, "OMPGPU_HOST_CC": clang})
    assert r.returncode == 0, r.stderr
    assert "return 1;" not in out.read_text()   # the host's variant never reaches the device


def test_source_bytes_that_are_not_utf8(tmp_path):
    """A Latin-1 file: its bytes reach the device code as the same bytes, written as octal escapes
    (nvcc rejects raw ones in literals), and a diagnostic on such a line is an error naming the
    line, not an internal error."""
    src = tmp_path / "latin1.c"
    src.write_bytes(b'/* caf\xe9 */\nint main(void) { int s = 0;\n#pragma omp target map(tofrom: s)\n'
                    b'{ const char w[] = "\xe9t\xe9"; s = w[0]; }\nreturn s; }\n')
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", "--emit-cuda", str(src), "-o", "-"],
                       capture_output=True)
    assert r.returncode == 0, r.stderr
    assert b'"\\351t\\351"' in r.stdout
    bad = tmp_path / "bad.c"
    bad.write_bytes(b'int main(void) { int s = 0; /* \xe9 */\n#pragma omp target map(frmo: s) /* \xe0 */\ns = 1;\nreturn s; }\n')
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", str(bad), "-o", str(tmp_path / "b")],
                       capture_output=True)
    assert r.returncode == 1 and f"{bad}:2:".encode() in r.stderr and b"internal compiler error" not in r.stderr


@pytest.mark.parametrize("argv, cpp_args", [(["-isystem", "inc"], ["-isystem", "inc"]), (["-isysteminc"], ["-isystem", "inc"]),
                                            (["-idirafter", "inc"], ["-idirafter", "inc"]),
                                            (["-iquote", "inc"], ["-iquote", "inc"])])
def test_include_directory_flags(argv, cpp_args):
    assert list(parse_cc_args([*argv, "x.c"]).cpp_args) == cpp_args


def test_time_report(simple, tmp_path):
    """-ftime-report: each phase that ran, with seconds and share, and the total, on stderr."""
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "-ftime-report", "--offload=emu", str(simple), "-o",
                        str(tmp_path / "t")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    rows = {line.split("  ")[1].strip(): line.split()[-2:] for line in r.stderr.splitlines()
            if line.startswith("  ") and line.rstrip().endswith("%")}
    for name in ("preprocess", "parse C", "bind pragmas", "generate device code", "generate host code",
                 "compile device code", "compile host code", "link", "total"):
        assert name in rows, r.stderr
    assert rows["total"][1] == "100.0%" and float(rows["total"][0]) >= float(rows["compile device code"][0]) > 0
    assert "ompgpu time report" not in subprocess.run(
        [sys.executable, "-m", "ompgpu", "cc", "--offload=emu", str(simple), "-o", str(tmp_path / "u")],
        capture_output=True, text=True).stderr
