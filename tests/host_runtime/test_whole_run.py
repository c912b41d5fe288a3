"""A whole run (issue 33) under the emulator: the devices started at program start (main waits
for them unless OMPGPU_STARTUP=background), fork() before the first target region, copies through the pinned staging
buffers with and without helper threads, and OMPGPU_PROFILE's table and Chrome trace."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = REPO / "tests" / "programs"

PROFILED = r"""
#include <stdio.h>
int main(void) { fprintf(stderr, "main begins\n");   /* on the line of main: the tests name lines below */
  int n = 1000;
  double a[1000], b[1000];
  for (int i = 0; i < n; i++) a[i] = i;
  for (int rep = 0; rep < 3; rep++) {
#pragma omp target teams distribute parallel for map(to: a[0:n]) map(from: b[0:n])
    for (int i = 0; i < n; i++) b[i] = 2 * a[i];
  }
#pragma omp target data map(tofrom: b[0:500])
  {
#pragma omp target update to(b[0:250])
  }
  printf("%g\n", b[999]);
  return 0;
}
"""

NO_TARGET = r"""
#include <stdio.h>
int main(void) { printf("no target\n"); return 0; }
"""


CHILD_OFFLOADS = r"""
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
static long sum_on_device(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+: s) map(tofrom: s)
  for (int i = 0; i < n; i++) s += i;
  return s;
}
int main(void) {
  const int n = 100000;
  const long want = (long)n * (n - 1) / 2;
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) _exit(sum_on_device(n) == want ? 0 : 1);   /* the child's first target region */
  int status = 0;
  waitpid(child, &status, 0);
  printf("child: %s\n", WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "PASS" : "FAIL");
  printf("parent: %s\n", sum_on_device(n) == want ? "PASS" : "FAIL");
  return 0;
}
"""


def build(tmp_path: Path, name: str, source: str | Path) -> Path:
    src = source if isinstance(source, Path) else tmp_path / f"{name}.c"
    if not isinstance(source, Path):
        src.write_text(source)
    exe = tmp_path / name
    # a file of tmp_path by its name, as a user compiles it (the profile names the file so)
    given = src.name if src.parent == tmp_path else str(src)
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", given, "-o", str(exe)],
                       capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr
    return exe


def run(exe: Path, **env_vars: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPGPU_", "OMP_"))}
    env.update(env_vars)
    return subprocess.run([str(exe)], capture_output=True, text=True, env=env, timeout=300)


# ---------------------------------------------------------------- start-up

def test_kernels_are_registered_for_the_start_up(tmp_path):
    f = tmp_path / "t.c"
    f.write_text(PROFILED)
    host = translate(str(f), Options(inputs=[str(f)], offload="emu")).host_c
    registered = re.search(r"static const ompgpu_kernel_desc \*const kernels\[\] = \{(.*?)\};", host, re.S)
    # the region's kernel, and the persistent loop's that runs the rep loop where its arrays are
    # present (here they are not: the loop runs as written)
    assert registered and registered.group(1).count("&__ompgpu_kd_") == 2, host[-800:]
    assert "ompgpu_register_kernels(kernels, 2);" in host
    f.write_text(NO_TARGET)
    assert "ompgpu_register_kernels" not in translate(str(f), Options(inputs=[str(f)], offload="emu")).host_c


def test_devices_start_before_main_in_the_background_or_lazily(tmp_path):
    exe = build(tmp_path, "profiled", PROFILED)
    # eager (the default): main begins once the start-up is done, so that the program's own
    # clock never counts it
    for eager in (run(exe, OMPGPU_INFO="1"), run(exe, OMPGPU_INFO="1", OMPGPU_STARTUP="eager")):
        assert eager.returncode == 0 and eager.stdout == "1998\n", eager.stderr
        ready = re.search(r"start-up before main: device 0 \(.*\) ready, 2 kernels loaded, after [0-9.]+ ms "
                          r"\(CUDA runtime [0-9.]+, context [0-9.]+, device memory [0-9.]+, staging [0-9.]+, kernels [0-9.]+\)", eager.stderr)
        assert ready and ready.start() < eager.stderr.index("main begins"), eager.stderr
        assert "runs as written ('a[0:n]' is not present on the device)" in eager.stderr
    background = run(exe, OMPGPU_INFO="1", OMPGPU_STARTUP="background")
    assert background.returncode == 0 and background.stdout == "1998\n", background.stderr
    assert re.search(r"start-up in the background: device 0 \(.*\) ready, 2 kernels loaded", background.stderr)
    for quiet in ({"OMPGPU_STARTUP": "lazy"}, {"OMP_TARGET_OFFLOAD": "DISABLED"}):
        r = run(exe, OMPGPU_INFO="1", **quiet)
        assert r.returncode == 0 and r.stdout == "1998\n", r.stderr
        assert "start-up" not in r.stderr
    bad = run(exe, OMPGPU_STARTUP="early")
    assert "ignoring OMPGPU_STARTUP='early' (expected eager, background or lazy)" in bad.stderr


LIBRARY = r"""
double twice_on_device(int n) {
  double s = 0;
#pragma omp target teams distribute parallel for reduction(+: s) map(tofrom: s)
  for (int i = 0; i < n; i++) s += 2.0 * i;
  return s;
}
"""


def test_a_shared_object_starts_its_devices_in_the_background(tmp_path):
    # dlopen runs the library's constructors with the loader's lock held, and there is no main of
    # the library's to wait for: a shared object (the Python API's modules) never waits
    (tmp_path / "lib.c").write_text(LIBRARY)
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", "-fPIC", "-shared", "lib.c", "-o",
                        "libtwice.so"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr
    load = ("import ctypes, sys; lib = ctypes.CDLL(sys.argv[1]); lib.twice_on_device.restype = ctypes.c_double; "
            "print(lib.twice_on_device(1000))")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPGPU_", "OMP_"))}
    r = subprocess.run([sys.executable, "-c", load, str(tmp_path / "libtwice.so")], capture_output=True, text=True,
                       env={**env, "OMPGPU_INFO": "1", "OMP_TARGET_OFFLOAD": "MANDATORY"}, timeout=300)
    assert r.returncode == 0 and r.stdout == "999000.0\n", r.stderr
    assert re.search(r"start-up in the background: device 0 \(", r.stderr), r.stderr
    assert "before main" not in r.stderr


def test_start_up_takes_the_ranks_own_device(tmp_path):
    # three emulated GPUs: an MPI rank starts its node-local rank's device (modulo the count), or
    # OMP_DEFAULT_DEVICE's, and its regions run there
    exe = build(tmp_path, "profiled", PROFILED)
    for settings, device in (({"OMPI_COMM_WORLD_LOCAL_RANK": "5", "OMPI_COMM_WORLD_RANK": "5"}, 2),
                             ({"OMP_DEFAULT_DEVICE": "1"}, 1)):
        r = run(exe, OMPGPU_EMU_DEVICES="3", OMPGPU_INFO="1", **settings)
        assert r.returncode == 0 and r.stdout == "1998\n", r.stderr
        assert f"start-up before main: device {device} (" in r.stderr, r.stderr
        assert set(re.findall(r"kernel \S+: .*, device (\d+)$", r.stderr, re.M)) == {str(device)}, r.stderr


def test_program_without_target_regions_starts_nothing(tmp_path):
    r = run(build(tmp_path, "plain", NO_TARGET), OMPGPU_INFO="1")
    assert r.returncode == 0 and r.stdout == "no target\n" and r.stderr == ""


def test_fork_and_system_before_the_first_target_region(tmp_path):
    # the run-and-check program: its child works on the host, under MANDATORY too
    exe = build(tmp_path, "fork_before_target", PROGRAMS / "fork_before_target.c")
    for settings in ({"OMP_TARGET_OFFLOAD": "MANDATORY"}, {"OMPGPU_STARTUP": "lazy"}):
        r = run(exe, **settings)
        assert r.returncode == 0 and r.stdout == (PROGRAMS / "fork_before_target.expected").read_text(), r.stderr


def test_a_forked_child_that_offloads(tmp_path):
    exe = build(tmp_path, "child_offloads", CHILD_OFFLOADS)
    expected = "child: PASS\nparent: PASS\n"
    # eager start-up: the child cannot use the parent's CUDA state; it runs on the host, and says so
    eager = run(exe, OMPGPU_INFO="1")
    assert eager.returncode == 0 and eager.stdout == expected, eager.stderr
    assert "warning: target constructs of this process run on the host: this process was forked after its parent " \
           "initialised CUDA" in eager.stderr
    assert len(re.findall(r": kernel \S+: \d+ teams", eager.stderr)) == 1   # the parent's region only
    # lazy: CUDA is untouched until the first construct, so the child offloads too
    lazy = run(exe, OMPGPU_INFO="1", OMPGPU_STARTUP="lazy")
    assert lazy.returncode == 0 and lazy.stdout == expected, lazy.stderr
    assert "warning" not in lazy.stderr
    assert len(re.findall(r": kernel \S+: \d+ teams", lazy.stderr)) == 2
    # the child's regions need a device under MANDATORY: an error naming why, not a wrong answer
    mandatory = run(exe, OMP_TARGET_OFFLOAD="MANDATORY")
    assert mandatory.stdout == "child: FAIL\nparent: PASS\n", mandatory.stdout
    assert "OMP_TARGET_OFFLOAD=MANDATORY but no GPU is available (this process was forked" in mandatory.stderr


# ---------------------------------------------------------------- staged copies

@pytest.mark.parametrize("settings", [
    {},                                                              # the defaults
    {"OMPGPU_COPY_THREADS": "3", "OMPGPU_STAGING_MIN_BYTES": "4096"},   # helpers, almost every copy staged
    {"OMPGPU_COPY_THREADS": "0", "OMPGPU_STAGING_MIN_BYTES": "1"},      # the caller alone, every copy staged
    {"OMPGPU_STAGING_MIN_BYTES": "0"},                               # staging off
    {"OMPGPU_FRESH_PAGES": "none", "OMPGPU_STAGING_BUFFERS": "2"},     # no advice, two buffers a direction
    {"OMPGPU_COPY_THREADS": "15", "OMPGPU_STAGING_CHUNK_BYTES": "262144"},   # many helpers, small chunks
])
def test_staged_copies_are_exact(tmp_path, settings):
    exe = build(tmp_path, "staged_transfers", PROGRAMS / "staged_transfers.c")
    trace = tmp_path / "trace.json"
    r = run(exe, OMP_TARGET_OFFLOAD="MANDATORY", OMPGPU_PROFILE=str(trace), **settings)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout == (PROGRAMS / "staged_transfers.expected").read_text()
    if settings.get("OMPGPU_STAGING_MIN_BYTES") != "0":
        check_chunks(json.loads(trace.read_text())["traceEvents"],
                     buffer_bytes=int(settings.get("OMPGPU_STAGING_CHUNK_BYTES", 8 << 20)))


def chunk_dmas_of(copy: dict, events: list[dict]) -> list[dict]:
    """A copy's staged chunks in OMPGPU_PROFILE's trace: the chunk DMAs on its track inside its span,
    in chunk order (none: the copy was not staged)."""
    a, b = copy["ts"], copy["ts"] + copy["dur"]
    return sorted((e for e in events if e.get("cat") == "staging" and e["name"].startswith("chunk DMA")
                   and (e["pid"], e["tid"]) == (copy["pid"], copy["tid"]) and a <= e["ts"] <= b),
                  key=lambda e: e["args"]["chunk"])


def check_chunks(events: list[dict], buffer_bytes: int) -> None:
    """Every staged copy's chunks (OMPGPU_PROFILE's trace) tile it: in order, their bytes adding up to
    the copy's, none larger than a buffer, all of one length to a byte."""
    checked = 0
    for copy in (e for e in events if e.get("cat") == "transfer"):
        mine = chunk_dmas_of(copy, events)
        if not mine:
            continue
        lengths = [e["args"]["bytes"] for e in mine]
        assert [e["args"]["chunk"] for e in mine] == list(range(len(mine)))
        assert sum(lengths) == copy["args"]["bytes"] and max(lengths) <= buffer_bytes, lengths
        assert max(lengths) - min(lengths) <= 1, lengths
        checked += len(lengths) >= 3
    assert checked > 0, "no staged copy of three chunks or more"


