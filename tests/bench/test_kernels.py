"""Every benchmark builds with `ompgpu cc --offload=emu` (the application kernels' nested and
SPMD versions, every variant of the flat kernels) and its CUDA version builds against
ompgpu's CUDA emulator; all run at a small size on the CPU and pass their own check against
the CPU reference."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench_runner import FLAT_VARIANTS, KERNELS, PROBLEM_VARIANTS, parse_output, variants

ROOT = Path(__file__).resolve().parents[2]
EMU = ROOT / "ompgpu" / "runtime" / "emu"


def _builds(kernel: str, out: Path) -> dict[str, list[str]]:
    src = ROOT / "bench" / kernel / f"{kernel}.c"
    ompgpu = [sys.executable, "-m", "ompgpu", "cc", "--offload=emu"]
    builds = {v: [*ompgpu, *flags, str(src), "-o", str(out / v)] for v, flags in variants(kernel).items()}
    # the CUDA version of a flat kernel solves the problem of its last variant (the largest radius, ...)
    cuda_flags = list(variants(kernel).values())[-1] if kernel in FLAT_VARIANTS or kernel in PROBLEM_VARIANTS else []
    builds["cuda"] = [os.environ.get("CXX", "g++"), "-std=c++17", "-O1", "-x", "c++", "-DOMPGPU_EMU", "-include",
                      str(EMU / "cuda_source.h"), f"-I{EMU}", *cuda_flags, str(src.with_suffix(".cu")), "-o", str(out / "cuda"),
                      "-lpthread"]
    return builds


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_benchmark_passes_its_check_on_the_cpu(kernel, tmp_path):
    # three builds at a time: the machine has two cores and the compilers are single-threaded
    builds = list(_builds(kernel, tmp_path).items())
    procs, logs = {}, {}
    for start in range(0, len(builds), 3):
        batch = {v: subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                 for v, cmd in builds[start:start + 3]}
        logs.update({v: p.communicate()[0] for v, p in batch.items()})
        procs.update(batch)
    for v, p in procs.items():
        assert p.returncode == 0, f"{kernel} {v} did not build:\n{logs[v][-3000:]}"
    for variant in procs:
        r = subprocess.run([str(tmp_path / variant), *KERNELS[kernel][1]], capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, BENCH_REPS="2"))
        assert r.returncode == 0, f"{kernel} {variant}: rc={r.returncode}\n{r.stdout[-2000:]}{r.stderr[-2000:]}"
        parsed = parse_output(r.stdout)
        assert parsed["verdict"] == "PASS", r.stdout
        assert [rep for rep, _, _ in parsed["reps"]] == [0, 1]
        assert all(line.split()[1] == ("cuda" if variant == "cuda" else variant)
                   for line in r.stdout.splitlines() if " rep " in line)
        assert all(k >= 0 and e >= k for _, k, e in parsed["reps"]), "end-to-end time shorter than kernel time"


def test_heartwall_default_is_the_real_size():
    text = (ROOT / "bench" / "heartwall" / "heartwall.h").read_text()
    for define in ("HW_ROWS 609", "HW_COLS 590", "HW_POINTS 51", "HW_TH 25", "HW_SH 40", "HW_DEFAULT_FRAMES 20"):
        assert f"#define {define}" in text
