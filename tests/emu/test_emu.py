"""Tests of the device emulator (ompgpu/runtime/emu/cuda_emu.h).

Each program under programs/ is built with g++ against the emulator and run; the portable
ones also run on a GPU when OMPGPU_EMU_TEST_CUDA=1 (see conftest.py).
"""

import re
import subprocess
from pathlib import Path

import pytest

from conftest import CXX, EMU_FLAGS, PROGRAMS, backends, find_nvcc, run


def ok_lines(out, *names):
    for name in names:
        assert re.search(rf"^{name} ok\b", out, re.M), out


# ----- portable programs ------------------------------------------------------------------


@pytest.mark.parametrize("backend", backends())
def test_thread_and_block_ids(builder, backend):
    r = run(builder.build("ids", backend))
    assert r.returncode == 0, r.stdout + r.stderr
    ok_lines(r.stdout, "ids", "ids1d")


@pytest.mark.parametrize("backend", backends())
def test_shared_memory_is_per_block(builder, backend):
    r = run(builder.build("shared", backend))
    assert r.returncode == 0, r.stdout + r.stderr
    ok_lines(r.stdout, "shared")


def test_shared_memory_with_parallel_blocks(builder):
    r = run(builder.build("shared"), env={"OMPGPU_EMU_THREADS": "4"})
    assert r.returncode == 0, r.stdout + r.stderr
    ok_lines(r.stdout, "shared")


@pytest.mark.parametrize("backend", backends())
def test_warp_collectives(builder, backend):
    r = run(builder.build("warp", backend))
    assert r.returncode == 0, r.stdout + r.stderr
    ok_lines(r.stdout, "warp", "after_exit")


@pytest.mark.parametrize("backend", backends())
@pytest.mark.parametrize("threads", ["1", "4"])
def test_atomics_and_spin_lock(builder, backend, threads):
    if backend == "cuda" and threads != "1":
        pytest.skip("OMPGPU_EMU_THREADS is an emulator setting")
    r = run(builder.build("atomics", backend), env={"OMPGPU_EMU_THREADS": threads})
    assert r.returncode == 0, r.stdout + r.stderr
    ok_lines(r.stdout, "atomics", "spin_lock")


@pytest.mark.parametrize("backend", backends())
@pytest.mark.parametrize("args", ["256 8 100 0", "1024 2 20 0", "1024 2 20 200", "64 3 10 5", "160 2 10 64",
                                  "32 1 5 0"])
def test_named_barrier_fork_join(builder, backend, args):
    """Master warp (lanes 1..31 returned) + workers on bar.sync 8; region barrier 7."""
    r = run(builder.build("forkjoin", backend), *args.split())
    assert r.returncode == 0, r.stdout + r.stderr
    ok_lines(r.stdout, "forkjoin", "exited_warps", "arrive", "exit_deep")


def test_fork_join_with_parallel_blocks(builder):
    r = run(builder.build("forkjoin"), 256, 16, 50, env={"OMPGPU_EMU_THREADS": "3"})
    assert r.returncode == 0, r.stdout + r.stderr
    ok_lines(r.stdout, "forkjoin", "exited_warps", "arrive", "exit_deep")


OPT_BUILDS = [("warp", "-O2", (), ("warp", "after_exit")),
              ("atomics", "-O2", (), ("atomics", "spin_lock")),
              ("forkjoin", "-O2", (256, 4, 20), ("forkjoin", "exited_warps", "arrive", "exit_deep")),
              ("forkjoin", "-O0", (256, 4, 20), ("forkjoin", "exited_warps", "arrive", "exit_deep"))]


@pytest.mark.parametrize("name,opt,args,oks", OPT_BUILDS, ids=[f"{b[0]}{b[1]}" for b in OPT_BUILDS])
def test_other_optimization_levels(builder, name, opt, args, oks):
    """The optimizer must not merge or move collectives (e.g. __activemask in two branches)."""
    r = run(builder.build(name, extra=(opt,)), *args)
    assert r.returncode == 0, r.stdout + r.stderr
    ok_lines(r.stdout, *oks)


