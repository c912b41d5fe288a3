"""Tier 2: separate compilation as a Makefile or an MPI wrapper does it: `ompgpu cc -c` per
file, `ar` for a static library of declare target functions, then a link that calls them from
target regions (relocatable device code, device-linked). Runs under the emulator; the CUDA
build is linked too (nvcc, no GPU needed)."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ompgpu.toolchain import find_cuda

pytestmark = pytest.mark.toolchain   # builds and links programs (pyproject's markers)

HERE = Path(__file__).resolve().parents[1] / "separate"
EXPECTED = "scale 1.0 15.0 squared 1 50 lib 45 main 5\n"


def _cc(*args, cwd):
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", *args], capture_output=True, text=True, cwd=cwd)
    assert r.returncode == 0, r.stderr
    return r


@pytest.mark.parametrize("offload", ["emu", "cuda"])
def test_static_library_of_device_functions(tmp_path, offload):
    if offload == "cuda" and find_cuda(required=False) is None:
        pytest.skip("no nvcc")
    _cc(f"--offload={offload}", "-c", str(HERE / "vecmath.c"), "-o", "vecmath.o", cwd=tmp_path)
    subprocess.run(["ar", "rcs", "libvecmath.a", "vecmath.o"], check=True, cwd=tmp_path)
    _cc(f"--offload={offload}", "-c", str(HERE / "main.c"), "-o", "main.o", cwd=tmp_path)
    _cc(f"--offload={offload}", "main.o", "-L.", "-lvecmath", "-o", "prog", cwd=tmp_path)
    # and in one step, the library after the source file
    _cc(f"--offload={offload}", str(HERE / "main.c"), "libvecmath.a", "-o", "prog1", cwd=tmp_path)
    if offload == "emu":
        for exe in ("prog", "prog1"):
            r = subprocess.run([str(tmp_path / exe)], capture_output=True, text=True,
                               env={"OMP_TARGET_OFFLOAD": "MANDATORY"})
            assert r.returncode == 0, r.stderr
            assert r.stdout == EXPECTED


def test_calling_an_undeclared_external_function_is_a_named_error(tmp_path):
    src = tmp_path / "u.c"
    src.write_text("double scale(double);\nint main(void) {\n  double x = 1;\n"
                   "#pragma omp target map(tofrom: x)\n  x = scale(x);\n  return (int)x;\n}\n")
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", str(src), "-o", str(tmp_path / "u")],
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert f"{src}:5:7: error: function 'scale' is called in device code but has no definition in this file" in r.stderr
    assert "declare it inside '#pragma omp declare target'" in r.stderr


@pytest.mark.parametrize("offload", ["emu", "cuda"])
def test_shared_object_with_target_regions_shares_the_data_environment(tmp_path, offload):
    """-fPIC -shared: a library whose target region finds the caller's mapped array present.
    One host runtime per process: the executable's and the library's copies of it resolve to
    one (ELF interposition), so `x` is mapped once and the library does not copy it."""
    if offload == "cuda" and find_cuda(required=False) is None:
        pytest.skip("no nvcc")
    _cc(f"--offload={offload}", "-fPIC", "-shared", str(HERE / "scale_lib.c"), "-o", "libscale.so", cwd=tmp_path)
    _cc(f"--offload={offload}", str(HERE / "scale_main.c"), "-L.", "-lscale", "-Wl,-rpath,$ORIGIN", "-o", "prog",
        cwd=tmp_path)
    if offload == "emu":
        r = subprocess.run([str(tmp_path / "prog")], capture_output=True, text=True,
                           env={"OMP_TARGET_OFFLOAD": "MANDATORY", "OMPGPU_INFO": "1"})
        assert r.returncode == 0, r.stderr
        # (0 + 1) * 2 + 1 and (99 + 1) * 2 + 1: had the library mapped x again, it would have
        # scaled the host's stale copy.
        assert r.stdout == "3 201\n"
        assert "scale_lib.c" in r.stderr   # the library's kernel ran on the device
