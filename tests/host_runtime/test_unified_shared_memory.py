"""`#pragma omp requires unified_shared_memory` (OpenMP 5.0) under the emulator: on a device that
can access pageable host memory the regions use host memory where it is (maps neither
allocate nor copy); on one that cannot (OMPGPU_EMU_PAGEABLE=0, like the H100s and H200s of
bench/results), the heap of the file is managed memory (runtime/host/usm.cpp) and the regions
still run on the device. tests/programs/usm_managed_heap.c covers the heap functions."""
import os
import subprocess

from ompgpu.cli import main

SOURCE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#pragma omp requires unified_shared_memory
int main(void) {
  int n = 1000;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  int on_device = 0;
  #pragma omp target map(from: on_device)
  {
    on_device = !omp_is_initial_device();
    for (int i = 0; i < n; i++) a[i] *= 2;
  }
  double s = 0;
  #pragma omp target teams distribute parallel for reduction(+: s) map(tofrom: s)
  for (int i = 0; i < n; i++) s += a[i];
  printf("on a device: %d, a[999]=%g, sum=%g\n", on_device, a[999], s);
  free(a);
  return 0;
}
"""


def run(exe, **env):
    return subprocess.run([str(exe)], capture_output=True, text=True, env={**os.environ, "OMPGPU_INFO": "1", **env})


def test_unified_shared_memory(tmp_path):
    src = tmp_path / "usm.c"
    src.write_text(SOURCE)
    exe = tmp_path / "usm"
    assert main(["cc", "--offload=emu", str(src), "-o", str(exe)]) == 0
    r = run(exe)
    assert r.returncode == 0 and r.stdout == "on a device: 1, a[999]=1998, sum=999000\n", r.stdout + r.stderr
    assert "kernel __omp_offloading_main_l11" in r.stderr and "copy" not in r.stderr and "alloc" not in r.stderr
    assert "managed memory" not in r.stderr
    for offload in ("DEFAULT", "MANDATORY"):
        r = run(exe, OMPGPU_EMU_PAGEABLE="0", OMP_TARGET_OFFLOAD=offload)
        assert r.returncode == 0 and r.stdout == "on a device: 1, a[999]=1998, sum=999000\n", r.stdout + r.stderr
        assert "device 0 (ompgpu emulator) cannot access pageable host memory; the heap of files that require " \
               "unified_shared_memory is CUDA managed memory" in r.stderr
        assert "copy" not in r.stderr

def test_heap_calls_renamed(tmp_path, monkeypatch):
    """The file's calls of the C library's heap functions go to the runtime's (usm.cpp)."""
    src = tmp_path / "usm.c"
    src.write_text(SOURCE)
    monkeypatch.chdir(tmp_path)
    assert main(["cc", "--offload=emu", "-c", "-save-temps", str(src), "-o", str(tmp_path / "usm.o")]) == 0
    text = (tmp_path / "usm.host.c").read_text()
    assert "ompgpu_usm_malloc(n * sizeof(double))" in text and "ompgpu_usm_free(a)" in text
