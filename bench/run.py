"""Application benchmarks: build every variant here, run them on a GPU machine, report.

    python bench/run.py build OUT [--only=k1,k2] [--compilers=ompgpu,clang,gcc,cuda] [--no-peers]
        (CPU machine) builds bench/<kernel>/<kernel>.c as the nested and, with -DSPMD, the
        SPMD version with ompgpu, clang 19 offload and gcc 12 offload, and <kernel>.cu with
        nvcc, into OUT/bin; records each compile time and compiler version in
        OUT/manifest.json and copies this script to OUT/run.py.
    python3 OUT/run.py run OUT [--reps=5] [--budget=240] [--csv=FILE] [--log=FILE]
        (GPU machine, standard library only) runs every binary with BENCH_REPS=reps and
        writes one CSV row per binary: PASS/FAIL, median kernel and end-to-end time.
    python bench/run.py plot CSV [-o PNG]      bar charts of speedups (matplotlib)
    python bench/run.py table CSV              the markdown tables of bench/README.md

Peer binaries need their run-time libraries on the GPU machine: source
`.peers/bin/peer-env.sh` before `run` (it also sets OMP_TARGET_OFFLOAD=MANDATORY).
"""
from __future__ import annotations

import csv
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# kernel -> (arguments of the GPU run, arguments of the CPU emulator tests); in the order of
# the project's priorities, which is also the order of the GPU run (the budget may cut the tail)
KERNELS: dict[str, tuple[list[str], list[str]]] = {
    "heartwall": ([], ["2"]),
    "imghisto": ([], ["256", "100"]),
    "lud": ([], ["96"]),
    "kmeans": ([], ["20000", "3"]),
    "backprop": ([], ["50000"]),
    "bfs": ([], ["20000"]),
    "transpose": ([], ["40"]),
    "gaussjordan": ([], ["64"]),
    "haccmk": ([], ["300", "500"]),
    "lavamd": ([], ["2"]),
    "particlefilter": ([], ["2000"]),
    "btree": ([], ["100000", "300"]),
    "streamcluster": ([], ["3000"]),
    # irregular nesting (issue 34): inner trip counts from a power law
    "sparserows": ([], ["4000", "500"]),
    # short rows and a share of long ones (issue 48, item 3): one variant per mix
    "rowmix": ([], ["4096"]),
    # the flat kernels (issue 17): loops as users write them every day, one level of parallelism
    "stream": ([], ["12"]),
    "tiledtranspose": ([], ["64"]),
    "stencil": ([], ["40"]),
    "mclookup": ([], ["3000", "300"]),
    "matmul": ([], ["64"]),
    # host loops of short kernels until convergence (issue 50): one variant per problem size
    "labelprop": ([], ["64"]),
    "jacobi": ([], ["40"]),
}

# the flat kernels' builds: variant -> the compiler flags that choose it (the CUDA version is
# built with the same flags, so that it solves the same problem); every other kernel has a
# nested and an SPMD version
FLAT_VARIANTS: dict[str, dict[str, list[str]]] = {
    "stream": {"devptr": [], "devptr_static": ["-DSTREAM_STATIC"], "map": ["-DSTREAM_MAP"],
               "map_static": ["-DSTREAM_MAP", "-DSTREAM_STATIC"]},
    "tiledtranspose": {"tiled": [], "flat": ["-DTT_FLAT"]},
    "stencil": {f"r{r}": [f"-DSTENCIL_R={r}"] for r in (1, 2, 3, 4)},
    "mclookup": {"small": [], "large": ["-DMC_LARGE"]},
    "matmul": {"naive": []},
}


# nested kernels whose variants are problems, not forms (each built the same way by every
# compiler, CUDA included, as the flat kernels' are): rowmix's mixes of short and long rows
PROBLEM_VARIANTS: dict[str, dict[str, list[str]]] = {
    "rowmix": {"every512": [], "every64": ["-DRM_EVERY=64", "-DRM_LONG=2000"],
               "every4096": ["-DRM_EVERY=4096", "-DRM_LONG=100000", "-DRM_SHORT=12"], "uniform": ["-DRM_EVERY=0"]},
    "labelprop": {"small": [], "large": ["-DLP_LARGE"]},
    "jacobi": {"small": [], "large": ["-DJC_LARGE"]},
}

