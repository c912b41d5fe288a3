"""Every benchmark builds with `ompgpu cc --offload=emu` (the application kernels' nested and
SPMD versions, every variant of the flat kernels) and its CUDA version builds against
ompgpu's CUDA emulator; all run at a small size on the CPU and pass their own check against
the CPU reference. The ompgpu variants are built and run by the tests' build farm, ahead
(tests/buildfarm.py): no Python start per build, both cores busy while a test checks."""
import os
import subprocess
from pathlib import Path

import pytest

from bench_runner import FLAT_VARIANTS, KERNELS, PROBLEM_VARIANTS, parse_output, variants
from buildfarm import submit_ahead

ROOT = Path(__file__).resolve().parents[2]
EMU = ROOT / "ompgpu" / "runtime" / "emu"


def _cuda_build(kernel: str, out: Path) -> list[str]:
    """The CUDA version compiled against ompgpu's CUDA emulator; the CUDA version of a flat
    kernel solves the problem of its last variant (the largest radius, ...)."""
    src = ROOT / "bench" / kernel / f"{kernel}.cu"
    cuda_flags = list(variants(kernel).values())[-1] if kernel in FLAT_VARIANTS or kernel in PROBLEM_VARIANTS else []
    return [os.environ.get("CXX", "g++"), "-std=c++17", "-O1", "-x", "c++", "-DOMPGPU_EMU", "-include",
            str(EMU / "cuda_source.h"), f"-I{EMU}", *cuda_flags, str(src), "-o", str(out / "cuda"), "-lpthread"]


@pytest.fixture(scope="module")
def ompgpu_runs(request, build_farm, tmp_path_factory):
    """Each kernel's ompgpu variants built and run (BENCH_REPS=2) by the build farm, ahead, the
    kernels in the order the tests take them: {kernel's parameters: (its folder, {variant: Future})}."""
    def job(params):
        kernel = params["kernel"]
        out = tmp_path_factory.mktemp(kernel)
        src = ROOT / "bench" / kernel / f"{kernel}.c"
        return out, {v: build_farm.submit(["cc", "--offload=emu", *flags, src, "-o", out / v], cwd=ROOT,
                                          run=[out / v, *KERNELS[kernel][1]], run_env=dict(os.environ, BENCH_REPS="2"),
                                          run_timeout=120)
                     for v, flags in variants(kernel).items()}
    return submit_ahead(request, test_benchmark_passes_its_check_on_the_cpu, job)


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_benchmark_passes_its_check_on_the_cpu(kernel, ompgpu_runs):
    out, jobs = ompgpu_runs[(("kernel", kernel),)]
    cuda = subprocess.run(_cuda_build(kernel, out), cwd=ROOT, capture_output=True, text=True)
    assert cuda.returncode == 0, f"{kernel} cuda did not build:\n{(cuda.stdout + cuda.stderr)[-3000:]}"
    runs = {}
    for variant, future in jobs.items():
        result = future.result()
        assert result.build.returncode == 0, f"{kernel} {variant} did not build:\n{result.build.stderr[-3000:]}"
        runs[variant] = result.run
    runs["cuda"] = subprocess.run([str(out / "cuda"), *KERNELS[kernel][1]], capture_output=True, text=True, timeout=120,
                                  env=dict(os.environ, BENCH_REPS="2"))
    for variant, r in runs.items():
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
