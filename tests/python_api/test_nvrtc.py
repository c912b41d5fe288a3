"""The NVRTC variant of the generated code compiles with the real NVRTC (no GPU needed).

Runs where libnvrtc is found ($OMPGPU_NVRTC_LIBRARY, the loader's path, or the pip wheel
nvidia-cuda-nvrtc); skipped elsewhere. Every run-and-check program's kernels go through
NVRTC with the options and stand-in headers the CuPy backend uses.
"""
import ctypes
import ctypes.util
import glob
import os
import site
from pathlib import Path

import pytest

from ompgpu.codegen.device import generate_device
from ompgpu.outliner.outline import outline
from ompgpu.parser.bind import bind_pragmas
from ompgpu.parser.cfront import parse_c, preprocess
from ompgpu.python_api.backends import nvrtc_options, render
from ompgpu.toolchain import host_cc

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"
# c_not_cpp: a flexible array member (a GNU extension nvcc accepts and NVRTC does not);
# struct_members: a map the compiler rejects for every backend.
NOT_FOR_NVRTC = {"c_not_cpp", "struct_members"}


def _nvrtc():
    cands = [os.environ.get("OMPGPU_NVRTC_LIBRARY"), ctypes.util.find_library("nvrtc")]
    for sp in site.getsitepackages() + [site.getusersitepackages()]:
        cands += glob.glob(os.path.join(sp, "nvidia", "cu1*", "lib", "libnvrtc.so.*"))
        cands += glob.glob(os.path.join(sp, "nvidia", "cuda_nvrtc", "lib", "libnvrtc.so.*"))
    for c in filter(None, cands):
        try:
            return ctypes.CDLL(c)
        except OSError:
            continue
    return None


NVRTC = _nvrtc()
pytestmark = pytest.mark.skipif(NVRTC is None, reason="libnvrtc not found")


def nvrtc_compile(src: str, options: list[str]) -> tuple[int, str]:
    prog = ctypes.c_void_p()
    assert NVRTC.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"prog.cu", 0, None, None) == 0
    opts = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
    rc = NVRTC.nvrtcCompileProgram(prog, len(options), opts)
    n = ctypes.c_size_t()
    NVRTC.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    log = ctypes.create_string_buffer(n.value)
    NVRTC.nvrtcGetProgramLog(prog, log)
    NVRTC.nvrtcDestroyProgram(ctypes.byref(prog))
    return rc, log.value.decode(errors="replace")


@pytest.mark.parametrize("name", sorted(p.stem for p in PROGRAMS.glob("*.c") if p.stem not in NOT_FOR_NVRTC))
def test_program_kernels_compile_with_nvrtc(name):
    program = outline(bind_pragmas(parse_c(preprocess(str(PROGRAMS / f"{name}.c"), host_cc()))))
    src = render("nvrtc_module.cu.j2", filename=name, device_cu=generate_device(program, nvrtc=True).cuda)
    rc, log = nvrtc_compile(src, nvrtc_options("sm_90"))
    assert rc == 0, log
