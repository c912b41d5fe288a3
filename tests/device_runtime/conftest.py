"""Fixtures for the device-runtime tests: nvcc, the emulator header, GPU detection."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEVICE_RT = ROOT / "ompgpu" / "runtime" / "device"
EMU_DIR = ROOT / "ompgpu" / "runtime" / "emu"
PROGS = Path(__file__).resolve().parent / "progs"


def find_nvcc() -> str | None:
    cands = []
    if os.environ.get("CUDA_HOME"):
        cands.append(Path(os.environ["CUDA_HOME"]) / "bin" / "nvcc")
    w = shutil.which("nvcc")
    if w:
        cands.append(Path(w))
    cands.append(Path("/usr/local/cuda/bin/nvcc"))
    for c in cands:
        if c.is_file() and os.access(c, os.X_OK):
            return str(c)
    return None


_gpu_cache: list[bool] = []


def have_gpu() -> bool:
    """True when nvidia-smi lists at least one GPU."""
    if not _gpu_cache:
        ok = False
        smi = shutil.which("nvidia-smi")
        if smi:
            try:
                r = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
                ok = r.returncode == 0 and "GPU" in r.stdout
            except (OSError, subprocess.TimeoutExpired):
                ok = False
        _gpu_cache.append(ok)
    return _gpu_cache[0]


def pytest_runtest_setup(item):
    if "gpu" in item.keywords and not have_gpu():
        pytest.skip("no NVIDIA GPU (nvidia-smi lists none)")


@pytest.fixture(scope="session")
def nvcc() -> str:
    n = find_nvcc()
    if not n:
        pytest.skip("nvcc not found (set CUDA_HOME or put nvcc on PATH)")
    return n
