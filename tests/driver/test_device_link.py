"""Relocatable device code without nvcc (issue 35): NVRTC compiles it with -rdc into the object
(section .ompgpu_rdc), the link joins every object's and static library's with nvJitLink into
one image under __ompgpu_linked_image, which the host code of each of those files names (weak).
OMPGPU_DEVICE_LINKER=nvjitlink chooses this path where nvcc is installed too. Tier 2 builds and
links (no GPU needed); tier 3 (gpu) runs the programs."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ompgpu.device_image import RELOCATABLE_IMAGE_SECTION, relocatable_images
from ompgpu.nvjitlink import find_nvjitlink
from ompgpu.nvrtc import find_nvrtc

HERE = Path(__file__).resolve().parents[1] / "separate"
EXPECTED = "scale 1.0 15.0 squared 1 50 lib 45 main 5\n"
ENV = {**os.environ, "OMPGPU_DEVICE_LINKER": "nvjitlink"}

pytestmark = [pytest.mark.skipif(find_nvrtc() is None or find_nvjitlink() is None, reason="needs NVRTC and nvJitLink"),
              pytest.mark.toolchain]   # builds and links programs (pyproject's markers)


def _cc(*args, cwd, ok=True):
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", *args], capture_output=True, text=True, cwd=cwd, env=ENV)
    if ok:
        assert r.returncode == 0, r.stderr
    return r


def _kernels_and_functions(cubin: bytes) -> set[str]:
    return {m.decode() for m in re.findall(rb"(__omp_offloading_\w+|_ZN11ompgpu_user\w+)\0", cubin)}


def _build_library(tmp_path: Path) -> None:
    _cc("-c", str(HERE / "vecmath.c"), "-o", "vecmath.o", cwd=tmp_path)
    subprocess.run(["ar", "rcs", "libvecmath.a", "vecmath.o"], check=True, cwd=tmp_path)
    _cc("-c", str(HERE / "main.c"), "-o", "main.o", cwd=tmp_path)


def test_relocatable_device_code_is_kept_in_the_object_and_linked_once(tmp_path):
    _build_library(tmp_path)
    # each object: one relocatable cubin in its section, no nvcc device code, the linked image named weakly
    for obj in ("vecmath.o", "main.o"):
        cubins = relocatable_images(tmp_path / obj)
        assert len(cubins) == 1 and cubins[0].startswith(b"\x7fELF"), obj
        sections = subprocess.run(["objdump", "-h", obj], capture_output=True, text=True, cwd=tmp_path).stdout
        assert RELOCATABLE_IMAGE_SECTION.decode() in sections and "__nv_relfatbin" not in sections
        symbols = subprocess.run(["nm", obj], capture_output=True, text=True, cwd=tmp_path).stdout
        assert re.search(r"^\s+[vw] __ompgpu_linked_image$", symbols, re.M), symbols
    assert len(relocatable_images(tmp_path / "libvecmath.a")) == 1
    # the library's functions are defined in its cubin, main's calls them
    assert "_ZN11ompgpu_user5scaleEd" in _kernels_and_functions(relocatable_images(tmp_path / "vecmath.o")[0])
    # the link: one image, every kernel of both files in it, and no nvcc device link
    r = _cc("-v", "main.o", "-L.", "-lvecmath", "-o", "prog", cwd=tmp_path)
    assert "nvJitLink" in r.stderr and "-dlink" not in r.stderr
    symbols = subprocess.run(["nm", "prog"], capture_output=True, text=True, cwd=tmp_path).stdout
    # defined in the program (read-only data, hidden: gold, where installed, makes it local)
    assert re.search(r" [rR] __ompgpu_linked_image$", symbols, re.M)
    linked = find_nvjitlink().link([("main", relocatable_images(tmp_path / "main.o")[0]),
                                    ("lib", relocatable_images(tmp_path / "libvecmath.a")[0])], "sm_90")
    names = _kernels_and_functions(linked)
    assert {"__omp_offloading_main_l13", "__omp_offloading_main_l18", "__omp_offloading_lib_sum_l11"} <= names
    # in one step, the library after the source file
    _cc(str(HERE / "main.c"), "libvecmath.a", "-o", "prog1", cwd=tmp_path)


def test_objects_combined_by_ld_r_keep_every_image(tmp_path):
    _build_library(tmp_path)
    subprocess.run(["ld", "-r", "vecmath.o", "main.o", "-o", "both.o"], check=True, cwd=tmp_path)
    cubins = relocatable_images(tmp_path / "both.o")
    assert len(cubins) == 2 and all(c.startswith(b"\x7fELF") for c in cubins)
    assert {bytes(c) for c in cubins} == {relocatable_images(tmp_path / o)[0] for o in ("vecmath.o", "main.o")}


def test_a_device_function_no_object_defines_is_a_link_error(tmp_path):
    _cc("-c", str(HERE / "main.c"), "-o", "main.o", cwd=tmp_path)
    (tmp_path / "lib_sum.c").write_text("int lib_sum(int n) { return n; }\n")
    r = _cc("main.o", str(tmp_path / "lib_sum.c"), "-o", "prog", cwd=tmp_path, ok=False)
    assert r.returncode != 0
    assert "linking the device code failed" in r.stderr and "scale" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.gpu
def test_linked_images_run_on_the_gpu(tmp_path):
    _build_library(tmp_path)
    _cc("main.o", "-L.", "-lvecmath", "-o", "prog", cwd=tmp_path)
    _cc(str(HERE / "main.c"), "libvecmath.a", "-o", "prog1", cwd=tmp_path)
    for exe in ("prog", "prog1"):
        r = subprocess.run([str(tmp_path / exe)], capture_output=True, text=True, timeout=300,
                           env={**os.environ, "OMP_TARGET_OFFLOAD": "MANDATORY"})
        assert r.returncode == 0, r.stderr
        assert r.stdout == EXPECTED