def test_bad_staging_settings_are_named(tmp_path):
    exe = build(tmp_path, "profiled", PROFILED)
    r = run(exe, OMPGPU_STAGING_MIN_BYTES="lots", OMPGPU_COPY_THREADS="-2")
    assert r.returncode == 0 and r.stdout == "1998\n"
    assert "ignoring OMPGPU_STAGING_MIN_BYTES='lots'" in r.stderr
    assert "ignoring OMPGPU_COPY_THREADS='-2' (expected 0 to 64)" in r.stderr


FRESH_DESTINATIONS = r"""
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  const long n = 3L << 20;   /* 24 MiB of doubles each: staged copies of several chunks */
  double *fresh = malloc(n * sizeof *fresh), *kept = malloc(n * sizeof *kept), *touched = malloc(n * sizeof *touched);
  for (long i = 0; i < n; i++) touched[i] = -1;
  long zeros = 0, wrong = 0;
#pragma omp target teams distribute parallel for map(from: fresh[0:n], touched[0:n])
  for (long i = 0; i < n; i++) { fresh[i] = i; touched[i] = 2.0 * i; }
#pragma omp target data map(from: kept[0:n])
  {
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; i++) kept[i] = 3.0 * i;
    /* kept comes back at the end of the data region: readied from its start, not written */
    for (long i = 0; i < n; i++) zeros += kept[i] == 0;
  }
  for (long i = 0; i < n; i++) wrong += fresh[i] != i || kept[i] != 3.0 * i || touched[i] != 2.0 * i;
  printf("kept inside the data region: %ld of %ld zero; wrong after it: %ld\n", zeros, n, wrong);
  free(fresh); free(kept); free(touched);
  return 0;
}
"""


