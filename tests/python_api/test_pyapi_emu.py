"""ompgpu.compile on the CPU device emulator: the real generated kernels, launched through
their `ompgpu cc` launch stubs, with the Python side's mapping and argument marshalling."""
import numpy as np
import pytest

import ompgpu
from ompgpu.python_api import CompileError, OffloadError

SAXPY = r"""
void saxpy(int n, float a, const float *x, float *y) {
  #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
"""


def emu(source, name, options=()):
    return ompgpu.compile(source, name, options, backend="emu")


def test_saxpy_numpy():
    f = emu(SAXPY, "saxpy")
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    assert f(1000, 2.0, x, y) is None
    np.testing.assert_array_equal(y, 2 * x + 1)
    assert f.kernels == ("__omp_offloading_saxpy_l3",)
    assert "__omp_offloading_saxpy_l3" in f.cuda_source


def test_section_of_the_middle_and_untouched_rest():
    src = r"""
    void mid(int lo, int n, long *a) {
      #pragma omp target teams distribute parallel for map(tofrom: a[lo:n])
      for (int i = lo; i < lo + n; i++) a[i] = a[i] * 10 + i;
    }"""
    a = np.arange(100, dtype=np.int64)
    emu(src, "mid")(20, 30, a)
    want = np.arange(100)
    want[20:50] = want[20:50] * 11
    np.testing.assert_array_equal(a, want)


def test_reduction_into_a_local_returned():
    src = r"""
    double dot(int n, const double *x, const double *y) {
      double s = 0.0;
      #pragma omp target teams distribute parallel for reduction(+: s) map(to: x[0:n], y[0:n]) map(tofrom: s)
      for (int i = 0; i < n; i++) s += x[i] * y[i];
      return s;
    }"""
    x = np.arange(513, dtype=np.float64)
    r = emu(src, "dot")(513, x, x)
    assert isinstance(r, np.float64) and r == float(np.dot(x, x))


def test_locals_with_initialisers_drive_clauses():
    src = r"""
    int count(int n, int *out) {
      int half = n / 2;
      int teams = half > 4 ? 4 : half;
      #pragma omp target teams num_teams(teams) thread_limit(64) map(from: out[0:4])
      {
        if (omp_get_team_num() == 0) { out[0] = omp_get_num_teams(); out[1] = half; }
        #pragma omp parallel
        { if (omp_get_thread_num() == 0 && omp_get_team_num() == 0) out[2] = omp_get_num_threads(); }
        out[3] = 7;
      }
      return teams * 100 + half;
    }"""
    out = np.zeros(4, dtype=np.int32)
    assert emu(src, "count")(11, out) == 405
    assert list(out) == [4, 5, 64, 7]


def test_target_data_enter_exit_and_update():
    src = r"""
    void open_(int n, double *a) {
      #pragma omp target enter data map(to: a[0:n])
    }
    void twice(int n, double *a) {
      #pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) a[i] *= 2;   /* a is present: translated, no copy */
    }
    void peek(int n, double *a) {
      #pragma omp target update from(a[0:n])
    }
    void close_(int n, double *a) {
      #pragma omp target exit data map(from: a[0:n])
    }
    void region(int n, double *a, double *b) {
      #pragma omp target data map(to: a[0:n]) map(from: b[0:n])
      {
        #pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++) b[i] = a[i] + 1;
        #pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++) b[i] *= 3;
      }
    }"""
    a = np.arange(64, dtype=np.float64)
    emu(src, "open_")(64, a)
    emu(src, "twice")(64, a)
    np.testing.assert_array_equal(a, np.arange(64))  # still only on the device
    emu(src, "peek")(64, a)
    np.testing.assert_array_equal(a, 2 * np.arange(64))
    emu(src, "twice")(64, a)
    emu(src, "close_")(64, a)
    np.testing.assert_array_equal(a, 4 * np.arange(64))
    b = np.zeros(64)
    emu(src, "region")(64, a, b)
    np.testing.assert_array_equal(b, 3 * (4 * np.arange(64) + 1))


def test_scalars_firstprivate_and_mapped_from():
    src = r"""
    long f(int k, long *out) {
      long r = 0;
      #pragma omp target map(from: r) map(from: out[0:1])
      { r = k * 3; out[0] = k + 1; }
      return r;
    }"""
    out = np.zeros(1, dtype=np.int64)
    assert emu(src, "f")(14, out) == 42 and out[0] == 15