@pytest.mark.parametrize("backend", backends())
def test_launch_errors(builder, backend):
    r = run(builder.build("launch_errors", backend))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines() == [
        "block 1025: cudaErrorInvalidValue",  # CUDA 13 (H100): InvalidValue, not InvalidConfiguration
        "block 0: cudaErrorInvalidValue",
        "grid 0: cudaErrorInvalidValue",
        "block z 65: cudaErrorInvalidValue",
        "block 32x32x2: cudaErrorInvalidValue",
        "grid y 65536: cudaErrorInvalidValue",
        "64 KiB dynamic shared without opt-in: cudaErrorInvalidValue",
        "64 KiB dynamic shared after opt-in: cudaSuccess",
        "opt-in 300 KiB: cudaErrorInvalidValue",
        "block 1024: cudaSuccess",
        "good launches ran: 32",
    ]


@pytest.mark.parametrize("backend", backends())
def test_host_api_round_trips(builder, backend):
    r = run(builder.build("memory", backend))
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    portable = [ln for ln in lines if not ln.startswith("emu: ")]
    assert portable == [
        "memcpy ok",
        "memset ok",
        "default-direction offset copy ok",
        "symbols ok",
        "symbol copy past the end: cudaErrorInvalidValue",
        "zero-size malloc gives null",
        "device queries ok",
        "cudaSetDevice(99): cudaErrorInvalidDevice",
        "versions ok",
        "streams and events ok",
        "cudaErrorMemoryAllocation / out of memory",
        "cudaErrorInvalidValue / invalid argument",
        "cudaErrorNoDevice / no CUDA-capable device is detected",
        "cudaSuccess / no error",
        "huge cudaMalloc: cudaErrorMemoryAllocation",
        "last error after it: cudaErrorMemoryAllocation",
        "H2D into host memory: cudaErrorInvalidValue",
        "copy past an allocation: cudaErrorInvalidValue",
        "freed twice: cudaSuccess cudaErrorInvalidValue",
        "stack variable as symbol: cudaErrorInvalidSymbol",
    ]
    if backend == "emu":
        assert [ln for ln in lines if ln.startswith("emu: ")] == ['emu: name "ompgpu emulator"']


def test_no_device(builder):
    r = run(builder.build("ids"), env={"OMPGPU_EMU_DEVICES": "0"})
    assert r.returncode == 1
    assert "cudaErrorNoDevice" in r.stdout


def test_sms_setting(builder, tmp_path):
    src = tmp_path / "sms.cu"
    src.write_text('#include <cstdio>\nint main() { cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);\n'
                   '  printf("%s %d\\n", p.name, p.multiProcessorCount); }\n')
    exe = tmp_path / "sms"
    subprocess.run([CXX, *EMU_FLAGS, "-x", "c++", str(src), "-o", str(exe)], check=True)
    assert run(exe).stdout == "ompgpu emulator 132\n"
    assert run(exe, env={"OMPGPU_EMU_SMS": "7"}).stdout == "ompgpu emulator 7\n"


@pytest.mark.parametrize("backend", backends())
def test_device_printf(builder, backend):
    r = run(builder.build("printf", backend))
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    want = ["host before"]
    for b in range(2):
        want += [f"hello block {b} thread {t} tag 7" for t in range(3)]
        want.append(f"block {b} after the barrier, 3.50")
    want.append("host after")
    if backend == "emu":
        assert lines == want  # blocks run in order, threads in order up to the barrier
    else:
        assert sorted(lines) == sorted(want)


# ----- reports: deadlock and misuse ---------------------------------------------------------


def broken(builder, scenario, env=None):
    r = run(builder.build("broken"), scenario, env=env, timeout=30)
    assert r.returncode == 3, f"rc {r.returncode}\n{r.stdout}{r.stderr}"
    assert r.stdout.startswith(f"scenario {scenario}\n")
    assert "finished" not in r.stdout
    assert r.stderr.startswith("ompgpu-emu: "), r.stderr
    return r.stderr


