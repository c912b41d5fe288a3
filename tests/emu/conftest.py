"""Build helpers for the emulator tests.

Every program in tests/emu/programs/ is compiled with the host C++ compiler against the
emulator (the flags the driver uses for --offload=emu) and run on the CPU. With
OMPGPU_EMU_TEST_CUDA=1 (on a machine with an NVIDIA GPU) the portable programs are also
built with nvcc and run natively, with the same assertions; that is how the emulator's
semantics are checked against the hardware.
"""

import os
import shutil
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = Path(__file__).resolve().parent / "programs"
# The emulator test programs are hand-written CUDA: CUDA's keywords come from cuda_source.h.
EMU_HEADER = REPO / "ompgpu" / "runtime" / "emu" / "cuda_source.h"
CXX = os.environ.get("CXX", "g++")

# What `ompgpu cc --offload=emu` uses, plus -Wall -Werror: the header must compile cleanly.
EMU_FLAGS = ["-std=c++17", "-O1", "-Wall", "-Werror", "-DOMPGPU_EMU", "-include", str(EMU_HEADER),
             "-I", str(PROGRAMS)]

# Programs built ahead (in parallel) when the session starts.
PREBUILD = ["ids", "shared", "warp", "atomics", "forkjoin", "launch_errors", "memory", "printf", "broken"]


def find_nvcc():
    nvcc = shutil.which("nvcc")
    if nvcc:
        return nvcc
    cand = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "bin" / "nvcc"
    return str(cand) if cand.exists() else None


def cuda_backend_enabled():
    return os.environ.get("OMPGPU_EMU_TEST_CUDA") == "1" and find_nvcc() is not None


def backends():
    """Parameters for tests of portable programs: always the emulator, the GPU on request."""
    params = [pytest.param("emu", id="emu")]
    if cuda_backend_enabled():
        params.append(pytest.param("cuda", id="cuda", marks=pytest.mark.gpu))
    return params


class Builder:
    def __init__(self, root: Path):
        self.root = root
        self.lock = threading.Lock()
        self.futures = {}
        self.pool = ThreadPoolExecutor(max_workers=max(2, min(4, os.cpu_count() or 2)))

    def _compile(self, key, cmd, exe):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"build of {key} failed:\n{' '.join(cmd)}\n{r.stdout}{r.stderr}")
        return exe

    def submit(self, name, backend="emu", extra=()):
        key = (name, backend, tuple(extra))
        with self.lock:
            if key not in self.futures:
                tag = "_".join([name, backend] + [x.strip("-").replace("=", "_") for x in extra])
                exe = self.root / tag
                src = PROGRAMS / f"{name}.cu"
                if backend == "emu":
                    cmd = [CXX, *EMU_FLAGS, *extra, "-x", "c++", str(src), "-o", str(exe), "-lpthread"]
                else:
                    cmd = [find_nvcc(), "-std=c++17", "-O2", "-arch=sm_90", "-I", str(PROGRAMS), *extra, str(src),
                           "-o", str(exe)]
                self.futures[key] = self.pool.submit(self._compile, key, cmd, exe)
            return self.futures[key]

    def build(self, name, backend="emu", extra=()):
        return self.submit(name, backend, extra).result()


@pytest.fixture(scope="session")
def builder(tmp_path_factory):
    b = Builder(tmp_path_factory.mktemp("emu_build"))
    for name in PREBUILD:
        b.submit(name)
    for name, opt in [("warp", "-O2"), ("atomics", "-O2"), ("forkjoin", "-O2"), ("forkjoin", "-O0"),
                      ("forkjoin", "-DOMPGPU_EMU_UCONTEXT"), ("forkjoin", "-fsanitize=address"),
                      ("broken", "-fsanitize=address")]:
        b.submit(name, extra=(opt,))
    if cuda_backend_enabled():
        for name in PREBUILD:
            if name != "broken":
                b.submit(name, "cuda")
    yield b
    b.pool.shutdown(wait=False, cancel_futures=True)


def run(exe, *args, env=None, timeout=60):
    full_env = dict(os.environ)
    for k in list(full_env):
        if k.startswith("OMPGPU_EMU_") and k != "OMPGPU_EMU_TEST_CUDA":
            del full_env[k]
    full_env.update(env or {})
    return subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True, env=full_env, timeout=timeout)
