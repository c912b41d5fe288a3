"""Start-up and transfer benchmark (issue 33): ompgpu against clang 19 and CUDA.

    python bench/startup/startup.py build OUT [--peers .peers]
        (CPU machine) builds first_region.c, transfer.c and region_cost.c with ompgpu and clang
        19 offload, their .cu with nvcc, into OUT/bin; copies this script to OUT.
    python3 OUT/startup.py run OUT [--csv FILE] [--runs 5] [--max-mb 4096]
        (GPU machine, standard library only; source .peers/bin/peer-env.sh first) runs them:
        the first target region after 0 and 500 ms of host work (each binary `runs` times, a
        fresh process each), ompgpu also with OMPGPU_STARTUP=background (main runs while the
        devices start) and OMPGPU_STARTUP=lazy (start-up at the first
        construct, as before issue 33); then the bandwidth of each direction by size, ompgpu
        with and without its pinned staging, clang, and CUDA from pageable and pinned memory;
        then what one synchronous target region costs (region_cost: ompgpu, clang, and CUDA's
        launch and wait, `runs` times each).
        One CSV row per measurement; a summary of medians and ratios on stdout.
"""
from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
HOST_WORK_MS = (0, 500)

# (name, binary, arguments, extra environment): what `run` measures
FIRST_REGION = [
    ("ompgpu", "first_region.ompgpu", {}),
    ("ompgpu-background", "first_region.ompgpu", {"OMPGPU_STARTUP": "background"}),
    ("ompgpu-lazy", "first_region.ompgpu", {"OMPGPU_STARTUP": "lazy"}),
    ("clang", "first_region.clang", {}),
    ("cuda", "first_region.cuda", {}),
]
TRANSFER = [
    ("ompgpu", "transfer.ompgpu", [], {}),
    ("ompgpu-pageable", "transfer.ompgpu", [], {"OMPGPU_STAGING_MIN_BYTES": "0"}),
    ("clang", "transfer.clang", [], {}),
    ("cuda-pageable", "transfer.cuda", ["pageable"], {}),
    ("cuda-pinned", "transfer.cuda", ["pinned"], {}),
]
REGION_COST = [("ompgpu", "region_cost.ompgpu"), ("clang", "region_cost.clang"), ("cuda", "region_cost.cuda")]
FIELDS = ["device", "date", "commit", "bench", "compiler", "host_ms", "run", "region_ms", "main_to_end_ms",
          "process_ms", "bytes", "to_gbs", "from_gbs", "fresh_from_gbs", "both_gbs", "four_to_gbs", "four_from_gbs",
          "case", "us", "status"]


def build(out: Path, peers: Path) -> int:
    bindir = out / "bin"
    bindir.mkdir(parents=True, exist_ok=True)
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    cmds = []
    for prog in ("first_region", "transfer", "region_cost"):
        cmds.append([sys.executable, "-m", "ompgpu", "cc", "-O3", str(HERE / f"{prog}.c"), "-o", str(bindir / f"{prog}.ompgpu")])
        cmds.append([str(peers / "bin" / "clang-offload"), "-O3", str(HERE / f"{prog}.c"), "-o", str(bindir / f"{prog}.clang")])
        cmds.append([nvcc, "-O3", "-arch=sm_90", str(HERE / f"{prog}.cu"), "-o", str(bindir / f"{prog}.cuda")])
    failed = 0
    for cmd in cmds:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            failed += 1
            print("BUILD-FAIL", " ".join(cmd), r.stderr[-2000:], file=sys.stderr)
    shutil.copy(__file__, out / "startup.py")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE).stdout.strip()
    (out / "commit.txt").write_text(commit + "\n")
    return 1 if failed else 0


def parse(text: str, prefix: str) -> list[dict]:
    rows = []
    for line in text.splitlines():
        words = line.split()
        if words[:1] == [prefix]:
            rows.append({words[i]: words[i + 1] for i in range(1, len(words) - 1, 2)})
    return rows


def device_name() -> str:
    r = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True, text=True)
    return r.stdout.strip().splitlines()[0] if r.returncode == 0 and r.stdout.strip() else "unknown"