# kernels whose CUDA version is also built with -DCOOPERATIVE (compiler "cudacoop"): the whole host
# loop as one cooperative kernel, the ceiling of issue 50's persistent loops
COOPERATIVE_CUDA = ("labelprop", "jacobi")


def variants(kernel: str) -> dict[str, list[str]]:
    """The OpenMP builds of one kernel: variant name -> compiler flags."""
    return FLAT_VARIANTS.get(kernel) or PROBLEM_VARIANTS.get(kernel) or {"nested": [], "spmd": ["-DSPMD"]}

# (compiler, variant) pairs that the report compares
OMP_VARIANTS = ("nested", "spmd")
COMPILERS = ("ompgpu", "clang", "gcc", "cuda", "cudacoop")


# ---------------------------------------------------------------------------------------
# parsing and statistics (unit-tested in tests/bench/test_runner.py)
# ---------------------------------------------------------------------------------------
RESULT_LINE = re.compile(r"^(\S+) (\S+) rep (\d+) kernel_ms ([0-9.eE+-]+) e2e_ms ([0-9.eE+-]+)\s*$")


def parse_output(text: str) -> dict:
    """The repetitions and the verdict a benchmark printed (see bench/common/bench.h)."""
    reps = []
    verdict = None
    for line in text.splitlines():
        m = RESULT_LINE.match(line.strip())
        if m:
            reps.append((int(m.group(3)), float(m.group(4)), float(m.group(5))))
        elif line.strip() in ("PASS", "FAIL"):
            verdict = line.strip()
    return {"reps": reps, "verdict": verdict}


def steady(values: list[float]) -> list[float]:
    """The repetitions that count: the first one pays for first-touch effects (module
    loading, page faults on new allocations) when there are at least three."""
    return values[1:] if len(values) >= 3 else list(values)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def geomean(values: list[float]) -> float:
    vals = [v for v in values if v > 0 and math.isfinite(v)]
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else float("nan")


def summarize(parsed: dict, rc: int, timed_out: bool) -> dict:
    """Status and median times of one run."""
    kernel = [k for _, k, _ in parsed["reps"]]
    e2e = [e for _, _, e in parsed["reps"]]
    if timed_out:
        status = "TIMEOUT"
    elif parsed["verdict"] == "PASS" and rc == 0 and kernel:
        status = "PASS"
    elif parsed["verdict"] == "FAIL":
        status = "FAIL"
    else:
        status = f"CRASH(rc={rc})"
    return {
        "status": status,
        "kernel_ms": median(steady(kernel)) if kernel else float("nan"),
        "e2e_ms": median(steady(e2e)) if e2e else float("nan"),
        "reps": len(kernel),
        "kernel_ms_all": " ".join(f"{k:.4f}" for k in kernel),
    }


CSV_FIELDS = ["device", "driver", "date", "commit", "kernel", "compiler", "variant", "status", "kernel_ms", "e2e_ms",
              "reps", "kernel_ms_all", "compile_s", "compiler_version", "args"]


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in ("kernel_ms", "e2e_ms", "compile_s"):
            try:
                r[k] = float(r[k])
            except (TypeError, ValueError):
                r[k] = float("nan")
    return rows


def times(rows: list[dict], field: str = "kernel_ms") -> dict:
    """(kernel, compiler, variant) -> time of the passing runs only: a wrong answer has no speed."""
    return {(r["kernel"], r["compiler"], r["variant"]): r[field] for r in rows if r["status"] == "PASS"}


def speedup(t: dict, kernel: str, fast: tuple[str, str], slow: tuple[str, str]) -> float:
    """How many times faster `fast` (compiler, variant) ran than `slow` on one kernel."""
    a, b = t.get((kernel, *fast)), t.get((kernel, *slow))
    return b / a if a and b and a > 0 else float("nan")