@pytest.fixture(scope="module")
def fresh_destinations_exe(tmp_path_factory) -> Path:
    """FRESH_DESTINATIONS built once for the settings below."""
    return build(tmp_path_factory.mktemp("fresh"), "fresh", FRESH_DESTINATIONS)


@pytest.mark.parametrize("settings, readied", [
    ({"OMPGPU_COPY_THREADS": "3"}, True),
    ({"OMPGPU_COPY_THREADS": "0"}, False),                            # no helpers to fault pages in
    ({"OMPGPU_COPY_THREADS": "3", "OMPGPU_FRESH_PAGES": "huge"}, False),   # faulting ahead off
])
def test_fresh_destinations_are_faulted_in_while_kernels_run(fresh_destinations_exe, settings, readied):
    """map(from:) destinations that no page backs yet are faulted in by the copy helpers while the
    kernels run, contents unchanged: a target region's (fresh; touched is not fresh) from its launch,
    a target data region's (kept) from the region's start."""
    r = run(fresh_destinations_exe, OMP_TARGET_OFFLOAD="MANDATORY", OMPGPU_INFO="1", **settings)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout == "kept inside the data region: 3145728 of 3145728 zero; wrong after it: 0\n"
    region = re.findall(r"fresh.c:9: kernel \S+: ([0-9.]+) MB of fresh destination pages faulted in while it runs",
                        r.stderr)
    data = re.findall(r"fresh.c:11: ([0-9.]+) MB of fresh destination pages faulted in from the region's start",
                      r.stderr)
    assert (region, data) == ((["25.2"], ["25.2"]) if readied else ([], [])), r.stderr[-2000:]


