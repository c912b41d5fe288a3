"""`ompgpu doctor`: report the tools ompgpu found, so a user can see why a build fails."""
from __future__ import annotations

import shutil
import subprocess

from ompgpu import __version__
from ompgpu.toolchain import find_cuda, host_cc, host_cxx


def _first_line(cmd: list[str]) -> str | None:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (out.stdout or out.stderr).strip()
    return text.splitlines()[0] if text and out.returncode == 0 else None


def doctor() -> int:
    print(f"ompgpu {__version__}")
    ok = True
    cuda = find_cuda(required=False)
    if cuda:
        print(f"nvcc:        {cuda.nvcc} (CUDA {cuda.version()})")
    else:
        ok = False
        print("nvcc:        not found (set CUDA_HOME, put nvcc on PATH, or pip install nvidia-cuda-nvcc-cu12);"
              " --offload=emu and --offload=none still work")
    for label, tool in (("C compiler", host_cc()), ("C++ compiler", host_cxx())):
        line = _first_line([tool, "--version"])
        ok &= line is not None
        print(f"{label + ':':<13}{tool}: {line or 'not found'}")
    gpu = None
    if shutil.which("nvidia-smi"):
        gpu = _first_line(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"])
    print(f"GPU:         {gpu or 'none found (programs fall back to the host unless OMP_TARGET_OFFLOAD=MANDATORY)'}")
    try:
        import cupy  # noqa: F401

        print(f"cupy:        {cupy.__version__}")
    except Exception:  # noqa: BLE001 - any import failure means "not usable"
        print("cupy:        not installed (only needed for the Python API)")
    return 0 if ok else 1
