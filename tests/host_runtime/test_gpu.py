"""The real-CUDA build of the host runtime with real kernels (support/gpu_prog.cu).
Needs an NVIDIA GPU and nvcc; skipped otherwise."""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from hostrt_build import CUDA, HOST, SUPPORT, clean_env, have_gpu

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not have_gpu(), reason="needs an NVIDIA GPU")]


@pytest.fixture(scope="module")
def gpu_prog(cuda_build):
    nvcc = shutil.which("nvcc") or str(CUDA / "bin" / "nvcc")
    if not os.path.exists(nvcc):
        pytest.skip("no nvcc")
    exe = cuda_build.parent / "gpu_prog"
    r = subprocess.run([nvcc, "-std=c++17", "-O2", "-arch=sm_90", "-I", str(HOST), str(SUPPORT / "gpu_prog.cu"),
                        str(cuda_build.parent / "libompgpu_host_cuda.a"), "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return exe


def run(exe, *args, **env):
    e = clean_env()
    e.update({k: str(v) for k, v in env.items()})
    return subprocess.run([str(exe), *args], env=e, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("scenario", ["basic", "api", "threads", "toobig"])
def test_gpu_scenario(gpu_prog, scenario):
    r = run(gpu_prog, scenario, OMP_TARGET_OFFLOAD="MANDATORY")
    assert r.returncode == 0, r.stdout + r.stderr


def test_gpu_info(gpu_prog):
    r = run(gpu_prog, "info", OMPGPU_INFO=1)
    assert r.returncode == 0, r.stderr
    out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                         text=True).stdout
    lines = r.stderr.splitlines()
    kernels = [x for x in lines if " kernel " in x]
    assert len(kernels) == 2, lines
    assert re.fullmatch(r"ompgpu: gpu\.c:12: kernel __omp_offloading_info_l12: \d+ teams x 160 threads, generic",
                        kernels[0])
    assert re.fullmatch(r"ompgpu: gpu\.c:12: kernel __omp_offloading_info_l12: \d+ teams x 256 threads, spmd",
                        kernels[1])
    if "H100" in out or "H200" in out:   # 132 SMs x 2048 threads per SM
        assert " 1584 teams x 160" in kernels[0] and " 1056 teams x 256" in kernels[1]
    assert "ompgpu: gpu.c:12: copy to device 'a[0:n]' (512 bytes)" in lines


def test_gpu_fault_note(gpu_prog):
    r = run(gpu_prog, "fault")
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stderr.splitlines()
    assert re.fullmatch(r"ompgpu: gpu\.c:12:9: error: kernel __omp_offloading_fault_l12 failed: "
                        r"cudaErrorIllegalAddress: .+", lines[0]), lines
    assert any("note: a pointer used in the target region may not be mapped" in x for x in lines), lines


def test_gpu_out_of_memory(gpu_prog):
    r = run(gpu_prog, "oom")
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stderr.splitlines()
    assert re.fullmatch(r"ompgpu: gpu\.c:10:9: error: allocation of 1125899906842624 bytes for 'huge\[0:n\]' "
                        r"failed: cudaErrorMemoryAllocation: out of memory", lines[0]), lines
    assert re.match(r"ompgpu: gpu\.c:10:9: note: out of device memory \(device 0 '.*' has \d+ bytes in total\)",
                    lines[1]), lines
