"""The error directive (OpenMP 5.1): at(compilation) stops or warns the compile with its message,
at(execution) prints where it runs (host code: the host's OpenMP library; device code: the
device's printf) and a fatal one stops the program there."""
import subprocess

import pytest

from ompgpu.cli import main

PROGRAM = """#include <stdio.h>
{file_scope}
int main(void) {{
  int r = 0;
  #pragma omp target map(tofrom: r)
  {{
    r = 1;
    {device}
  }}
  printf("after %d\\n", r);
  return 0;
}}
"""


def build(tmp_path, capsys, file_scope="", device="", *flags):
    src = tmp_path / "e.c"
    src.write_text(PROGRAM.format(file_scope=file_scope, device=device))
    rc = main(["cc", "--offload=emu", *flags, str(src), "-o", str(tmp_path / "e")])
    return rc, capsys.readouterr().err, src


def test_compile_time_warning_is_a_warning_of_the_compile(tmp_path, capsys):
    rc, err, src = build(tmp_path, capsys, '#pragma omp error at(compilation) severity(warning) message("look here")')
    assert rc == 0
    assert f"{src}:2:" in err and "warning: error directive: look here" in err
    rc, err, _ = build(tmp_path, capsys, '#pragma omp error severity(warning) message("quiet")', "", "-w")
    assert rc == 0 and "quiet" not in err


@pytest.mark.parametrize("directive", ['#pragma omp error message("stop here")', "#pragma omp error at(compilation)"])
def test_compile_time_fatal_error_stops_the_compile(tmp_path, capsys, directive):
    rc, err, src = build(tmp_path, capsys, directive)
    assert rc == 1
    assert f"{src}:2:" in err and "error: error directive" in err
    assert "Traceback" not in err


def test_execution_warning_in_device_code_prints_and_goes_on(tmp_path, capsys):
    rc, _, _ = build(tmp_path, capsys, "", '#pragma omp error at(execution) severity(warning) message("from the device")')
    assert rc == 0
    run = subprocess.run([str(tmp_path / "e")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0
    assert "warning directive: from the device" in run.stdout and "after 1" in run.stdout


def test_execution_fatal_error_in_device_code_stops_the_program(tmp_path, capsys):
    rc, _, _ = build(tmp_path, capsys, "", '#pragma omp error at(execution) message("fatal on the device")')
    assert rc == 0
    run = subprocess.run([str(tmp_path / "e")], capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert "error directive: fatal on the device" in run.stdout + run.stderr
    assert "after" not in run.stdout