def test_deadlock_report(builder):
    err = broken(builder, "deadlock")
    assert err.splitlines() == [
        "ompgpu-emu: deadlock in block (0,0,0) of kernel k_deadlock: barrier 7 expects 64 threads, 32 arrived",
        "  threads 0-31 (warp 0) wait at barrier 7 (count 64)",
        "  threads 32-159 (warps 1-4) wait at barrier 8 (count 160)",
    ]


def test_deadlock_report_collective(builder):
    err = broken(builder, "coll_deadlock")
    lines = err.splitlines()
    assert lines[0].startswith("ompgpu-emu: deadlock in block (0,0,0) of kernel k_coll_deadlock: ")
    assert lines[1:] == [
        "  threads 0-15 (warp 0) wait at __shfl_sync (mask 0xffffffff)",
        "  threads 16-31 (warp 0) wait at __syncthreads (barrier 0) for the other lanes of their warp",
    ]


MISUSE = [
    ("count40", None, r"barrier 1: thread count 40 is not a multiple of the warp size 32"),
    ("count_exceeds", None, r"barrier 1: thread count 288 exceeds the block's 8 warps \(256 threads\)"),
    ("mixed_counts", None, r"barrier 7 used with different thread counts in one generation: count 64 by warp\(s\) 0, "
                           r"count 96 by warp 1"),
    ("split", None, r"warp 0 split across barriers: thread 16 arrives at barrier 8 while threads 0-15 of its warp "
                    r"wait at barrier 7"),
    ("double_arrive", None, r"warp 0 arrived twice at barrier 9 before the barrier completed"),
    ("dynshared", None, r"kernel k_dyn: dynamic shared memory request of 245760 bytes exceeds the 232448 bytes"),
    ("stack", None, r"stack overflow in block \(0,0,0\) thread 0 of kernel k_stack \(fiber stacks are 65536 bytes"),
    ("trap", None, r"^ompgpu-emu: trap in block \(0,0,0\) thread 5 of kernel k_trap$"),
    ("fail", None, r"^ompgpu-emu: ompgpu: soft stack overflow in team 1 \(needed 4096 bytes, 1024 available\)\n"
                   r"ompgpu-emu:  \(in block \(1,0,0\) thread 0 of kernel k_fail\)$"),
    ("segv", None, r"illegal memory access at address 0x10 in block \(0,0,0\) thread 3 of kernel k_segv"),
    ("mask", None, r"__shfl_sync: mask 0x00000001 does not include the calling lane 1"),
    ("collmix", None, r"lanes of warp 0 meet at different warp collectives with mask 0xffffffff: "
                      r"thread 0 at __ballot_sync, thread 16 at __shfl_sync"),
    ("div0", None, r"arithmetic exception \(integer division by zero\) in block \(0,0,0\) thread 0 of kernel k_div0"),
    ("spin", {"OMPGPU_EMU_SPIN_LIMIT": "100000"}, r"livelock in block \(0,0,0\) of kernel k_spin"),
    ("plain_spin", {"OMPGPU_EMU_TIMEOUT": "1"}, r"kernel k_plain_spin did not finish within OMPGPU_EMU_TIMEOUT=1 s"),
]


@pytest.mark.parametrize("scenario,env,pattern", MISUSE, ids=[m[0] for m in MISUSE])
def test_misuse_report(builder, scenario, env, pattern):
    err = broken(builder, scenario, env)
    assert re.search(pattern, err, re.M), err


def test_stack_size_setting(builder):
    r = run(builder.build("broken"), "stack", env={"OMPGPU_EMU_STACK": str(1 << 20)})
    assert r.returncode == 0, r.stdout + r.stderr
    assert "finished: cudaSuccess" in r.stdout


# ----- builds ------------------------------------------------------------------------------------


