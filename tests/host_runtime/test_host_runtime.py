"""Host runtime (ompgpu/runtime/host): present table, mapping, argument translation,
launch configuration, offload policy, diagnostics. The C driver support/prog.c runs one
scenario per invocation; see conftest.py for the builds."""
from __future__ import annotations

import re
import subprocess

import pytest

from hostrt_build import CC, HOST, have_gpu


def ok(r: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert r.returncode == 0, f"rc={r.returncode}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    return r


def fails(r: subprocess.CompletedProcess, rc: int = 1) -> str:
    assert r.returncode == rc, f"rc={r.returncode} (wanted {rc})\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    return r.stderr


# ---------------------------------------------------------------- header

def test_header_is_c(tmp_path):
    for std in ("c99", "c11"):
        r = subprocess.run([CC, f"-std={std}", "-pedantic", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                            "-x", "c", str(HOST / "ompgpu_host.h")], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    r = subprocess.run(["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-x", "c++",
                        str(HOST / "ompgpu_host.h")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


# ---------------------------------------------------------------- data environment

# The device memory cache is off by default in emulator mode; "cached" runs every scenario
# with it on (check_no_allocations in prog.c then allows the blocks the cache keeps).
CACHE_ON = {"OMPGPU_DEVICE_CACHE_BYTES": str(1 << 20)}


@pytest.mark.parametrize("cache", ["default", "cached"])
@pytest.mark.parametrize("scenario", ["refcount", "subsection", "always", "delete_release", "update",
                                      "args", "twice", "api", "threads", "attach", "link", "streams", "rect",
                                      "omp_names"])
def test_scenario(build, scenario, cache):
    ok(build.run(scenario, env=CACHE_ON if cache == "cached" else None))


def test_small_updates_to_the_device_do_not_wait_for_their_dma(build):
    # counts from the mock (-1 with the emulator, which copies at once and runs the same checks)
    def counts(env=None):
        r = ok(build.run("deferred", env=env))
        return {k: int(v) for k, v in re.findall(r"(\w+) (-?\d+)", r.stdout.strip().splitlines()[-1])}
    n = counts()
    if not build.mock:
        assert set(n.values()) == {-1}, n
        return
    assert n["update_syncs"] == 0, n      # returned before its DMA: no stream synchronisation
    assert n["other_waits"] >= 1, n       # another thread's stream waits for it
    assert n["escaped_syncs"] >= 1, n     # after omp_target_alloc every copy waits again
    off = counts({"OMPGPU_DEFERRED_COPIES": "0"})
    assert off["update_syncs"] >= 1 and off["other_waits"] == 0, off


@pytest.mark.parametrize("which,expected", [
    ("end", "ompgpu: prog.c:10:9: error: map of 'a[0:200]' extends beyond the mapped section 'a[0:100]'"),
    ("start", "ompgpu: prog.c:10:9: error: map of 'a[0:100]' extends beyond the mapped section 'a[50:100]'"),
])
def test_partial_overlap_error(build, which, expected):
    err = fails(build.run("overlap", which))
    assert err.splitlines()[0] == expected


def test_attach_without_struct(build):
    err = fails(build.run("attach_missing"))
    assert err.splitlines()[0] == ("ompgpu: prog.c:20:9: error: cannot attach 's.p[0:4]': the struct holding its "
                                   "pointer is not mapped on device 0")


def test_present_modifier(build):
    err = fails(build.run("present_modifier"))
    assert err.splitlines()[0] == ("ompgpu: prog.c:10:9: error: 'b[0:10]' is not present on device 0 "
                                   "(map with the 'present' modifier)")


def test_negative_size(build):
    err = fails(build.run("negative"))
    assert "error: negative size (-8 bytes) in the map of 'a[0:n]'" in err
    err = fails(build.run("negative", "null"))
    assert "ompgpu: prog.c:10:9: error: map of 'p[0:1]' (8 bytes) at a null address" in err


# ---------------------------------------------------------------- launch configuration

def cfg(build, mode, num_teams=0, thread_limit=0, default_threads=0, max_threads=1024, static_teams=0, trip=None,
        grid_tiles=None, grid_waves=None, **env):
    args = [num_teams, thread_limit, default_threads, max_threads, static_teams] + ([trip] if trip is not None else []) \
        + ([grid_tiles] if grid_tiles is not None or grid_waves is not None else []) \
        + ([grid_waves] if grid_waves is not None else [])
    r = ok(build.run("launch", mode, *args, env={k: str(v) for k, v in env.items()}))
    m = re.search(r"cfg (\d+) (\d+)", r.stdout)
    assert m, r.stdout
    return int(m.group(1)), int(m.group(2))


def test_launch_defaults(build):
    # 132 SMs; generic: 128 workers + master warp = 160 -> 2048/160 = 12 teams per SM
    assert cfg(build, "generic") == (132 * 12, 160)
    assert cfg(build, "spmd") == (132 * 8, 256)
    assert cfg(build, "generic", default_threads=288) == (132 * 7, 288)
    assert cfg(build, "spmd", static_teams=1000) == (1000, 256)


def test_launch_of_a_loop_counted_by_the_host(build):
    # one iteration per thread: ceil(trip / threads) teams, but at most 4 waves of resident teams
    # (132 SMs x 8 teams of 256, the thread-count guess), a grid-stride loop beyond
    assert cfg(build, "spmd", trip=1 << 26) == (132 * 8 * 4, 256)
    assert cfg(build, "spmd", trip=1 << 26, OMPGPU_GRID_WAVES=1) == (132 * 8, 256)
    assert cfg(build, "spmd", trip=1 << 26, OMPGPU_GRID_WAVES=0) == ((1 << 26) // 256, 256)   # no limit
    assert cfg(build, "spmd", trip=132 * 8 * 4 * 256 - 5) == (132 * 8 * 4, 256)
    assert cfg(build, "spmd", trip=1000) == (4, 256)
    assert cfg(build, "spmd", trip=0) == (1, 256)
    assert cfg(build, "spmd", thread_limit=100, trip=1000) == (10, 100)
    # num_teams and OMP_NUM_TEAMS still decide
    assert cfg(build, "spmd", num_teams=7, trip=1 << 20) == (7, 256)
    assert cfg(build, "spmd", trip=1 << 20, OMP_NUM_TEAMS=9) == (9, 256)


def test_a_loop_taken_a_tile_per_team_gets_a_team_per_tile(build):
    # a stencil's kernel (grid_tiles): its trip count is in whole tiles of 256, and no wave limit
    assert cfg(build, "spmd", trip=1 << 26, grid_tiles=1) == ((1 << 26) // 256, 256)
    assert cfg(build, "spmd", trip=1 << 26, grid_tiles=0) == (132 * 8 * 4, 256)
    # num_teams and OMP_NUM_TEAMS still decide
    assert cfg(build, "spmd", trip=1 << 26, grid_tiles=1, OMP_NUM_TEAMS=9) == (9, 256)


def test_a_reduction_or_long_loop_takes_one_wave_at_most_and_fewer_teams_for_fewer_iterations(build):
    # grid_waves 1 (a reduction's teams each combine into one variable; long iterations): at most
    # one wave of resident teams, what a grid-stride launch takes, whatever OMPGPU_GRID_WAVES says...
    assert cfg(build, "spmd", trip=1 << 26, grid_tiles=0, grid_waves=1) == (132 * 8, 256)
    assert cfg(build, "spmd", trip=1 << 26, grid_tiles=0, grid_waves=1, OMPGPU_GRID_WAVES=0) == (132 * 8, 256)
    assert cfg(build, "spmd", trip=1 << 26, grid_tiles=0, grid_waves=2) == (132 * 8 * 2, 256)
    # ...and no team without an iteration: 62 iterations, one team (it was 1,056, each adding its
    # identity to the reduction's variable)
    assert cfg(build, "spmd", trip=62, grid_tiles=0, grid_waves=1) == (1, 256)
    assert cfg(build, "spmd", trip=132 * 256 + 1, grid_tiles=0, grid_waves=1) == (133, 256)
    # num_teams and OMP_NUM_TEAMS still decide
    assert cfg(build, "spmd", num_teams=7, trip=62, grid_tiles=0, grid_waves=1) == (7, 256)
    assert cfg(build, "spmd", trip=62, grid_tiles=0, grid_waves=1, OMP_NUM_TEAMS=9) == (9, 256)


def test_persistent_loop_frame(build):
    # support/prog.c t_persistent checks the items, homes, presence bits, cells and scalars the
    # loop's kernel gets; teams: 8 resident a SM, at most half an SM's threads (4 teams of 256),
    # and 1000 iterations fill 2 teams at two a thread
    r = ok(build.run("persistent"))
    assert "loop 2 256 translated" in r.stdout


def occupancy_launch(build, plain, dense=(0, 0), num_teams=None):
    args = [*plain, *dense] + ([num_teams] if num_teams is not None else [])
    out = ok(build.run("occupancy", *args)).stdout
    m = re.search(r"(dense )?cfg (\d+) (\d+)", out)
    assert m, out
    return bool(m.group(1)), int(m.group(2)), int(m.group(3))


def test_default_teams_come_from_the_occupancy_calculator(build):
    # 132 SMs x the teams the kernel's registers leave room for, not 2048 / threads
    assert occupancy_launch(build, (4, 0)) == (False, 132 * 4, 256)
    assert occupancy_launch(build, (0, 0)) == (False, 132 * 8, 256)  # unknown: the thread-count guess


def test_the_dense_instance_runs_where_it_holds_more_teams_without_spilling_much(build):
    assert occupancy_launch(build, (4, 0), (5, 40)) == (True, 132 * 5, 256)
    assert occupancy_launch(build, (4, 0), (5, 100)) == (False, 132 * 4, 256)  # spills too much
    assert occupancy_launch(build, (4, 0), (4, 0)) == (False, 132 * 4, 256)    # holds no more
    assert occupancy_launch(build, (4, 0), (5, 0), num_teams=7) == (False, 7, 256)  # the teams are the user's


def test_launch_clauses(build):
    assert cfg(build, "spmd", num_teams=7, thread_limit=100) == (7, 100)
    # generic: thread_limit counts OpenMP threads (workers); + master warp, multiple of 32
    assert cfg(build, "generic", num_teams=3, thread_limit=128) == (3, 160)
    assert cfg(build, "generic", num_teams=3, thread_limit=100) == (3, 160)
    assert cfg(build, "generic", num_teams=3, thread_limit=1) == (3, 64)
    # clamps: kernel launch bound, device limit (1024)
    assert cfg(build, "spmd", num_teams=1, thread_limit=2000) == (1, 1024)
    assert cfg(build, "spmd", num_teams=1, thread_limit=512, max_threads=256) == (1, 256)
    assert cfg(build, "generic", num_teams=1, thread_limit=1024) == (1, 1024)
    assert cfg(build, "generic", num_teams=1, default_threads=300, max_threads=200) == (1, 192)
    # clauses beat environment, environment beats the compiler's numbers
    assert cfg(build, "spmd", num_teams=5, thread_limit=64, OMP_NUM_TEAMS=9, OMP_TEAMS_THREAD_LIMIT=32) == (5, 64)
    assert cfg(build, "spmd", static_teams=50, default_threads=128,
               OMP_NUM_TEAMS=9, OMP_TEAMS_THREAD_LIMIT=32) == (9, 32)
    assert cfg(build, "generic", OMP_TEAMS_THREAD_LIMIT=64) == (132 * 21, 96)


def test_bad_env_value_warns(build):
    r = build.run("launch", "spmd", 0, 0, 0, 1024, 10, env={"OMP_NUM_TEAMS": "lots"})
    ok(r)
    assert "ompgpu: warning: ignoring OMP_NUM_TEAMS='lots'" in r.stderr
    assert "cfg 10 256" in r.stdout


# ---------------------------------------------------------------- offload policy and devices

def test_offload_disabled(build):
    r = ok(build.run("fallback", env={"OMP_TARGET_OFFLOAD": "DISABLED"}))
    assert "target returned 1, devices 0, initial 0" in r.stdout
    r = ok(build.run("fallback", env={"OMP_TARGET_OFFLOAD": "disabled", "OMPGPU_INFO": "1"}))
    assert ("ompgpu: prog.c:12: kernel __omp_offloading_main_l12: host fallback (OMP_TARGET_OFFLOAD=DISABLED)"
            in r.stderr)


def test_no_device_default_falls_back(mock_build):
    r = ok(mock_build.run("fallback", env={"MOCK_CUDA_DEVICES": "0"}))
    assert "target returned 1, devices 0, initial 0" in r.stdout


def test_no_device_mandatory(mock_build):
    err = fails(mock_build.run("fallback", env={"MOCK_CUDA_DEVICES": "0", "OMP_TARGET_OFFLOAD": "MANDATORY"}))
    lines = err.splitlines()
    assert lines[0] == ("ompgpu: error: OMP_TARGET_OFFLOAD=MANDATORY but no GPU is available "
                        "(cudaErrorNoDevice: no CUDA-capable device is detected)")
    assert lines[1] == "ompgpu: prog.c:10:9: note: the 'target data' construct here needs a device"


def test_no_device_code(build):
    r = ok(build.run("nolaunch"))
    assert "target returned 1" in r.stdout
    err = fails(build.run("nolaunch", env={"OMP_TARGET_OFFLOAD": "MANDATORY"}))
    assert ("ompgpu: prog.c:12:9: error: OMP_TARGET_OFFLOAD=MANDATORY but kernel __omp_offloading_main_l12 "
            "was compiled without device code") in err


def test_device_clause(build):
    assert "target returned 0" in ok(build.run("device", 0)).stdout
    assert "target returned 1" in ok(build.run("device", 1)).stdout    # = omp_get_initial_device()
    assert "target returned 0" in ok(build.run("device", -1)).stdout   # OMPGPU_DEVICE_DEFAULT
    assert "target returned 1" in ok(build.run("device", -1, env={"OMP_DEFAULT_DEVICE": "1"})).stdout
    assert "target returned 1" in ok(build.run("device", -1, env={"OMP_DEFAULT_DEVICE": "initial"})).stdout
    err = fails(build.run("device", 5))
    assert err.splitlines()[0] == ("ompgpu: prog.c:12:9: error: device number 5 in the device clause of "
                                   "'target' is out of range (1 device available)")
    err = fails(build.run("device", -4))                                 # omp_invalid_device
    assert "error: device number -4 in the device clause of 'target' is out of range" in err
    err = fails(build.run("device", -1, env={"OMP_DEFAULT_DEVICE": "3"}))
    assert "error: default device 3 (OMP_DEFAULT_DEVICE / omp_set_default_device) used by 'target'" in err


def test_two_devices(mock_build):
    ok(mock_build.run("multidevice", env={"MOCK_CUDA_DEVICES": "2"}))


# ---------------------------------------------------------------- errors

def test_kernel_fault(build):
    lines = fails(build.run("fault")).splitlines()
    assert re.fullmatch(r"ompgpu: prog\.c:12:9: error: kernel __omp_offloading_main_l12 failed: "
                        r"cudaErrorLaunchFailure: .+", lines[0]), lines
    assert ("ompgpu: prog.c:12:9: note: a pointer used in the target region may not be mapped (captured "
            "pointers without map(...) are translated only if their target is present)") in lines


def test_out_of_memory(build):
    lines = fails(build.run("oom")).splitlines()
    assert re.fullmatch(r"ompgpu: prog\.c:20:9: error: allocation of 1125899906842624 bytes for 'huge\[0:n\]' "
                        r"failed: cudaErrorMemoryAllocation: .+", lines[0]), lines
    assert any(re.match(r"ompgpu: prog\.c:20:9: note: out of device memory", x) for x in lines), lines


# ---------------------------------------------------------------- OMPGPU_INFO

def test_info_lines(build):
    r = ok(build.run("info", env={"OMPGPU_INFO": "1"}))
    lines = [x for x in r.stderr.splitlines() if x.startswith("ompgpu:")]
    assert lines == [
        "ompgpu: prog.c:12: alloc 'a[0:n]' (800 bytes)",
        "ompgpu: prog.c:12: copy to device 'a[0:n]' (800 bytes)",
        "ompgpu: prog.c:12: kernel __omp_offloading_main_l12: 4 teams x 160 threads, generic",
        "ompgpu: prog.c:12: copy from device 'a[0:n]' (800 bytes)",
        "ompgpu: prog.c:12: free 'a[0:n]' (800 bytes)",
        "ompgpu: prog.c:12: kernel __omp_offloading_main_l12: 8 teams x 128 threads, spmd",
        "ompgpu: prog.c:12: kernel __omp_offloading_main_l12: host fallback (if clause is false)",
    ]
    r = ok(build.run("info"))
    assert "ompgpu:" not in r.stderr


# ---------------------------------------------------------------- real CUDA build

def test_cuda_build_links(cuda_build):
    assert cuda_build.exists()


@pytest.mark.skipif(have_gpu(), reason="this machine has a GPU: the no-GPU behaviour cannot be observed")
def test_cuda_build_without_gpu(cuda_build):
    env = {"PATH": "/usr/bin:/bin"}
    r = subprocess.run([str(cuda_build)], env={**env, "OMP_TARGET_OFFLOAD": "DEFAULT"},
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert "target returned 1, launched 0, devices 0, initial device 0" in r.stdout
    r = subprocess.run([str(cuda_build)], env=env, capture_output=True, text=True, timeout=30)
    assert "target returned 1, launched 0" in r.stdout
    r = subprocess.run([str(cuda_build)], env={**env, "OMP_TARGET_OFFLOAD": "MANDATORY"},
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stderr.splitlines()
    assert re.fullmatch(r"ompgpu: error: OMP_TARGET_OFFLOAD=MANDATORY but no GPU is available "
                        r"\(cudaError\w+: .+\)", lines[0]), lines
    assert lines[1] == "ompgpu: prog.c:7:3: note: the 'target data' construct here needs a device"
    assert "target returned" not in r.stdout
