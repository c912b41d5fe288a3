"""Builds the host runtime for the tests in this directory (fixtures: conftest.py).

Backends for the emulator-mode build (``-DOMPGPU_EMU -include <header>``):
  * ``emu``  - the project's emulator, ompgpu/runtime/emu/cuda_emu.h (skipped with the
               reason when it does not exist yet or does not compile);
  * ``mock`` - tests/host_runtime/support/cuda_mock.h, a small stand-in for the CUDA
               runtime subset that needs nothing else (always available).
The real-CUDA build (``-I $CUDA/include``, ``-lcudart_static``) is built by
``cuda_build`` (skipped when no CUDA toolkit is installed).
"""
from __future__ import annotations

import concurrent.futures as cf
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HOST = REPO / "ompgpu" / "runtime" / "host"
EMU_DIR = REPO / "ompgpu" / "runtime" / "emu"
EMU_HEADER = EMU_DIR / "cuda_emu.h"
SUPPORT = Path(__file__).resolve().parent / "support"
MOCK_HEADER = SUPPORT / "cuda_mock.h"
CUDA = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda"))

CXX = os.environ.get("CXX", "g++")
CC = os.environ.get("CC", "gcc")


def runtime_sources() -> list[Path]:
    return sorted(HOST.glob("*.cpp"))


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def compile_all(jobs: list[list[str]], cwd: Path) -> str | None:
    """Runs compile commands two at a time; returns the first failure's output or None."""
    with cf.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as ex:
        for cmd, r in zip(jobs, ex.map(lambda c: _run(c, cwd), jobs)):
            if r.returncode != 0:
                return f"$ {' '.join(cmd)}\n{r.stdout}{r.stderr}"
    return None


@dataclass
class Build:
    name: str
    exe: Path
    mock: bool

    def run(self, *args: str, env: dict | None = None, timeout: float = 30) -> subprocess.CompletedProcess:
        e = clean_env()
        if env:
            e.update(env)
        return subprocess.run([str(self.exe), *map(str, args)], env=e, capture_output=True, text=True,
                              timeout=timeout)


def clean_env() -> dict:
    e = {k: v for k, v in os.environ.items()
         if not (k.startswith("OMP_") or k.startswith("OMPGPU") or k.startswith("MOCK_CUDA"))}
    e["OMPGPU_EMU_SMS"] = "132"
    e["MOCK_CUDA_SMS"] = "132"
    return e


def build_emu_mode(out: Path, header: Path, extra_cpp: list[Path]) -> Build | str:
    """Runtime + support/codes.cpp + support/prog.c with `header` force-included.
    Returns the Build or the failing compiler output."""
    out.mkdir(parents=True, exist_ok=True)
    werror = ["-Werror"] if header == MOCK_HEADER else []   # the emulator header's warnings are not ours
    cxxflags = ["-std=c++17", "-O1", "-g", "-Wall", "-Wextra", *werror, "-DOMPGPU_EMU", "-include", str(header)]
    jobs, objs = [], []
    for src in runtime_sources():
        o = out / f"rt_{src.stem}.o"
        jobs.append([CXX, *cxxflags, "-c", str(src), "-o", str(o)])
        objs.append(o)
    for src in extra_cpp:   # the emulator's own sources: its warnings are not ours
        o = out / f"emu_{src.stem}.o"
        jobs.append([CXX, "-std=c++17", "-O1", "-DOMPGPU_EMU", "-include", str(header), "-I", str(header.parent),
                     "-c", str(src), "-o", str(o)])
        objs.append(o)
    o = out / "codes.o"
    jobs.append([CXX, *cxxflags, "-c", str(SUPPORT / "codes.cpp"), "-o", str(o)])
    objs.append(o)
    o = out / "prog.o"
    jobs.append([CC, "-std=c99", "-O1", "-g", "-Wall", "-Wextra", "-Werror", "-pedantic", "-pthread",
                 "-I", str(HOST), "-c", str(SUPPORT / "prog.c"), "-o", str(o)])
    objs.append(o)
    err = compile_all(jobs, out)
    if err:
        return err
    exe = out / "prog"
    r = _run([CXX, "-pthread", *map(str, objs), "-o", str(exe)], out)
    if r.returncode != 0:
        return r.stdout + r.stderr
    return Build(header.stem, exe, header == MOCK_HEADER)


def have_gpu() -> bool:
    return shutil.which("nvidia-smi") is not None and _run(["nvidia-smi", "-L"], REPO).returncode == 0