def test_two_translation_units_and_plain_host_code(tmp_path):
    """Header in a device TU and a plain C++ host TU of one program (inline globals, -Wextra)."""
    flags = [*EMU_FLAGS, "-Wextra"]
    k = tmp_path / "k.o"
    h = tmp_path / "h.o"
    exe = tmp_path / "two"
    subprocess.run([CXX, *flags, "-x", "c++", "-c", str(PROGRAMS / "two_tu_kernel.cu"), "-o", str(k)], check=True)
    subprocess.run([CXX, *flags, "-c", str(PROGRAMS / "two_tu_host.cpp"), "-o", str(h)], check=True)
    subprocess.run([CXX, str(k), str(h), "-o", str(exe), "-lpthread"], check=True)
    r = run(exe)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("two_tu ok (launch 0, 0 bad, counter 384)")


def test_ucontext_fallback(builder):
    """The portable context switch (non-x86-64 hosts) gives the same results."""
    r = run(builder.build("forkjoin", extra=("-DOMPGPU_EMU_UCONTEXT",)), 256, 2, 20)
    assert r.returncode == 0, r.stdout + r.stderr
    ok_lines(r.stdout, "forkjoin", "exited_warps", "arrive", "exit_deep")


def asan_build(builder, name):
    try:
        return builder.build(name, extra=("-fsanitize=address",))
    except RuntimeError as e:
        if "asan" in str(e).lower():
            pytest.skip("no AddressSanitizer runtime")
        raise


def test_address_sanitizer(builder):
    """Fibers are announced to ASan (no false reports), and kernels' out-of-bounds accesses
    to cudaMalloc memory are caught."""
    r = run(asan_build(builder, "forkjoin"), 256, 2, 10)
    assert r.returncode == 0, r.stdout + r.stderr
    ok_lines(r.stdout, "forkjoin", "exited_warps", "arrive", "exit_deep")
    assert "AddressSanitizer" not in r.stderr and "WARNING" not in r.stderr, r.stderr
    exe = asan_build(builder, "broken")
    r = run(exe, "oob")
    assert r.returncode != 0
    assert "heap-buffer-overflow" in r.stderr and "k_oob" in r.stderr, r.stderr
    r = run(exe, "deadlock")
    assert r.returncode == 3 and "ompgpu-emu: deadlock in block (0,0,0)" in r.stderr, r.stderr


def test_programs_compile_with_nvcc(tmp_path):
    """The test programs are CUDA: nvcc -std=c++17 -arch=sm_90 -c accepts them.

    For speed they go through nvcc as one translation unit, each program in a namespace of
    its own (includes hoisted), so nvcc parses the CUDA headers once.
    """
    nvcc = find_nvcc()
    if not nvcc:
        pytest.skip("nvcc not found")
    includes, bodies = [], []
    sources = sorted(PROGRAMS.glob("*.cu")) + sorted(PROGRAMS.glob("*.cpp"))
    for src in sources:
        body = []
        for line in src.read_text().splitlines():
            if line.lstrip().startswith("#include"):
                if line not in includes:
                    includes.append(line)
                line = ""
            body.append(line)
        bodies.append(f"namespace prog_{src.stem} {{\n#line 1 \"{src}\"\n" + "\n".join(body) + "\n}\n")
    combined = tmp_path / "all_programs.cu"
    combined.write_text("\n".join(includes) + "\n" + "".join(bodies))
    cmd = [nvcc, "-std=c++17", "-arch=sm_90", "-I", str(PROGRAMS), "-c", str(combined), "-o", str(tmp_path / "all.o")]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(sources) >= 10


# Last, so that the builds started at session start are done and do not skew the time.
def test_fork_join_benchmark(builder, capsys):
    """256 threads x 8 blocks x 100 fork/join rounds; the goal is well under 2 s."""
    r = run(builder.build("forkjoin"), 256, 8, 100)
    assert r.returncode == 0, r.stdout + r.stderr
    ok_lines(r.stdout, "forkjoin")
    ms = float(re.search(r"^time ([0-9.]+) ms", r.stdout, re.M).group(1))
    with capsys.disabled():
        print(f"\n[emu benchmark] fork/join 256 threads x 8 blocks x 100 rounds: {ms:.1f} ms")
    assert ms < 10000