def test_launch_geometry_follows_the_host_runtime(monkeypatch):
    src = r"""
    void g(int *o) {
      #pragma omp target teams map(from: o[0:2])
      { if (omp_get_team_num() == 0) { o[0] = omp_get_num_teams(); }
        #pragma omp parallel
        { if (omp_get_team_num() == 0 && omp_get_thread_num() == 0) o[1] = omp_get_num_threads(); } }
    }"""
    o = np.zeros(2, dtype=np.int32)
    monkeypatch.setenv("OMP_NUM_TEAMS", "3")
    monkeypatch.setenv("OMP_TEAMS_THREAD_LIMIT", "96")
    emu(src, "g")(o)
    assert list(o) == [3, 96]


def test_unmapped_numpy_array_is_an_error():
    src = r"""
    void g(int n, int *p) {
      #pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) p[i] = i;
    }"""
    with pytest.raises(OffloadError, match=r"<string>:3:\d+: error: target region uses 'p'.*not mapped"):
        emu(src, "g")(4, np.zeros(4, dtype=np.int32))


def test_argument_checks():
    f = emu(SAXPY, "saxpy")
    x = np.zeros(10, dtype=np.float32)
    with pytest.raises(TypeError, match="dtype float32, got float64"):
        f(10, 1.0, np.zeros(10), x)
    with pytest.raises(TypeError, match="takes an integer"):
        f(10.0, 1.0, x, x)
    with pytest.raises(OffloadError, match=r"extends past the end of the array passed as 'x' \(10 elements\)"):
        f(11, 1.0, x, x)
    with pytest.raises(ValueError, match="not C-contiguous"):
        f(5, 1.0, x[::2], x[:5])
    with pytest.raises(TypeError, match="missing argument"):
        f(10, 1.0, x)
    f(n=10, a=1.0, x=x, y=x)  # keywords work


def test_errors_point_into_the_string():
    with pytest.raises(CompileError) as e:
        emu("void f(int n, double *a) {\n  #pragma omp target map(tofro: a[0:n])\n  a[0] = 1;\n}\n", "f")
    assert str(e.value).startswith("<string>:2:31: error: unknown map type 'tofro'")
    assert str(e.value).splitlines()[1] == "  #pragma omp target map(tofro: a[0:n])"
    with pytest.raises(CompileError) as e:
        emu("struct s { int v; };\nint f(struct s p) { return p.v; }\n", "f")
    assert str(e.value).startswith("<string>:2:5: error: parameter 'p' of 'f' cannot be passed from Python")
    with pytest.raises(CompileError) as e:
        ompgpu.compile("int f(int x) { return x +; }", "f", backend="emu", filename="mine.c")
    assert str(e.value).startswith("mine.c:1:")
    with pytest.raises(CompileError, match="no function named 'h'"):
        emu(SAXPY, "h")


def test_options_reach_the_preprocessor():
    src = "void f(int *o) {\n#pragma omp target map(from: o[0:1])\n  o[0] = VALUE;\n}\n"
    o = np.zeros(1, dtype=np.int32)
    emu(src, "f", ("-DVALUE=17",))(o)
    assert o[0] == 17
    with pytest.raises(Exception, match="not accepted"):
        emu(src, "f", ("-o", "x"))


def test_module_is_cached(monkeypatch):
    from ompgpu.python_api import build

    emu(SAXPY, "saxpy")
    def not_again(*_):
        raise RuntimeError("the cached module was not used")

    monkeypatch.setattr(build, "translate", not_again)
    monkeypatch.setattr(build, "compile_and_link", not_again)
    f = emu(SAXPY, "saxpy")
    y = np.ones(3, dtype=np.float32)
    f(3, 1.0, np.ones(3, dtype=np.float32), y)
    assert list(y) == [2, 2, 2]
    with pytest.raises(RuntimeError, match="the cached module was not used"):
        emu(SAXPY.replace("a * x[i]", "x[i] * a"), "saxpy")  # another source: not in the cache