# the comparisons the README reports: (label, fast build, slow build)
COMPARISONS = [
    ("ompgpu nested vs clang nested", ("ompgpu", "nested"), ("clang", "nested")),
    ("ompgpu spmd vs clang spmd", ("ompgpu", "spmd"), ("clang", "spmd")),
    ("ompgpu nested vs gcc nested", ("ompgpu", "nested"), ("gcc", "nested")),
    ("ompgpu spmd vs cuda", ("ompgpu", "spmd"), ("cuda", "cuda")),
    ("ompgpu nested vs cuda", ("ompgpu", "nested"), ("cuda", "cuda")),
    ("ompgpu nested vs ompgpu spmd", ("ompgpu", "nested"), ("ompgpu", "spmd")),
    ("clang nested vs clang spmd", ("clang", "nested"), ("clang", "spmd")),
]


def comparison_table(rows: list[dict]) -> tuple[list[str], dict, dict]:
    """kernels, {label: {kernel: speedup}}, {label: geomean}."""
    t = times(rows)
    kernels = [k for k in KERNELS if k not in FLAT_VARIANTS and any(r["kernel"] == k for r in rows)]
    table = {label: {k: speedup(t, k, fast, slow) for k in kernels} for label, fast, slow in COMPARISONS}
    return kernels, table, {label: geomean(list(v.values())) for label, v in table.items()}


# ---------------------------------------------------------------------------------------
# build (CPU machine)
# ---------------------------------------------------------------------------------------
def _version(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    lines = [l for l in out.splitlines() if l.strip()]
    return lines[-1].strip() if "nvcc" in cmd[0] else (lines[0].strip() if lines else "unknown")


def build_commands(kernel: str, out: Path, peers: Path) -> list[tuple[str, str, list[str], Path]]:
    """(compiler, variant, command, binary) for each build of one kernel."""
    src = HERE / kernel / f"{kernel}.c"
    cu = HERE / kernel / f"{kernel}.cu"
    gcc_flags = ["gcc", "-fopenmp", "-foffload=nvptx-none", "-foffload-options=-misa=sm_80 -lm -latomic", "-O3"]
    cmds = []
    for variant, d in variants(kernel).items():
        cmds.append(("ompgpu", variant, [sys.executable, "-m", "ompgpu", "cc", "-O3", *d, str(src)], out / f"{kernel}.ompgpu.{variant}"))
        cmds.append(("clang", variant, [str(peers / "bin" / "clang-offload"), "-O3", *d, str(src), "-lm"], out / f"{kernel}.clang.{variant}"))
        cmds.append(("gcc", variant, [*gcc_flags, *d, str(src), "-lm"], out / f"{kernel}.gcc.{variant}"))
        if kernel in FLAT_VARIANTS or kernel in PROBLEM_VARIANTS:
            cmds.append(("cuda", variant, ["nvcc", "-O3", "-arch=sm_90", *d, str(cu)], out / f"{kernel}.cuda.{variant}"))
        if kernel in COOPERATIVE_CUDA:
            cmds.append(("cudacoop", variant, ["nvcc", "-O3", "-arch=sm_90", "-DCOOPERATIVE", *d, str(cu)],
                         out / f"{kernel}.cudacoop.{variant}"))
    if kernel not in FLAT_VARIANTS and kernel not in PROBLEM_VARIANTS:
        cmds.append(("cuda", "cuda", ["nvcc", "-O3", "-arch=sm_90", str(cu)], out / f"{kernel}.cuda"))
    return cmds


def build(out: Path, only: list[str], compilers: list[str]) -> int:
    peers = Path(os.environ.get("OMPGPU_PEERS", HERE.parent / ".peers"))
    if not (peers / "bin" / "clang-offload").exists():
        peers = Path("/work/main/.peers")
    bindir = out / "bin"
    bindir.mkdir(parents=True, exist_ok=True)
    shutil.copy(__file__, out / "run.py")
    manifest_path = out / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {"builds": []}
    commit = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(HERE), "status", "--porcelain", "--", "."], capture_output=True, text=True).stdout.strip()
    manifest["commit"] = commit + ("+dirty" if dirty else "")
    manifest["built"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    manifest["versions"] = {
        "ompgpu": f"ompgpu {commit}",
        "clang": _version(["/usr/lib/llvm-19/bin/clang", "--version"]),
        "gcc": _version(["gcc", "--version"]),
        "cuda": _version(["nvcc", "--version"]),
    }
    manifest["versions"]["cudacoop"] = manifest["versions"]["cuda"]
    keep = {(b["kernel"], b["compiler"], b["variant"]): b for b in manifest["builds"]}
    failed = 0
    for kernel in only or list(KERNELS):
        for compiler, variant, cmd, binary in build_commands(kernel, bindir, peers):
            if compiler not in compilers:
                continue
            t0 = time.time()
            r = subprocess.run([*cmd, "-o", str(binary)], capture_output=True, text=True, cwd=HERE.parent)
            dt = time.time() - t0
            ok = r.returncode == 0 and binary.exists()
            if ok:
                subprocess.run(["strip", str(binary)], capture_output=True)
            else:
                failed += 1
                (out / f"{binary.name}.build-error.txt").write_text(" ".join(cmd) + "\n" + r.stdout + r.stderr)
            print(f"{'built' if ok else 'BUILD-FAIL'} {binary.name} ({dt:.1f} s)", flush=True)
            keep[(kernel, compiler, variant)] = {
                "kernel": kernel, "compiler": compiler, "variant": variant, "binary": f"bin/{binary.name}" if ok else None,
                "compile_s": round(dt, 2), "args": KERNELS[kernel][0], "error": None if ok else (r.stderr[-1500:] or r.stdout[-1500:])}
    manifest["builds"] = list(keep.values())
    manifest_path.write_text(json.dumps(manifest, indent=1))
    print(f"{failed} builds failed; manifest in {manifest_path}")
    return 0


# ---------------------------------------------------------------------------------------
# run (GPU machine, standard library only)
# ---------------------------------------------------------------------------------------
def _device() -> tuple[str, str]:
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30).stdout.strip().splitlines()
        name, driver = [s.strip() for s in out[0].split(",")]
        return name, driver
    except (OSError, IndexError, ValueError, subprocess.TimeoutExpired):
        return "unknown", "unknown"