def test_atomic_on_local_memory_is_reported(tmp_path):
    """On the GPU an atomic on a thread's local variable traps; the emulator says so."""
    src = tmp_path / "local_atomic.cu"
    src.write_text(
        "#include <cstdio>\n"
        "__global__ void k(int *out) { int local = 0; atomicAdd(&local, 1); out[threadIdx.x] = local; }\n"
        "int main() { int *d; cudaMalloc(&d, 32 * sizeof(int));\n"
        "  OMPGPU_LAUNCH_KERNEL(k, dim3(1), dim3(32), 0, 0, d); cudaDeviceSynchronize(); return 0; }\n")
    exe = tmp_path / "local_atomic"
    import subprocess
    from pathlib import Path
    header = Path(__file__).resolve().parents[2] / "ompgpu" / "runtime" / "emu" / "cuda_source.h"
    subprocess.run(["g++", "-std=c++17", "-O1", "-x", "c++", "-DOMPGPU_EMU", "-include", str(header), str(src),
                    "-o", str(exe), "-lpthread"], check=True)
    r = subprocess.run([str(exe)], capture_output=True, text=True)
    assert r.returncode == 3
    assert "ompgpu-emu:" in r.stderr and "atomic operation on local memory" in r.stderr


def test_the_emulator_defines_no_reserved_macro(tmp_path):
    """What `ompgpu cc --offload=emu` includes ahead of every file (cuda_emu.h) and what the
    device runtime adds (keywords.cuh) define no macro with a reserved name (`__x`, `_X`): a
    standard library header included after them may use the name (libstdc++ 13 writes
    `__attribute__((__noinline__))`, which a `__noinline__` macro broke)."""
    emu = Path(__file__).resolve().parents[2] / "ompgpu" / "runtime" / "emu"
    probe = tmp_path / "probe.cpp"
    probe.write_text('#include "../device/keywords.cuh"\n')

    def macros(*include: str) -> set[str]:
        out = subprocess.run([CXX, "-std=c++17", "-x", "c++", "-DOMPGPU_EMU", "-dM", "-E", *include, f"-I{emu}",
                              "-iquote", str(emu), str(probe)], capture_output=True, text=True, check=True).stdout
        return {m.group(1) for m in re.finditer(r"^#define (\w+)", out, re.M)}

    std_headers = [h for h in re.findall(r"^#include <([\w./]+)>", (emu / "cuda_emu.h").read_text(), re.M)]
    baseline = tmp_path / "std.h"
    baseline.write_text("".join(f"#include <{h}>\n" for h in std_headers))
    ours = macros("-include", str(emu / "cuda_emu.h"), "-include", str(emu / "../device/keywords.cuh"))
    theirs = macros("-include", str(baseline))
    reserved = sorted(m for m in ours - theirs if re.match(r"_[_A-Z]", m) and not m.startswith("_GLIBCXX"))
    assert reserved == [], f"reserved-name macros defined by the emulator: {reserved}"
    assert {"OMPGPU_DEVICE", "OMPGPU_SHARED", "OMPGPU_ACTIVEMASK"} <= ours


def test_a_standard_header_after_the_emulator_compiles(tmp_path):
    """Every libstdc++ header that ompgpu's host runtime or a user's file may include after
    the emulator's header compiles (the clash of issue 31 was <memory>'s __noinline__)."""
    emu = Path(__file__).resolve().parents[2] / "ompgpu" / "runtime" / "emu"
    src = tmp_path / "after.cpp"
    src.write_text("".join(f"#include <{h}>\n" for h in (
        "memory", "string", "mutex", "thread", "functional", "vector", "unordered_map", "atomic", "chrono",
        "condition_variable", "sstream", "iostream", "regex", "future", "shared_mutex", "optional", "variant")) +
        "int main() { return 0; }\n")
    r = subprocess.run([CXX, "-std=c++17", "-fsyntax-only", "-DOMPGPU_EMU", "-include", str(emu / "cuda_emu.h"),
                        "-include", str(emu / "../device/keywords.cuh"), str(src)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