def test_cached_module_loads_without_the_compiler(tmp_path):
    """A process that compiles a source it compiled before finds it in the direct cache: no
    preprocessor, no compiler import; editing a header it includes builds it again."""
    import os
    import subprocess
    import sys

    (tmp_path / "scale.h").write_text("#define SCALE 2\n")
    script = tmp_path / "call.py"
    script.write_text(
        "import sys, numpy as np, ompgpu\n"
        "src = '#include \"scale.h\"\\nvoid f(int *o) {\\n#pragma omp target map(from: o[0:1])\\n  o[0] = SCALE;\\n}\\n'\n"
        "f = ompgpu.compile(src, 'f', backend='emu')\n"
        "o = np.zeros(1, dtype=np.int32)\n"
        "f(o)\n"
        "print(int(o[0]), 'ompgpu.driver' in sys.modules, 'pycparser' in sys.modules)\n")

    def run():
        proc = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                              env=os.environ, timeout=600)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split()

    assert run() == ["2", "True", "True"]     # built: the compiler ran
    assert run() == ["2", "False", "False"]   # found: it was not even imported
    (tmp_path / "scale.h").write_text("#define SCALE 3 /* edited */\n")
    assert run() == ["3", "True", "True"]
    assert run() == ["3", "False", "False"]


def test_modules_load_beside_an_older_libgomp(tmp_path):
    """A process that loaded another libgomp.so.1 first (PyTorch's wheels bring an older one)
    still loads modules whose host code needs newer OpenMP entry points (GOMP_teams4, GOMP_5.1,
    for the host fallback of `target teams`): they link gcc's libgomp under a soname of its own."""
    import os
    import subprocess
    import sys

    from ompgpu.toolchain import host_compiler_identity, host_cxx

    if (host_compiler_identity(host_cxx()) or ("", 0))[0] != "gcc":
        pytest.skip("the host compiler is not gcc: modules use its own OpenMP runtime")
    old = tmp_path / "libgomp.so.1"   # a libgomp.so.1 that defines no version at all
    (tmp_path / "old.c").write_text("int omp_get_max_threads(void) { return 1; }\n")
    subprocess.run(["gcc", "-shared", "-fPIC", "-Wl,-soname,libgomp.so.1", str(tmp_path / "old.c"), "-o", str(old)],
                   check=True)
    script = (f"import ctypes, numpy as np, ompgpu\nctypes.CDLL({str(old)!r}, mode=ctypes.RTLD_GLOBAL)\n"
              f"f = ompgpu.compile({SAXPY!r}, 'saxpy', backend='emu')\n"
              "y = np.ones(4, np.float32)\nf(4, 2.0, np.arange(4, dtype=np.float32), y)\nprint(y.tolist())\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=os.environ, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[1.0, 3.0, 5.0, 7.0]"


def test_calls_written_in_c_and_their_fallback(monkeypatch):
    """Where Python has its headers, each function is a callable written in C (pycall.c.j2);
    arguments it does not take itself (keywords, NumPy scalars, ints out of range, wrong
    arrays) go to the call Python writes, which converts or says what is wrong. Without the
    headers every call is that one: the same results and errors."""
    import types

    from ompgpu.python_api import cache

    def exercise(f):
        x = np.arange(6, dtype=np.float32)
        y = np.ones(6, dtype=np.float32)
        f(6, 2.0, x, y)                                  # the common path
        f(n=6, a=np.float32(1.0), x=x, y=y)              # keywords, a NumPy scalar
        f(np.int64(6), 1, x, y)                          # a NumPy int, an int for a float
        np.testing.assert_array_equal(y, 4 * x + 1)
        with pytest.raises(OverflowError, match=r"argument 'n' \(int\): 4294967296 is out of range"):
            f(1 << 32, 1.0, x, y)
        with pytest.raises(TypeError, match=r"argument 'y' \(float \*\) needs an array of dtype float32, got float64"):
            f(6, 1.0, x, np.ones(6))
        with pytest.raises(TypeError, match=r"argument 'n' \(int\) takes an integer, not 2.5"):
            f(2.5, 1.0, x, y)

    has_headers = cache.python_include() is not None
    f = emu(SAXPY, "saxpy")
    assert isinstance(f._call, types.BuiltinFunctionType) == has_headers
    exercise(f)
    monkeypatch.setattr(cache, "python_include", lambda: None)   # a Python without its headers
    g = emu(SAXPY, "saxpy")
    assert not isinstance(g._call, types.BuiltinFunctionType) and g.module.key != f.module.key
    exercise(g)
