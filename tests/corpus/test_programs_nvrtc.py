"""Every run-and-check program builds for the GPU with NVRTC compiling its device image
in-process (issue 35); no GPU needed. A program whose device code NVRTC rejects is built by
nvcc: only those listed here may be, so that NVRTC's coverage does not shrink unseen."""
import subprocess
import sys
from pathlib import Path

import pytest

from corpus.known import KNOWN_UNSUPPORTED
from ompgpu.nvrtc import find_nvrtc

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = sorted((ROOT / "programs").glob("*.c"))

# Device code NVRTC does not compile, and why (nvcc's GNU C++ accepts it).
NVRTC_REJECTS = {
    "c_not_cpp": "a struct with a flexible array member",
}


@pytest.mark.skipif(find_nvrtc() is None, reason="NVRTC not installed (pip install 'ompgpu[cuda]')")
@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_program_builds_with_nvrtc(src, tmp_path):
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "-v", "--offload-arch=sm_90", str(src), "-o",
                        str(tmp_path / src.stem)], capture_output=True, text=True, timeout=900)
    if src.stem in KNOWN_UNSUPPORTED:
        assert r.returncode == 1 and KNOWN_UNSUPPORTED[src.stem] in r.stderr, r.stderr
        return
    assert r.returncode == 0, r.stderr
    rejected = "NVRTC cannot compile the device code of" in r.stderr
    assert rejected == (src.stem in NVRTC_REJECTS), r.stderr[-3000:]
