"""Tier 2: MPI + OpenMP offload with ompgpu as the compiler that Open MPI's wrapper calls
(OMPI_CC=ompgpu mpicc), run with mpirun on the emulator.

Needs Open MPI (Debian: openmpi-bin, libopenmpi-dev); .ci/run installs it where it can. Where
mpicc or mpirun is missing these tests are skipped, and the reason says what to install."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
JACOBI = REPO / "examples" / "mpi" / "jacobi.c"
PROJECT = Path(__file__).resolve().parent / "project"

pytestmark = pytest.mark.skipif(
    not (shutil.which("mpicc") and shutil.which("mpirun")),
    reason="Open MPI is not installed (apt-get install openmpi-bin libopenmpi-dev)")


def _env(**extra):
    """The wrapper calls this interpreter's ompgpu; mpirun may run as root in CI containers."""
    shim = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{shim}{os.pathsep}{os.environ.get('PATH', '')}",
           "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1", "OMP_TARGET_OFFLOAD": "MANDATORY"}
    env.update(extra)
    return env


def _run(cmd, cwd, **extra):
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=_env(**extra), timeout=300)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))}\n{r.stdout}\n{r.stderr}"
    return r


@pytest.fixture(scope="module")
def jacobi(tmp_path_factory):
    out = tmp_path_factory.mktemp("jacobi")
    # The README's command, as a user types it.
    _run(["mpicc", "--offload=emu", str(JACOBI), "-o", "jacobi", "-lm"], out, OMPI_CC="ompgpu")
    return out / "jacobi"


def test_jacobi_on_four_ranks_matches_the_serial_solution(jacobi):
    r = _run(["mpirun", "-np", "4", "--oversubscribe", str(jacobi)], jacobi.parent)
    assert "4 ranks, 256 x 256 grid" in r.stdout and "through the host" in r.stdout
    assert r.stdout.rstrip().endswith("PASS"), r.stdout


def test_jacobi_hands_device_addresses_to_mpi_and_each_rank_takes_its_gpu(jacobi):
    # The emulator's device memory is host memory, so any MPI can read device addresses: the
    # use_device_addr path runs here as it would with a CUDA-aware MPI.
    r = _run(["mpirun", "-np", "4", "--oversubscribe", str(jacobi), "128", "16", "50"], jacobi.parent,
             JACOBI_DEVICE_MPI="1", OMPGPU_EMU_DEVICES="2", OMPGPU_INFO="1")
    assert "device to device" in r.stdout and r.stdout.rstrip().endswith("PASS"), r.stdout
    picked = dict(re.findall(r"ompgpu: rank (\d) \(local rank \d\): default device (\d) of 2, from "
                             r"OMPI_COMM_WORLD_LOCAL_RANK=\d modulo 2 devices", r.stderr))
    assert picked == {"0": "0", "1": "1", "2": "0", "3": "1"}, r.stderr
    # and the kernels ran on both devices
    assert {"device 0", "device 1"} <= set(re.findall(r"kernel \S+: .*, (device \d)", r.stderr))
    assert "device of rank 0: 0 of 2" in r.stdout


def test_omp_default_device_wins_over_the_local_rank(jacobi):
    r = _run(["mpirun", "-np", "2", "--oversubscribe", str(jacobi), "64", "8", "5"], jacobi.parent,
             OMPGPU_EMU_DEVICES="2", OMPGPU_INFO="1", OMP_DEFAULT_DEVICE="1")
    assert sorted(re.findall(r"default device (\d) of 2, from (\S+)", r.stderr)) == [("1", "OMP_DEFAULT_DEVICE")] * 2
    assert "device of rank 0: 1 of 2" in r.stdout and r.stdout.rstrip().endswith("PASS")


def _heat_reference(ranks, n=1000, steps=20):
    """main.c of the project, serially in Python: total heat, peak, heat beyond rank 0."""
    cells = n * ranks
    x = [0.0] * (cells + 2)
    x[n] = 1000.0
    for _ in range(steps):
        x[0], x[cells + 1] = x[1], x[cells]
        x = [x[0]] + [x[i] + 0.25 * (x[i - 1] - 2.0 * x[i] + x[i + 1]) for i in range(1, cells + 1)] + [x[cells + 1]]
    return sum(x[1:cells + 1]), max(x[1:cells + 1]), sum(x[n + 1:cells + 1])


def test_a_clang_offload_makefile_builds_with_only_cc_changed(tmp_path):
    """The project's Makefile has clang's flags (-fopenmp --offload-arch=sm_90 -MMD -MP), a
    static library of declare target functions and a link through mpicc; make CC=mpicc with
    OMPI_CC=ompgpu builds it unchanged (--offload=emu here: no GPU in CI)."""
    shutil.copytree(PROJECT, tmp_path / "p")
    cwd = tmp_path / "p"
    _run(["make", "CC=mpicc"], cwd, OMPI_CC="ompgpu --offload=emu")
    assert (cwd / "libstencil.a").exists() and "stencil.h" in (cwd / "main.d").read_text()
    for ranks in (1, 3):
        r = _run(["mpirun", "-np", str(ranks), "--oversubscribe", "./heat"], cwd)
        m = re.fullmatch(rf"ranks {ranks} heat ([\d.]+) peak ([\d.]+) beyond rank 0 ([\d.]+)\n", r.stdout)
        assert m, r.stdout
        assert [float(v) for v in m.groups()] == pytest.approx(_heat_reference(ranks), abs=1e-6), r.stdout
    # The dependency files work: a header change rebuilds both objects.
    os.utime(cwd / "stencil.h")
    r = _run(["make", "CC=mpicc"], cwd, OMPI_CC="ompgpu --offload=emu")
    assert "-c main.c" in r.stdout and "-c stencil.c" in r.stdout