def run(out: Path, csv_path: Path, runs: int, max_mb: int) -> int:
    base = {"device": device_name(), "date": time.strftime("%Y-%m-%d"),
            "commit": (out / "commit.txt").read_text().strip() if (out / "commit.txt").exists() else "?"}
    rows, bad = [], 0
    for host_ms in HOST_WORK_MS:
        for r in range(runs):
            for name, binary, extra in FIRST_REGION:   # interleaved, so that drift hits all alike
                env = dict(os.environ, **extra)
                t = time.perf_counter()
                p = subprocess.run([str(out / "bin" / binary), str(host_ms)], capture_output=True, text=True, env=env,
                                   timeout=120)
                process_ms = (time.perf_counter() - t) * 1e3
                got = parse(p.stdout, "first_region")
                status = "PASS" if p.returncode == 0 and "PASS" in p.stdout.split() and got else "FAIL"
                bad += status != "PASS"
                row = dict(base, bench="first_region", compiler=name, host_ms=host_ms, run=r, process_ms=f"{process_ms:.3f}",
                           status=status)
                if got:
                    row.update(region_ms=got[0]["region_ms"], main_to_end_ms=got[0]["main_to_end_ms"])
                else:
                    print(p.stdout, p.stderr, file=sys.stderr)
                rows.append(row)
    for name, binary, args, extra in TRANSFER:
        env = dict(os.environ, **extra)
        p = subprocess.run([str(out / "bin" / binary), *args, str(max_mb)], capture_output=True, text=True, env=env,
                           timeout=600)
        status = "PASS" if p.returncode == 0 and "PASS" in p.stdout.split() else "FAIL"
        bad += status != "PASS"
        if status != "PASS":
            print(p.stdout[-2000:], p.stderr[-2000:], file=sys.stderr)
        for got in parse(p.stdout, "transfer"):
            rows.append(dict(base, bench="transfer", compiler=name, bytes=got["bytes"], to_gbs=got["to_gbs"],
                             from_gbs=got["from_gbs"], fresh_from_gbs=got.get("fresh_from_gbs", ""),
                             both_gbs=got.get("both_gbs", ""), four_to_gbs=got.get("four_to_gbs", ""),
                             four_from_gbs=got.get("four_from_gbs", ""), status=status))
    for r in range(runs):
        for name, binary in REGION_COST:
            p = subprocess.run([str(out / "bin" / binary)], capture_output=True, text=True, timeout=300,
                               env=dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY"))
            got = parse(p.stdout, "region_cost")
            status = "PASS" if p.returncode == 0 and "PASS" in p.stdout.split() and got else "FAIL"
            bad += status != "PASS"
            if status != "PASS":
                print(p.stdout[-2000:], p.stderr[-2000:], file=sys.stderr)
            rows += [dict(base, bench="region_cost", compiler=name, run=r, case=g["case"], us=g["us"], status=status)
                     for g in got]
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
    print(summary(rows))
    return 1 if bad else 0


def summary(rows: list[dict]) -> str:
    out = ["First target region: median over the runs, ms (main_to_end: from main to the end of the region;",
           "process: the whole process, exec to exit, as the shell sees it)", "",
           "| host work | compiler | region | main_to_end | process |", "|---|---|---|---|---|"]
    for host_ms in HOST_WORK_MS:
        for name, _, _ in FIRST_REGION:
            sel = [r for r in rows if r["bench"] == "first_region" and r["compiler"] == name and r["host_ms"] == host_ms
                   and r.get("region_ms")]
            if not sel:
                continue
            med = {k: statistics.median(float(r[k]) for r in sel) for k in ("region_ms", "main_to_end_ms", "process_ms")}
            out.append(f"| {host_ms} ms | {name} | {med['region_ms']:.2f} | {med['main_to_end_ms']:.2f} | {med['process_ms']:.2f} |")
    out += ["", "Transfers, GB/s (to the device / from the device / from the device into fresh memory / each way",
            "with both at once):", ""]
    names = [n for n, *_ in TRANSFER]
    out += ["| bytes | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    sizes = sorted({int(r["bytes"]) for r in rows if r["bench"] == "transfer"})
    for size in sizes:
        cells = []
        for n in names:
            sel = [r for r in rows if r["bench"] == "transfer" and r["compiler"] == n and int(r["bytes"]) == size]
            more = "".join(f" / {float(sel[0][k]):.2f}" for k in ("fresh_from_gbs", "both_gbs") if sel and sel[0].get(k))
            cells.append(f"{float(sel[0]['to_gbs']):.2f} / {float(sel[0]['from_gbs']):.2f}{more}" if sel else "-")
        out.append(f"| {size} | " + " | ".join(cells) + " |")
    out += ["", "One synchronous target region, us (median over the runs; CUDA: a launch and its wait):", ""]
    for name, _ in REGION_COST:
        cases = {}
        for r in rows:
            if r["bench"] == "region_cost" and r["compiler"] == name:
                cases.setdefault(r["case"], []).append(float(r["us"]))
        out += [f"| {name} | {case} | {statistics.median(v):.2f} |" for case, v in cases.items()]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("out", type=Path)
    b.add_argument("--peers", type=Path, default=Path(".peers"))
    r = sub.add_parser("run")
    r.add_argument("out", type=Path)
    r.add_argument("--csv", type=Path)
    r.add_argument("--runs", type=int, default=5)
    r.add_argument("--max-mb", type=int, default=4096)
    a = ap.parse_args(argv)
    if a.cmd == "build":
        return build(a.out.resolve(), a.peers.resolve())
    return run(a.out.resolve(), a.csv or a.out / "startup.csv", a.runs, a.max_mb)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
