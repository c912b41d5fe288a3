"""The host runtime's device memory cache (ompgpu/runtime/host/device_cache.cpp): blocks of
unmapped list items are kept per size class and handed out again instead of a cudaMalloc /
cudaFree per map. Run through the scenarios cache_* of support/prog.c, against the mock
(which counts cudaMalloc calls) and the emulator (where the counts are -1: unknown)."""
from __future__ import annotations

import re
import subprocess

import pytest


def ok(r: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert r.returncode == 0, f"rc={r.returncode}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    return r


def numbers(line: str) -> dict[str, int]:
    return {k: int(v) for k, v in re.findall(r"(\w+) (-?\d+)", line)}


def cycle(build, regions: int, nbytes: int, cache: int | None) -> dict[str, int]:
    env = {} if cache is None else {"OMPGPU_DEVICE_CACHE_BYTES": str(cache)}
    r = ok(build.run("cache_cycle", regions, nbytes, env=env))
    return numbers(r.stdout.strip().splitlines()[-1])


def mallocs_ok(build, got: int, want: int) -> bool:
    return got == want if build.mock else got == -1


def test_repeated_map_reuses_one_block(build):
    n = cycle(build, 5, 64, 1 << 20)                  # int[16]: class 256
    assert n["same"] == 1                             # every region got the same device address
    assert mallocs_ok(build, n["mallocs"], 1)         # one cudaMalloc for five regions
    assert (n["blocks"], n["bytes"], n["used"]) == (1, 256, 256)   # kept, still allocated
    n = cycle(build, 3, 1000, 1 << 20)                # class 1024
    assert n["same"] == 1 and mallocs_ok(build, n["mallocs"], 1)
    assert (n["blocks"], n["bytes"]) == (1, 1024)


def test_cache_off(build):
    # off by default in emulator mode (the emulator then still catches uses of unmapped memory)
    for cache in (None, 0):
        n = cycle(build, 5, 64, cache)
        assert mallocs_ok(build, n["mallocs"], 5)     # one cudaMalloc per region
        assert (n["blocks"], n["bytes"], n["used"]) == (0, 0, 0)   # and its cudaFree


def test_large_blocks_are_kept_in_2_mib_steps(build):
    n = cycle(build, 3, (64 << 20) + 4, 1 << 30)      # above 64 MiB: its class is 66 MiB
    assert n["same"] == 1 and mallocs_ok(build, n["mallocs"], 1)
    assert (n["blocks"], n["bytes"]) == (1, 66 << 20)


def test_blocks_above_the_cap_bypass_the_cache(build):
    n = cycle(build, 2, (64 << 20) + 4, 64 << 20)     # class 66 MiB > the cap
    assert mallocs_ok(build, n["mallocs"], 2)
    assert (n["blocks"], n["used"]) == (0, 0)
    n = cycle(build, 2, 1000, 512)                    # class 1024 > the cap
    assert mallocs_ok(build, n["mallocs"], 2) and n["blocks"] == 0


@pytest.mark.parametrize("cap,first,double,single", [
    # cap: cache bytes; after mapping 6 arrays of 1000 bytes (class 1024) and unmapping them:
    # (blocks, bytes); then one of 2000 bytes (class 2048), then one of 1000 again
    (1 << 20, (6, 6144), (7, 8192), (7, 8192)),
    (4096, (4, 4096), (3, 4096), (3, 4096)),      # the 2048 block evicts the two oldest 1024 ones
    (3000, (2, 2048), (1, 2048), (1, 1024)),      # 2048 evicts both; a new 1024 evicts the 2048
])
def test_cap(build, cap, first, double, single):
    r = ok(build.run("cache_cap", 6, 1000, env={"OMPGPU_DEVICE_CACHE_BYTES": str(cap)}))
    lines = [numbers(x) for x in r.stdout.strip().splitlines()]
    assert len(lines) == 3, r.stdout
    for n, (blocks, nbytes) in zip(lines, (first, double, single)):
        assert (n["blocks"], n["bytes"]) == (blocks, nbytes), r.stdout
        assert n["bytes"] <= cap
    assert lines[2]["used"] == lines[2]["bytes"]      # the rest was given back to CUDA
    if build.mock:
        # 6 arrays, then the double one; the last single one reuses a 1024 block if one is left
        assert [n["mallocs"] for n in lines] == [6, 7, 7 if cap > 3000 else 8], r.stdout


def test_cap_bad_value_warns(build):
    r = ok(build.run("cache_cycle", 2, 64, env={"OMPGPU_DEVICE_CACHE_BYTES": "lots"}))
    assert "ompgpu: warning: ignoring OMPGPU_DEVICE_CACHE_BYTES='lots' (not a number of bytes >= 0)" in r.stderr
    assert numbers(r.stdout.strip().splitlines()[-1])["blocks"] == 0   # the default (off in emulator mode)


def test_block_not_reused_while_a_kernel_runs(build):
    ok(build.run("cache_inflight", env={"OMPGPU_DEVICE_CACHE_BYTES": str(1 << 20)}))


def test_out_of_memory_empties_the_cache(build):
    mem = "MOCK_CUDA_MEM" if build.mock else "OMPGPU_EMU_MEM"
    ok(build.run("cache_oom", env={"OMPGPU_DEVICE_CACHE_BYTES": "2000000", mem: "1000000"}))
