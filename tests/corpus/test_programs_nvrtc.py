"""Every run-and-check program builds for the GPU with NVRTC compiling its device image
in-process (issue 35); no GPU needed. A program whose device code NVRTC rejects is built by
nvcc: only those listed here may be, so that NVRTC's coverage does not shrink unseen."""
from pathlib import Path

import pytest

from buildfarm import farm_result, submit_ahead
from corpus.known import KNOWN_UNSUPPORTED
from ompgpu.nvrtc import find_nvrtc

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = sorted((ROOT / "programs").glob("*.c"))

# Device code NVRTC does not compile, and why (nvcc's GNU C++ accepts it).
NVRTC_REJECTS = {
    "c_not_cpp": "a struct with a flexible array member",
}


@pytest.fixture(scope="module")
def nvrtc_builds(request, build_farm, tmp_path_factory):
    """Every selected program built by the build farm, ahead (-v: the log says who compiled it)."""
    def job(params):
        src = params["src"]
        folder = tmp_path_factory.mktemp(src.stem)
        return build_farm.submit(["cc", "-v", "--offload-arch=sm_90", src, "-o", folder / src.stem], cwd=folder)
    return submit_ahead(request, test_program_builds_with_nvrtc, job)


@pytest.mark.skipif(find_nvrtc() is None, reason="NVRTC not installed (pip install 'ompgpu[cuda]')")
@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_program_builds_with_nvrtc(src, nvrtc_builds):
    r = farm_result(nvrtc_builds, src=src).build
    if src.stem in KNOWN_UNSUPPORTED:
        assert r.returncode == 1 and KNOWN_UNSUPPORTED[src.stem] in r.stderr, r.stderr
        return
    assert r.returncode == 0, r.stderr
    rejected = "NVRTC cannot compile the device code of" in r.stderr
    assert rejected == (src.stem in NVRTC_REJECTS), r.stderr[-3000:]
