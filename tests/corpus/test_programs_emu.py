"""Tier 2: every run-and-check program, compiled by `ompgpu cc --offload=emu`, runs its
target regions through the device emulator on the CPU and prints the expected output, in
both execution modes: `--mode=auto` (SPMD wherever the planner proves it legal) and
`--mode=generic` (every kernel warp-specialized). OMPGPU_TEST_MODES (a space-separated subset,
default both) selects the modes: CI's other host compilers split the modes between them."""
import os
from pathlib import Path

import pytest

from buildfarm import farm_result, submit_ahead
from corpus.known import HOST_COMPILER_GAPS, KNOWN_UNSUPPORTED
from ompgpu.toolchain import host_cc, host_compiler_identity

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = sorted((ROOT / "programs").glob("*.c"))
# What this run's host compiler ($OMPGPU_HOST_CC) cannot compile (see HOST_COMPILER_GAPS).
GAPS = HOST_COMPILER_GAPS.get(host_compiler_identity(host_cc()) or ("", 0), {})
MODES = os.environ.get("OMPGPU_TEST_MODES", "auto generic").split()
if not MODES or set(MODES) - {"auto", "generic"}:
    raise ValueError(f"OMPGPU_TEST_MODES={os.environ['OMPGPU_TEST_MODES']!r}: a subset of 'auto generic'")


@pytest.fixture(scope="module")
def emulated_runs(request, build_farm, tmp_path_factory):
    """Every selected program built (and, where it built, run) by the build farm, ahead."""
    def job(params):
        src, mode = params["src"], params["mode"]
        folder = tmp_path_factory.mktemp(f"{src.stem}-{mode}")
        exe = folder / src.stem
        return build_farm.submit(["cc", "--offload=emu", f"--mode={mode}", src, "-o", exe], cwd=folder, run=[exe],
                                 run_env=dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY"))
    return submit_ahead(request, test_program_under_emulator, job)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_program_under_emulator(src, mode, emulated_runs):
    job = farm_result(emulated_runs, src=src, mode=mode)
    b, r = job.build, job.run
    if src.stem in KNOWN_UNSUPPORTED:  # must be the named error, never a build of wrong code
        assert b.returncode == 1 and KNOWN_UNSUPPORTED[src.stem] in b.stderr, b.stderr
        return
    kind, lacks = GAPS.get(src.stem, (None, None))
    if kind == "host code":  # the host compiler rejects it: an error, never a build (and the list stays true)
        assert b.returncode == 1 and f"compiling the host code of {src} failed ({host_cc()}" in b.stderr, \
            f"{src.stem} is listed as needing {lacks}, which {host_cc()} lacks:\n{b.stderr}"
        return
    if kind == "runtime":
        pytest.skip(f"{host_cc()}: {lacks}")
    assert b.returncode == 0, b.stderr
    assert r.returncode == 0, r.stderr
    assert r.stdout == src.with_suffix(".expected").read_text()
