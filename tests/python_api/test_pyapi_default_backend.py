"""The Python API's default backend ('cuda', and its alias 'cupy') builds with the device
compiler that is installed (NVRTC from the wheels of `.[dev]`, or nvcc) on any machine, and
its functions run: on the GPU where there is one, else as the target regions' host fallback,
which OpenMP's default offload policy allows. A Python user's first call takes this path; it
broke once (issue 47) while the emulator's tests passed.

A process loads one backend's runtime (the emulator tests of this folder hold pytest's), so
each case runs in a process of its own."""
import os
import subprocess
import sys

import pytest

from ompgpu.nvrtc import find_nvrtc
from ompgpu.toolchain import find_cuda

CASE = r'''
import sys
import numpy as np
import ompgpu

SAXPY = """
void saxpy(int n, float a, const float *x, float *y) {
  #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
"""
kwargs = {} if sys.argv[1] == "default" else {"backend": sys.argv[1]}
f = ompgpu.compile(SAXPY, "saxpy", **kwargs)
x = np.arange(1000, dtype=np.float32)
y = np.ones(1000, dtype=np.float32)
assert f(1000, 2.0, x, y) is None
np.testing.assert_array_equal(y, 2 * x + 1)
assert f.kernels == ("__omp_offloading_saxpy_l3",), f.kernels
assert "__omp_offloading_saxpy_l3" in f.cuda_source
print("saxpy ok")
'''

needs_device_compiler = pytest.mark.skipif(find_nvrtc() is None and find_cuda(required=False) is None,
                                           reason="no device compiler (NVRTC wheel or nvcc)")


@needs_device_compiler
@pytest.mark.parametrize("backend", ["default", "cuda", "cupy"])
def test_default_backend_builds_and_runs(backend, tmp_path):
    r = subprocess.run([sys.executable, "-c", CASE, backend], capture_output=True, text=True, timeout=600,
                       cwd=tmp_path, env=dict(os.environ, OMP_TARGET_OFFLOAD="DEFAULT"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "saxpy ok"
