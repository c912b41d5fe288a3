"""Tier 2: a fault in device code under the emulator is reported like compute-sanitizer
reports it (kernel, block, thread, and the user's source line), and the program exits
non-zero; never a bare segmentation fault."""
import subprocess
import sys

import pytest

PROGRAM = """#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {{
  int n = 1000;
  int *a = malloc(n * sizeof(int));
  long far = 1L << 36;
  int zero = argc - 1;
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) {{
    long k = (i == 777) ? far : 0;
    a[i] = i;
    {bad}
  }}
  printf("%d\\n", a[5]);
  return 0;
}}
"""


@pytest.mark.parametrize("bad, report", [
    ("a[i + k] += 1;", "ompgpu-emu: illegal memory access at address"),
    ("a[i] = i / (i == 777 ? zero : 1);", "ompgpu-emu: arithmetic exception (integer division by zero)"),
])
def test_device_fault_names_kernel_thread_and_source_line(tmp_path, bad, report):
    src = tmp_path / "fault.c"
    src.write_text(PROGRAM.format(bad=bad))
    exe = tmp_path / "fault"
    b = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", str(src), "-o", str(exe)],
                       capture_output=True, text=True)
    assert b.returncode == 0, b.stderr
    r = subprocess.run([str(exe)], capture_output=True, text=True, env={"OMP_TARGET_OFFLOAD": "MANDATORY"}, timeout=120)
    assert r.returncode != 0
    assert report in r.stderr, r.stderr
    assert "of kernel __omp_offloading_main_l8" in r.stderr and " thread " in r.stderr and "in block (" in r.stderr
    assert f"at {src}:12 " in r.stderr, r.stderr