# ---------------------------------------------------------------- OMPGPU_PROFILE

def table_rows(stderr: str) -> dict[str, list[str]]:
    """location + construct -> [kernel, mode, launches, kernel ms, mean us, to MB, to ms, from MB, from ms,
    allocs, alloc MB, alloc ms]"""
    lines = stderr.splitlines()
    start = lines.index("ompgpu profile (OMPGPU_PROFILE): time and data of each target construct")
    assert lines[start + 1].split()[:3] == ["location", "construct", "kernel"], lines[start + 1]
    rows = {}
    for line in lines[start + 2:]:
        if line.startswith("transfer rates:"):
            break
        fields = line.split()
        rows[" ".join(fields[:-12])] = fields[-12:]
    return rows


def test_profile_table(tmp_path):
    exe = build(tmp_path, "profiled", PROFILED)
    r = run(exe, OMPGPU_PROFILE="1")
    assert r.returncode == 0 and r.stdout == "1998\n", r.stderr
    rows = table_rows(r.stderr)
    kernel = rows["profiled.c:8 target teams distribute parallel for"]
    # launches, then to-device MB and from-device MB: 3 x 8000 bytes each way, 6 allocations
    assert kernel[0].startswith("__omp_offloading_main_l8") and kernel[1:3] == ["spmd", "3"], kernel
    assert float(kernel[3]) > 0 and kernel[5] == "0.024" and kernel[7] == "0.024" and kernel[9] == "6", kernel
    data = rows["profiled.c:11 target data"]
    assert data[:3] == ["-", "-", "0"] and data[5] == "0.004" and data[7] == "0.004" and data[9] == "1", data
    update = rows["profiled.c:13 target update"]
    assert update[5] == "0.002" and update[7] == "0.000" and update[9] == "0", update
    total = rows["total -"]
    assert total[2] == "3" and total[5] == "0.030" and total[7] == "0.028" and total[9] == "7", total
    assert re.search(r"transfer rates: to the device [0-9.]+ GB/s, from the device [0-9.]+ GB/s", r.stderr)
    quiet = run(exe)
    assert "OMPGPU_PROFILE" not in quiet.stderr


