"""The CuPy backend against a fake CuPy (no GPU): what is compiled with which options, what
is copied, and exactly what each kernel is launched with."""
import sys

import numpy as np
import pytest

import ompgpu
from ompgpu.python_api import backends

from .fake_cupy import FakeDeviceArray, Recorder, view

SAXPY = r"""
void saxpy(int n, float a, const float *x, float *y) {
  #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
"""
KERNEL = "__omp_offloading_saxpy_l3"


def saxpy_kernel(n, a, x, y):
    """What the generated kernel does, on the fake device memory."""
    assert (type(n), type(a), type(x), type(y)) == (np.int32, np.float32, np.uint64, np.uint64)
    xv, yv = view(int(x), np.float32, int(n)), view(int(y), np.float32, int(n))
    yv[:] = a * xv + yv


@pytest.fixture
def fake(monkeypatch, tmp_path):
    monkeypatch.setenv("OMPGPU_CACHE", str(tmp_path))  # each test compiles (the fake kernels read the source)
    rec = Recorder({KERNEL: saxpy_kernel})
    for name, mod in rec.modules_dict().items():
        monkeypatch.setitem(sys.modules, name, mod)
    monkeypatch.setattr(backends, "_BACKENDS", {})
    monkeypatch.delenv("OMP_NUM_TEAMS", raising=False)
    monkeypatch.delenv("OMP_TEAMS_THREAD_LIMIT", raising=False)
    return rec


def test_compiles_with_nvrtc_for_the_gpu_and_caches_the_cubin(fake):
    f = ompgpu.compile(SAXPY, "saxpy")
    (src, name), = fake.nvrtc_programs
    assert src.startswith("// NVRTC input") and '#include "ompgpu_nvrtc.h"' in src
    assert f'extern "C" __global__ void __launch_bounds__(256) {KERNEL}(' in src
    assert "__ompgpu_launch_" not in src and "ompgpu_host.h" not in src  # no host code for NVRTC
    opts = fake.nvrtc_options[0]
    assert "-arch=sm_90" in opts and "--std=c++17" in opts
    assert any(o.startswith("-I") and o.endswith("nvrtc_include") for o in opts)
    assert fake.modules[0]["path"].endswith("sm_90-nvrtc13.0.cubin")
    ompgpu.compile(SAXPY, "saxpy")
    assert len(fake.nvrtc_programs) == 1 and len(fake.modules) == 2  # second time: the cached cubin


def test_numpy_arguments_are_mapped_and_launched_like_the_host_runtime(fake):
    f = ompgpu.compile(SAXPY, "saxpy")
    x = np.arange(100, dtype=np.float32)
    y = np.full(100, 1.0, dtype=np.float32)
    f(100, 3.0, x, y)
    np.testing.assert_array_equal(y, 3 * x + 1)
    assert fake.copies == [("to_device", 400), ("to_device", 400), ("from_device", 400)]
    (name, grid, block, args, shmem), = fake.launches
    assert [type(a) for a in args] == [np.uint64, np.uint64, np.int32, np.float32]  # kernel (x, y, n, a)
    # a flat kernel is SPMD: 256 threads, no master warp; 132 SMs x (2048 // 256) teams
    assert (name, grid, block, shmem) == (KERNEL, (1056,), (256,), 0)
    assert args[2] == 100 and args[3] == 3.0


def test_sections_arrive_as_the_whole_objects_image(fake):
    seen = {}
    fake.kernels[KERNEL] = lambda n, a, x, y: seen.update(x=int(x), y=int(y))
    f = ompgpu.compile(SAXPY.replace("x[0:n]", "x[5:n]"), "saxpy")
    x = np.zeros(20, dtype=np.float32)
    f(10, 1.0, x, np.zeros(10, dtype=np.float32))
    # the device copy of x[5:15] starts at the allocation; the kernel gets it minus 5 elements
    assert fake.allocs[0] == 40
    assert seen["x"] % 4 == 0 and fake.copies[0] == ("to_device", 40)


def test_device_arrays_stay_on_the_device(fake):
    f = ompgpu.compile(SAXPY, "saxpy")
    x = FakeDeviceArray(np.arange(50, dtype=np.float32))
    y = FakeDeviceArray(np.ones(50, dtype=np.float32))
    f(50, 2.0, x, y)
    assert fake.copies == [] and fake.allocs == []
    (_, _, _, args, _), = fake.launches
    assert int(args[0]) == x.host.ctypes.data and int(args[1]) == y.host.ctypes.data
    np.testing.assert_array_equal(y.host, 2 * np.arange(50) + 1)
    with pytest.raises(ompgpu.python_api.OffloadError, match="past the end of the device array"):
        f(60, 2.0, x, y)


def test_clauses_and_environment_set_the_geometry(fake, monkeypatch):
    src = SAXPY.replace("map(to: x[0:n])", "num_teams(n / 10) thread_limit(64) map(to: x[0:n])")
    f = ompgpu.compile(src, "saxpy", options=("--mode=generic",))
    f(100, 1.0, np.zeros(100, np.float32), np.zeros(100, np.float32))
    assert fake.launches[-1][1:3] == ((10,), (96,))  # 64 workers + the master warp
    monkeypatch.setenv("OMP_TEAMS_THREAD_LIMIT", "40")
    monkeypatch.setenv("OMP_NUM_TEAMS", "7")
    g = ompgpu.compile(SAXPY + " ", "saxpy", options=("--mode=generic",))
    g(100, 1.0, np.zeros(100, np.float32), np.zeros(100, np.float32))
    assert fake.launches[-1][1:3] == ((7,), (96,))  # 40 + 32 rounded up to a warp
    # without a thread_limit clause the kernel is compiled for the default team (128 workers
    # + the master warp): the variable is an upper bound and cannot raise the team above it
    monkeypatch.setenv("OMP_TEAMS_THREAD_LIMIT", "200")
    g(100, 1.0, np.zeros(100, np.float32), np.zeros(100, np.float32))
    assert fake.launches[-1][1:3] == ((7,), (160,))


def test_target_without_teams_is_one_team(fake):
    src = SAXPY.replace("target teams distribute parallel for", "target parallel for")
    fake.kernels["__omp_offloading_saxpy_l3"] = lambda **a: None
    ompgpu.compile(src, "saxpy", options=("--mode=generic",))(4, 1.0, np.zeros(4, np.float32), np.zeros(4, np.float32))
    assert fake.launches[-1][1:3] == ((1,), (160,))
    ompgpu.compile(src, "saxpy")(4, 1.0, np.zeros(4, np.float32), np.zeros(4, np.float32))
    assert fake.launches[-1][1:3] == ((1,), (256,))  # SPMD: no master warp
