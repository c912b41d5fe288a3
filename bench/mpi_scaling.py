"""Weak scaling of examples/mpi/jacobi.c: the same rows per rank at 1, 2, 4, ... ranks.

    python3 bench/mpi_scaling.py EXE --ranks 1 2 [--args COLS ROWS ITERS CHECK] [--reps 3]
                                 [--csv FILE] [--label TEXT] [--mpirun-arg ARG ...]

Runs `mpirun -np R EXE ARGS` reps times for each R, keeps the run with the median total
time, and prints (and appends to the CSV) its time split in compute and communication as
the program reports them (slowest rank of each). Every run must exit 0 and, with CHECK=1,
print PASS. Standard library only: it runs on the GPU machine as is.
"""
from __future__ import annotations

import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

TIMES_RE = re.compile(r"time total ([\d.]+) s\s+compute ([\d.]+) s\s+communication ([\d.]+) s")
HEADER = ["label", "ranks", "cols", "rows_per_rank", "iterations", "total_s", "compute_s", "communication_s",
          "efficiency", "halos", "checked"]


def run_once(exe: str, ranks: int, args: list[str], mpirun_args: list[str]) -> dict:
    cmd = ["mpirun", "-np", str(ranks), *mpirun_args, exe, *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    out = proc.stdout
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed (exit {proc.returncode}):\n{out}\n{proc.stderr}")
    m = TIMES_RE.search(out)
    if not m:
        sys.exit(f"{' '.join(cmd)}: no timing line in\n{out}")
    checked = args[3] != "0" if len(args) > 3 else True
    if checked and not out.rstrip().endswith("PASS"):
        sys.exit(f"{' '.join(cmd)}: the result check did not pass:\n{out}")
    return {"total": float(m[1]), "compute": float(m[2]), "communication": float(m[3]),
            "halos": "device" if "device to device" in out else "host", "checked": checked, "stdout": out}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("exe")
    ap.add_argument("--ranks", type=int, nargs="+", required=True)
    ap.add_argument("--args", nargs=4, default=["256", "64", "100", "1"], metavar=("COLS", "ROWS", "ITERS", "CHECK"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--csv")
    ap.add_argument("--label", default="")
    ap.add_argument("--mpirun-arg", action="append", default=[])
    a = ap.parse_args()
    rows = []
    base = None
    for r in a.ranks:
        runs = sorted((run_once(os.path.abspath(a.exe), r, a.args, a.mpirun_arg) for _ in range(a.reps)),
                      key=lambda x: x["total"])
        med = runs[len(runs) // 2]
        base = base if base is not None else med["total"]
        row = {"label": a.label, "ranks": r, "cols": a.args[0], "rows_per_rank": a.args[1], "iterations": a.args[2],
               "total_s": f"{med['total']:.6f}", "compute_s": f"{med['compute']:.6f}",
               "communication_s": f"{med['communication']:.6f}", "efficiency": f"{base / med['total']:.3f}",
               "halos": med["halos"], "checked": "PASS" if med["checked"] else "no"}
        rows.append(row)
        spread = statistics.pstdev([x["total"] for x in runs]) if len(runs) > 1 else 0.0
        print(f"{r:>3} ranks: total {med['total']:.4f} s (spread {spread:.4f}), compute {med['compute']:.4f} s, "
              f"communication {med['communication']:.4f} s, weak-scaling efficiency {base / med['total']:.3f}, "
              f"check {row['checked']}", flush=True)
    if a.csv:
        new = not Path(a.csv).exists()
        with open(a.csv, "a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=HEADER)
            if new:
                w.writeheader()
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