def run(folder: Path, reps: int, budget: float, csv_path: Path, log) -> int:
    folder = folder.resolve()
    manifest = json.loads((folder / "manifest.json").read_text())
    device, driver = _device()
    date = time.strftime("%Y-%m-%d", time.gmtime())
    deadline = time.time() + budget
    order = {k: i for i, k in enumerate(KERNELS)}
    builds = sorted(manifest["builds"], key=lambda b: (order.get(b["kernel"], 99), COMPILERS.index(b["compiler"]), b["variant"]))
    env = dict(os.environ, BENCH_REPS=str(reps))
    env.setdefault("OMP_TARGET_OFFLOAD", "MANDATORY")
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        for b in builds:
            row = {"device": device, "driver": driver, "date": date, "commit": manifest.get("commit", "?"),
                   "kernel": b["kernel"], "compiler": b["compiler"], "variant": b["variant"], "compile_s": b["compile_s"],
                   "compiler_version": manifest.get("versions", {}).get(b["compiler"], "?"), "args": " ".join(b["args"])}
            left = deadline - time.time()
            if b["binary"] is None:
                row.update(status="BUILD-FAIL", kernel_ms="", e2e_ms="", reps=0, kernel_ms_all="")
            elif left < 5:
                row.update(status="SKIPPED(budget)", kernel_ms="", e2e_ms="", reps=0, kernel_ms_all="")
            else:
                t0 = time.time()
                try:
                    r = subprocess.run([str(folder / b["binary"]), *b["args"]], capture_output=True, text=True, env=env,
                                       timeout=min(60.0, left), cwd=folder)
                    text, rc, timed_out = r.stdout + r.stderr, r.returncode, False
                except subprocess.TimeoutExpired as e:
                    text = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
                    rc, timed_out = -9, True
                s = summarize(parse_output(text), rc, timed_out)
                row.update(s)
                print(f"=== {b['binary']} ({time.time() - t0:.1f} s)\n{text[-3000:]}", file=log, flush=True)
            w.writerow(row)
            f.flush()
            print(f"{row['status']:16s} {b['kernel']:15s} {b['compiler']:7s} {b['variant']:7s} kernel {row['kernel_ms']!s:>12.12s} ms"
                  f"  e2e {row['e2e_ms']!s:>12.12s} ms", flush=True)
    return 0


