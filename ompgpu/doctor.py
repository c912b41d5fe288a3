"""`ompgpu doctor`: report the tools ompgpu found, so a user can see why a build fails."""
from __future__ import annotations

import re
import shutil
import subprocess
from importlib import metadata

from ompgpu import __version__
from ompgpu.errors import ToolchainError
from ompgpu.nvjitlink import find_nvjitlink
from ompgpu.nvrtc import find_nvrtc
from ompgpu.toolchain import find_cuda, find_cuda_runtime, host_cc, host_compiler_support, host_cxx


def _first_line(cmd: list[str]) -> str | None:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (out.stdout or out.stderr).strip()
    return text.splitlines()[0] if text and out.returncode == 0 else None


# The pycparser releases CI tests: the oldest that pyproject allows and the newest we have run.
PYCPARSER_TESTED = ("3.0", "3.12")


def _version_key(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", v)[:3])


def python_packages() -> tuple[list[str], bool]:
    """One line per Python package the compiler needs, and whether all of them are usable."""
    lines, ok = [], True
    for name in ("pycparser", "lark", "jinja2"):
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            lines.append(f"{name + ':':<14}not installed (pip install -e . installs it)")
            ok = False
            continue
        note = ""
        if name == "pycparser":
            low, high = PYCPARSER_TESTED
            if _version_key(version) < _version_key(low) or _version_key(version)[0] != _version_key(low)[0]:
                note = f" (outside the supported range {low} .. {high}: pip install 'pycparser>={low},<4')"
                ok = False
            elif _version_key(version) > _version_key(high):
                note = f" (newer than the newest tested, {high}: if compiles fail, pip install 'pycparser=={high}')"
            else:
                note = f" (tested range {low} .. {high})"
        lines.append(f"{name + ':':<14}{version}{note}")
    return lines, ok


def doctor() -> int:
    print(f"ompgpu {__version__}")
    lines, ok = python_packages()
    for line in lines:
        print(line)
    # The device compilers: NVRTC in-process for a file's device image, nvcc for relocatable
    # device code (-c, calls between files) and for what NVRTC rejects; without nvcc, NVRTC and
    # nvJitLink for relocatable device code.
    nvrtc, cuda, nvjitlink = find_nvrtc(), find_cuda(required=False), find_nvjitlink()
    if nvrtc:
        print(f"NVRTC:        {nvrtc.path} (CUDA {nvrtc.version()}): compiles each file's device code in-process")
    else:
        print("NVRTC:        not found (pip install 'ompgpu[cuda]'): nvcc compiles all device code")
    if cuda:
        print(f"nvcc:         {cuda.nvcc} (CUDA {cuda.version()})")
    else:
        print("nvcc:         not found (set CUDA_HOME, put nvcc on PATH, or pip install nvidia-cuda-nvcc): "
              + ("NVRTC and nvJitLink build everything but device code with a flexible array member "
                 "(NVRTC rejects `T a[];` in a struct)" if nvrtc and nvjitlink else
                 "builds with -c and device calls between files need it, or nvJitLink" if nvrtc else
                 "no device compiler; --offload=emu and --offload=none still work"))
    if nvjitlink:
        print(f"nvJitLink:    {nvjitlink.path}: links relocatable device code (-c, calls between files)"
              + (" where there is no nvcc" if cuda else ""))
    else:
        print("nvJitLink:    not found (pip install 'ompgpu[cuda]')" + ("" if cuda else
              ": relocatable device code (-c, calls between files) needs it or nvcc"))
    try:
        runtime = find_cuda_runtime()
        print(f"CUDA runtime: {runtime.include.parent}")
    except ToolchainError as exc:
        runtime = None
        print(f"CUDA runtime: not found ({exc.message})")
    ok &= runtime is not None and (nvrtc is not None or cuda is not None)
    for label, tool in (("C compiler", host_cc()), ("C++ compiler", host_cxx())):
        line = _first_line([tool, "--version"])
        ok &= line is not None
        print(f"{label + ':':<14}{tool}: {line or 'not found'}")
        if line is not None:
            print(f"{'':<14}{host_compiler_support(tool)}")
    gpu = None
    if shutil.which("nvidia-smi"):
        gpu = _first_line(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"])
    print(f"GPU:          {gpu or 'none found (programs fall back to the host unless OMP_TARGET_OFFLOAD=MANDATORY)'}")
    try:
        import cupy  # noqa: F401

        print(f"cupy:         {cupy.__version__}")
    except Exception:  # noqa: BLE001 - any import failure means "not usable"
        print("cupy:         not installed (only to pass device arrays to the Python API: pip install 'ompgpu[gpu]')")
    return 0 if ok else 1