def test_profile_trace_is_chrome_trace_json(tmp_path):
    exe = build(tmp_path, "profiled", PROFILED)
    trace = tmp_path / "trace.json"
    r = run(exe, OMPGPU_PROFILE=str(trace))
    assert r.returncode == 0 and "ompgpu profile (OMPGPU_PROFILE)" in r.stderr, r.stderr
    events = json.loads(trace.read_text())["traceEvents"]
    names = {(e["pid"], e["args"]["name"]) for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    assert (0, "host") in names and (1, "GPU 0 (ompgpu emulator)") in names, names
    kernels = [e for e in events if e.get("cat") == "kernel"]
    assert len(kernels) == 3 and all(e["pid"] == 1 and e["dur"] >= 0 and e["args"]["mode"] == "spmd" for e in kernels)
    assert all(e["args"]["location"].endswith("profiled.c:8") and
               e["args"]["construct"] == "target teams distribute parallel for" for e in kernels)
    copies = [e for e in events if e.get("cat") == "transfer"]
    to_dev = sum(e["args"]["bytes"] for e in copies if e["name"] == "copy to device")
    from_dev = sum(e["args"]["bytes"] for e in copies if e["name"] == "copy from device")
    assert (to_dev, from_dev) == (3 * 8000 + 4000 + 2000, 3 * 8000 + 4000)
    waits = [e for e in events if e.get("cat") == "wait"]
    assert len(waits) == 3 and all(e["pid"] == 0 for e in waits)
    constructs = [e for e in events if e.get("cat") == "construct"]   # each holds its kernel's wait
    assert len(constructs) == 3 and all(e["pid"] == 0 for e in constructs)
    assert all(any(c["ts"] <= w["ts"] and w["ts"] + w["dur"] <= c["ts"] + c["dur"] for c in constructs) for w in waits)
    # every timed event lies on the run's clock, in order of its kernels
    starts = [e["ts"] for e in kernels]
    assert starts == sorted(starts) and all(t >= 0 for t in starts)

    # Copies staged through the pinned buffers (every copy of 4 KB or more, here the kernel's 8000
    # bytes each way) show their chunks: each chunk's DMA inside its copy, on the copy's track;
    # each chunk's host side on a track of its staging buffer, named for it.
    assert not [e for e in events if e.get("cat") == "staging"]   # the copies above were not staged
    staged = run(exe, OMPGPU_PROFILE=str(trace), OMPGPU_STAGING_MIN_BYTES="4096", OMPGPU_COPY_THREADS="3")
    assert staged.returncode == 0 and staged.stdout == "1998\n", staged.stderr
    events = json.loads(trace.read_text())["traceEvents"]
    tracks = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    chunks = [e for e in events if e.get("cat") == "staging"]
    for direction in ("to", "from"):
        copies = [e for e in events if e.get("cat") == "transfer" and e["name"] == f"copy {direction} device"
                  and e["args"]["bytes"] == 8000]
        dmas = [e for e in chunks if e["name"] == f"chunk DMA {direction} device"]
        host_sides = [e for e in chunks if e["name"] == ("into" if direction == "to" else "out of") + " staging buffer"]
        assert len(copies) == 3 and len(dmas) == 3 and len(host_sides) == 3, (direction, copies, dmas)
        for copy, dma in zip(copies, dmas):
            assert (dma["pid"], dma["tid"]) == (copy["pid"], copy["tid"]) and dma["args"]["bytes"] == 8000
            assert copy["ts"] <= dma["ts"] and dma["ts"] + dma["dur"] <= copy["ts"] + copy["dur"] + 1e-3, (copy, dma)
        for side in host_sides:
            assert side["pid"] == 0 and side["dur"] >= 0 and side["args"]["chunk"] == 0
            assert tracks[(0, side["tid"])] == f"staging buffer {side['args']['buffer']} {direction} GPU 0"

    # With few helpers the driver's own path is a candidate too for copies from the device: a size
    # class's first copy is staged (no helper), its second goes the driver's way (no chunks), the
    # third the faster way. To the device every copy is staged.
    few = run(exe, OMPGPU_PROFILE=str(trace), OMPGPU_STAGING_MIN_BYTES="4096", OMPGPU_COPY_THREADS="0")
    assert few.returncode == 0 and few.stdout == "1998\n", few.stderr
    events = json.loads(trace.read_text())["traceEvents"]
    for direction, want in (("to", [True, True, True]), ("from", [True, False])):
        copies = sorted((e for e in events if e.get("cat") == "transfer" and e["name"] == f"copy {direction} device"
                         and e["args"]["bytes"] == 8000), key=lambda e: e["ts"])
        chunked = [bool(chunk_dmas_of(c, events)) for c in copies]
        assert chunked[:len(want)] == want, (direction, chunked)


def test_profile_trace_unwritable_is_a_warning(tmp_path):
    exe = build(tmp_path, "profiled", PROFILED)
    r = run(exe, OMPGPU_PROFILE=str(tmp_path / "no" / "such" / "dir" / "t.json"))
    assert r.returncode == 0 and r.stdout == "1998\n"
    assert "warning: OMPGPU_PROFILE: cannot write the trace to" in r.stderr
