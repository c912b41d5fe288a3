"""The proxy applications XSBench and RSBench (ANL-CESAR/XSBench, ANL-CESAR/RSBench, public; kept
outside this repository) built by ompgpu, clang 19 offload and nvcc, run side by side (issue 49:
XSBench's reported rate counts the copies; issue 48: RSBench's openmp-offload version against its
CUDA version).

    python bench/proxy_apps.py build {xsbench,rsbench} CHECKOUT OUT [--peers .peers]
        (CPU machine) builds CHECKOUT/openmp-offload with ompgpu -O3 and clang 19 (the peers'
        clang-offload), CHECKOUT/cuda with nvcc -O3 -arch=sm_90, into OUT/bin; copies this script.
    python3 OUT/proxy_apps.py run OUT [--csv FILE] [--reps 3]
        (GPU machine, standard library only; source .peers/bin/peer-env.sh first) runs each build
        with `-m event -s small` and `-s large` (the default lookups, whose checksums the
        application verifies), ompgpu also under OMPGPU_PROFILE=1 (its table splits the region
        into the kernel and the copies). One CSV row per run: the reported runtime and
        lookups/s, whether the checksum verified; a summary of the medians on stdout.
"""
from __future__ import annotations

import argparse
import csv
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

# application -> (the sources of its openmp-offload and cuda folders, without suffix; its binary)
APPS = {
    "xsbench": (["Main", "io", "Simulation", "GridInit", "XSutils", "Materials"], "XSBench"),
    "rsbench": (["main", "simulation", "io", "init", "material", "utils"], "rsbench"),
}
SIZES = ("small", "large")
BUILDS = ("ompgpu", "clang", "cuda")


def build(app: str, checkout: Path, out: Path, peers: Path) -> int:
    sources, binary = APPS[app]
    bindir = out / "bin"
    bindir.mkdir(parents=True, exist_ok=True)
    offload = checkout / "openmp-offload"
    c_files = [str(offload / f"{s}.c") for s in sources]
    cu_files = [str(checkout / "cuda" / f"{s}.cu") for s in sources]
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    cmds = {
        "ompgpu": [sys.executable, "-m", "ompgpu", "cc", "-O3", "-std=gnu99", *c_files, "-lm", "-o", str(bindir / f"{binary}.ompgpu")],
        "clang": [str(peers / "bin" / "clang-offload"), "-O3", "-std=gnu99", *c_files, "-lm", "-o", str(bindir / f"{binary}.clang")],
        "cuda": [nvcc, "-O3", "-arch=sm_90", "-std=c++17", *cu_files, "-o", str(bindir / f"{binary}.cuda")],
    }
    failed = 0
    for name, cmd in cmds.items():
        r = subprocess.run(cmd, capture_output=True, text=True)
        print(f"{'built' if r.returncode == 0 else 'BUILD-FAIL'} {name}")
        if r.returncode != 0:
            failed += 1
            print(r.stdout[-2000:], r.stderr[-2000:], file=sys.stderr)
    commit = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    (out / "app.txt").write_text(f"{app} {binary} {commit}\n")
    shutil.copy(Path(__file__), out / "proxy_apps.py")
    return 1 if failed else 0


def parse(text: str) -> dict:
    got = {}
    m = re.search(r"Runtime:\s+([\d.]+) seconds", text)
    if m:
        got["runtime_s"] = float(m.group(1))
    m = re.search(r"Lookups/s:\s+([\d,]+)", text)
    if m:
        got["lookups_per_s"] = int(m.group(1).replace(",", ""))
    got["verified"] = "Verification checksum" in text and "INAVALID" not in text and "INVALID" not in text
    return got


def run(out: Path, csv_path: Path | None, reps: int) -> int:
    app = (out / "app.txt").read_text().split()[1]
    rows, bad = [], 0
    for size in SIZES:
        for name in BUILDS:
            binary = out / "bin" / f"{app}.{name}"
            if not binary.exists():
                continue
            for r in range(reps):
                p = subprocess.run([str(binary), "-m", "event", "-s", size], capture_output=True, text=True, timeout=600)
                got = parse(p.stdout)
                ok = p.returncode == 0 and got.get("verified") and "lookups_per_s" in got
                bad += not ok
                rows.append({"size": size, "build": name, "rep": r, "runtime_s": got.get("runtime_s", ""),
                             "lookups_per_s": got.get("lookups_per_s", ""), "status": "PASS" if ok else "FAIL"})
                if not ok:
                    print(p.stdout[-1500:], p.stderr[-1500:], file=sys.stderr)
        if (out / "bin" / f"{app}.ompgpu").exists():   # where the region's time goes
            p = subprocess.run([str(out / "bin" / f"{app}.ompgpu"), "-m", "event", "-s", size], capture_output=True,
                               text=True, timeout=600, env={**os.environ, "OMPGPU_PROFILE": "1"})
            print(f"== ompgpu, {size}, OMPGPU_PROFILE=1\n{p.stderr[-3000:]}")
    if csv_path:
        with open(csv_path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    print("| size | build | lookups/s (median) | runtime s | checks |\n|---|---|---|---|---|")
    for size in SIZES:
        for name in BUILDS:
            sel = [x for x in rows if x["size"] == size and x["build"] == name and x["status"] == "PASS"]
            if sel:
                print(f"| {size} | {name} | {statistics.median(x['lookups_per_s'] for x in sel):,.0f} | "
                      f"{statistics.median(x['runtime_s'] for x in sel):.3f} | {len(sel)} of "
                      f"{sum(1 for x in rows if x['size'] == size and x['build'] == name)} |")
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("app", choices=sorted(APPS))
    b.add_argument("checkout", type=Path)
    b.add_argument("out", type=Path)
    b.add_argument("--peers", type=Path, default=Path(".peers"))
    r = sub.add_parser("run")
    r.add_argument("out", type=Path)
    r.add_argument("--csv", type=Path)
    r.add_argument("--reps", type=int, default=3)
    a = ap.parse_args(argv)
    if a.cmd == "build":
        return build(a.app, a.checkout.resolve(), a.out, a.peers.resolve())
    return run(a.out, a.csv, a.reps)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