# ---------------------------------------------------------------------------------------
# report (CPU machine)
# ---------------------------------------------------------------------------------------
def _fmt(v: float, digits: int = 2) -> str:
    return "-" if not math.isfinite(v) else (f"{v:.{digits}f}" if v < 100 else f"{v:.0f}")


# the flat kernels' comparisons: each OpenMP build of a variant against the same variant of
# another compiler (label, fast compiler, slow compiler)
FLAT_COMPARISONS = [("ompgpu vs clang", "ompgpu", "clang"), ("ompgpu vs gcc", "ompgpu", "gcc"),
                    ("ompgpu vs CUDA", "ompgpu", "cuda"), ("clang vs CUDA", "clang", "cuda")]


def flat_comparison(rows: list[dict]) -> tuple[list[tuple[str, str]], dict, dict]:
    """(kernel, variant) pairs, {label: {(kernel, variant): speedup}}, {label: geomean}."""
    t = times(rows)
    pairs = [(k, v) for k in FLAT_VARIANTS for v in FLAT_VARIANTS[k] if any(r["kernel"] == k and r["variant"] == v for r in rows)]
    table = {label: {(k, v): speedup(t, k, (fast, v), (slow, v)) for k, v in pairs} for label, fast, slow in FLAT_COMPARISONS}
    return pairs, table, {label: geomean(list(v.values())) for label, v in table.items()}


def flat_table(rows: list[dict]) -> str:
    t = times(rows)
    status = {(r["kernel"], r["compiler"], r["variant"]): r["status"] for r in rows}
    pairs, comp, geo = flat_comparison(rows)
    compilers = ("ompgpu", "clang", "gcc", "cuda")
    out = ["Flat kernels: median kernel time in ms, and speedups (> 1: the first compiler is faster); "
           "`-` = no passing run, the status says why.", "",
           "| kernel | variant | " + " | ".join(compilers) + " | " + " | ".join(label for label, _, _ in FLAT_COMPARISONS) + " |",
           "|---" * (2 + len(compilers) + len(FLAT_COMPARISONS)) + "|"]
    for k, v in pairs:
        cells = [_fmt(t[(k, c, v)], 3) if (k, c, v) in t else status.get((k, c, v), "n/a") for c in compilers]
        out.append(f"| {k} | {v} | " + " | ".join(cells) + " | " + " | ".join(_fmt(comp[label][(k, v)]) for label, _, _ in FLAT_COMPARISONS) + " |")
    out.append("| **geomean** | | " + " | " * (len(compilers) - 1) + " | " + " | ".join(f"**{_fmt(geo[label])}**" for label, _, _ in FLAT_COMPARISONS) + " |")
    return "\n".join(out)


def table(csv_path: Path) -> str:
    rows = read_csv(csv_path)
    if all(r["kernel"] in FLAT_VARIANTS for r in rows):
        return flat_table(rows)
    t = times(rows)
    status = {(r["kernel"], r["compiler"], r["variant"]): r["status"] for r in rows}
    builds = [(c, v) for c in ("ompgpu", "clang", "gcc") for v in OMP_VARIANTS] + [("cuda", "cuda")]
    kernels, comp, geo = comparison_table(rows)
    out = ["Median kernel time in ms (time inside the target regions / CUDA kernels); `-` = no passing run, "
           "the status says why.", "",
           "| kernel | " + " | ".join(f"{c} {v}" if c != "cuda" else "CUDA" for c, v in builds) + " |",
           "|---" * (len(builds) + 1) + "|"]
    for k in kernels:
        cells = []
        for c, v in builds:
            val = t.get((k, c, v))
            cells.append(_fmt(val, 3) if val is not None else status.get((k, c, v), "n/a"))
        out.append(f"| {k} | " + " | ".join(cells) + " |")
    out += ["", "Speedups (time of the slower build / time of the faster; > 1 means the first build is faster):", "",
            "| kernel | " + " | ".join(label for label, _, _ in COMPARISONS) + " |", "|---" * (len(COMPARISONS) + 1) + "|"]
    for k in kernels:
        out.append(f"| {k} | " + " | ".join(_fmt(comp[label][k]) for label, _, _ in COMPARISONS) + " |")
    out.append("| **geomean** | " + " | ".join(f"**{_fmt(geo[label])}**" for label, _, _ in COMPARISONS) + " |")
    e2e = times(rows, "e2e_ms")
    out += ["", "Median end-to-end time in ms (mapping the inputs, kernels, results back):", "",
            "| kernel | " + " | ".join(f"{c} {v}" if c != "cuda" else "CUDA" for c, v in builds) + " |", "|---" * (len(builds) + 1) + "|"]
    for k in kernels:
        out.append(f"| {k} | " + " | ".join(_fmt(e2e.get((k, c, v), float('nan')), 3) for c, v in builds) + " |")
    ct = {(r["kernel"], r["compiler"], r["variant"]): r["compile_s"] for r in rows}
    out += ["", "Compile time in s (CPU machine, 2 shared cores):", "",
            "| kernel | ompgpu nested | ompgpu spmd | clang nested | clang spmd | gcc nested | nvcc |", "|---|---|---|---|---|---|---|"]
    for k in kernels:
        out.append(f"| {k} | " + " | ".join(_fmt(ct.get((k, c, v), float('nan')), 1) for c, v in
                                             [("ompgpu", "nested"), ("ompgpu", "spmd"), ("clang", "nested"), ("clang", "spmd"),
                                              ("gcc", "nested"), ("cuda", "cuda")]) + " |")
    if any(r["kernel"] in FLAT_VARIANTS for r in rows):
        out += ["", flat_table(rows)]
    return "\n".join(out)


