"""Tier 1: the omp_* routines device code may call come from one list, the device runtime's
api.cuh; routines OpenMP keeps on the host are errors naming the routine."""
import re
from pathlib import Path

import pytest

from ompgpu.analysis import library
from ompgpu.cli import main

API_HEADER = Path(library.__file__).resolve().parents[1] / "runtime" / "device" / "api.cuh"


def test_front_end_knows_every_routine_the_runtime_defines():
    defined = set(re.findall(r"\b(omp_\w+)\s*\([^;{()]*\)\s*\{", API_HEADER.read_text()))
    assert defined == set(library.DEVICE_API)
    for name in ("omp_get_max_active_levels", "omp_get_schedule", "omp_get_dynamic", "omp_get_nested",
                 "omp_get_cancellation", "omp_in_final", "omp_set_dynamic", "omp_get_supported_active_levels",
                 "omp_get_max_task_priority", "omp_get_initial_device", "omp_get_default_device",
                 "omp_init_lock_with_hint", "omp_get_proc_bind", "omp_alloc", "omp_aligned_alloc", "omp_calloc",
                 "omp_realloc", "omp_free"):
        assert name in library.DEVICE_API, name


def test_host_only_routines_are_not_device_routines():
    assert not set(library.HOST_ONLY_API) & set(library.DEVICE_API)


def test_planner_tables_come_from_the_runtime():
    assert library.SERIAL_API["omp_get_wtime"] is True  # differs between threads
    assert library.SERIAL_API["omp_get_team_num"] is False
    assert "omp_get_thread_num" in library.STATE_API and "omp_get_thread_num" not in library.SERIAL_API
    assert "omp_set_lock" not in library.STATE_API  # locks need no team state


def _compile(tmp_path, body, capsys):
    src = tmp_path / "k.c"
    src.write_text("#include <omp.h>\nint main(void) {\n  int x = 0;\n  #pragma omp target map(tofrom: x)\n  {\n"
                   f"    {body}\n  }}\n  return x;\n}}\n")
    rc = main(["cc", "--emit-cuda", str(src), "-o", str(tmp_path / "k.cu")])
    return rc, capsys.readouterr().err, src


@pytest.mark.parametrize("call, message", [
    ("x = omp_target_alloc(4, 0) != 0;", "'omp_target_alloc' cannot be called in a target region: it is a host routine"),
    ("omp_set_default_device(0);", "'omp_set_default_device' cannot be called in a target region"),
    ("x = omp_pause_resource_all(omp_pause_soft);", "'omp_pause_resource_all' cannot be called in a target region"),
    ("omp_display_affinity(0);", "'omp_display_affinity' cannot be called in a target region"),
    ("omp_set_default_allocator(omp_default_mem_alloc);",
     "'omp_set_default_allocator' cannot be called in a target region: it is not supported"),
])
def test_routines_not_allowed_on_the_device_are_named_errors(tmp_path, capsys, call, message):
    rc, err, src = _compile(tmp_path, call, capsys)
    assert rc == 1
    assert f"{src}:6:" in err and message in err, err


def test_device_routines_compile(tmp_path, capsys):
    rc, err, _ = _compile(tmp_path, "x = omp_get_max_active_levels() + omp_get_supported_active_levels() + "
                          "omp_get_initial_device() + omp_get_default_device() + omp_get_max_task_priority();", capsys)
    assert rc == 0, err


def test_device_teams_icvs_come_from_the_environment(tmp_path):
    # nteams-var and teams-thread-limit-var have one copy per device, which the environment sets
    # (OpenMP 5.1: OMP_NUM_TEAMS, OMP_TEAMS_THREAD_LIMIT); 0 where it sets none
    import os
    import subprocess
    import sys
    src = tmp_path / "icvs.c"
    src.write_text("#include <omp.h>\n#include <stdio.h>\nint main(void) {\n  int t = -1, l = -1;\n"
                   "  #pragma omp target map(from: t, l)\n  { t = omp_get_max_teams(); l = omp_get_teams_thread_limit(); }\n"
                   "  printf(\"%d %d\\n\", t, l);\n  return 0;\n}\n")
    exe = tmp_path / "icvs"
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", str(src), "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    clean = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_TEAMS", "OMP_TEAMS_THREAD_LIMIT")}
    assert subprocess.run([str(exe)], capture_output=True, text=True, env=clean).stdout == "0 0\n"
    env = dict(clean, OMP_NUM_TEAMS="3", OMP_TEAMS_THREAD_LIMIT="64")
    assert subprocess.run([str(exe)], capture_output=True, text=True, env=env).stdout == "3 64\n"
