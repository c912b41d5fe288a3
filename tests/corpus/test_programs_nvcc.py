"""Every run-and-check program also builds for the GPU (nvcc, sm_90); no GPU needed. NVRTC is
turned off here (OMPGPU_DEVICE_COMPILER=nvcc): test_programs_nvrtc.py builds them with it."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from corpus.known import KNOWN_UNSUPPORTED
from ompgpu.toolchain import find_cuda

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = sorted((ROOT / "programs").glob("*.c"))


@pytest.mark.skipif(find_cuda(required=False) is None, reason="nvcc not found")
@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_program_builds_for_the_gpu(src, tmp_path):
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload-arch=sm_90", str(src), "-o",
                        str(tmp_path / src.stem)], capture_output=True, text=True, timeout=900,
                       env=dict(os.environ, OMPGPU_DEVICE_COMPILER="nvcc"))
    if src.stem in KNOWN_UNSUPPORTED:
        assert r.returncode == 1 and KNOWN_UNSUPPORTED[src.stem] in r.stderr, r.stderr
        return
    assert r.returncode == 0, r.stderr
    assert (tmp_path / src.stem).stat().st_size > 0
