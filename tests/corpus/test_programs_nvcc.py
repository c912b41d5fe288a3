"""Every run-and-check program also builds for the GPU (nvcc, sm_90); no GPU needed. NVRTC is
turned off here (OMPGPU_DEVICE_COMPILER=nvcc): test_programs_nvrtc.py builds them with it."""
import os
from pathlib import Path

import pytest

from buildfarm import farm_result, submit_ahead
from corpus.known import KNOWN_UNSUPPORTED
from ompgpu.toolchain import find_cuda

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = sorted((ROOT / "programs").glob("*.c"))


@pytest.fixture(scope="module")
def nvcc_builds(request, build_farm, tmp_path_factory):
    """Every selected program built by the build farm, ahead, with nvcc compiling the device code."""
    def job(params):
        src = params["src"]
        folder = tmp_path_factory.mktemp(src.stem)
        return build_farm.submit(["cc", "--offload-arch=sm_90", src, "-o", folder / src.stem], cwd=folder,
                                 env=dict(os.environ, OMPGPU_DEVICE_COMPILER="nvcc"))
    return submit_ahead(request, test_program_builds_for_the_gpu, job)


@pytest.mark.skipif(find_cuda(required=False) is None, reason="nvcc not found")
@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_program_builds_for_the_gpu(src, nvcc_builds):
    r = farm_result(nvcc_builds, src=src).build
    if src.stem in KNOWN_UNSUPPORTED:
        assert r.returncode == 1 and KNOWN_UNSUPPORTED[src.stem] in r.stderr, r.stderr
        return
    assert r.returncode == 0, r.stderr
    exe = Path(r.args[r.args.index("-o") + 1])
    assert exe.stat().st_size > 0