def plot(csv_path: Path, png: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_csv(csv_path)
    kernels, comp, geo = comparison_table(rows)
    labels = kernels + ["geomean"]
    panels = [
        ("Speedup over clang 19 on the same source (Figure 5 style)",
         ["ompgpu nested vs clang nested", "ompgpu spmd vs clang spmd", "ompgpu nested vs gcc nested"]),
        ("Speedup over hand-written CUDA, and of nested over SPMD (Figure 6 style)",
         ["ompgpu spmd vs cuda", "ompgpu nested vs cuda", "ompgpu nested vs ompgpu spmd", "clang nested vs clang spmd"]),
    ]
    fig, axes = plt.subplots(2, 1, figsize=(max(10, len(labels) * 0.9), 9))
    for ax, (title, series) in zip(axes, panels):
        width = 0.8 / len(series)
        for s, name in enumerate(series):
            vals = [comp[name].get(k, float("nan")) for k in kernels] + [geo[name]]
            xs = [i + (s - (len(series) - 1) / 2) * width for i in range(len(labels))]
            ax.bar(xs, [v if math.isfinite(v) else 0 for v in vals], width, label=name)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=30, ha="right")
        ax.set_ylabel("speedup (log scale)")
        ax.set_title(title)
        ax.legend(fontsize=8)
    first = rows[0] if rows else {}
    fig.suptitle(f"ompgpu application benchmarks - {first.get('device', '?')}, {first.get('date', '?')}, commit {first.get('commit', '?')}")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main(argv: list[str]) -> int:
    opts = {a.split("=", 1)[0]: (a.split("=", 1)[1] if "=" in a else "") for a in argv[2:] if a.startswith("--")}
    pos = [a for a in argv if not a.startswith("--")]
    if len(pos) >= 2 and pos[0] == "build":
        only = [k for k in opts.get("--only", "").split(",") if k]
        compilers = [c for c in opts.get("--compilers", ",".join(COMPILERS)).split(",") if c]
        if "--no-peers" in opts:
            compilers = [c for c in compilers if c not in ("clang", "gcc")]
        return build(Path(pos[1]), only, compilers)
    if len(pos) >= 2 and pos[0] == "run":
        folder = Path(pos[1])
        log = open(opts["--log"], "w") if opts.get("--log") else open(os.devnull, "w")
        return run(folder, int(opts.get("--reps", "5")), float(opts.get("--budget", "240")),
                   Path(opts.get("--csv") or folder / "results.csv"), log)
    if len(pos) >= 2 and pos[0] == "plot":
        png = Path(pos[3]) if len(pos) >= 4 and pos[2] == "-o" else Path(pos[1]).with_suffix(".png")
        plot(Path(pos[1]), png)
        print(f"wrote {png}")
        return 0
    if len(pos) >= 2 and pos[0] == "table":
        print(table(Path(pos[1])))
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
