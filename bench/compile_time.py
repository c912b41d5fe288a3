"""Build time per file (issue 35): ompgpu against clang 19's offload build, same files, same machine.

    python bench/compile_time.py [--peers .peers] [--only bench|programs] [--runs 1] [--csv FILE]

Builds each bench source (bench/<kernel>/<kernel>.c) and each run-and-check program
(tests/programs/*.c) to an executable, as a user does (`ompgpu cc -O2 f.c -o f` and
`clang-offload -O2 f.c -o f -lm`), one at a time, `runs` times each (the median counts), and
prints a markdown table: per group, the files both compilers built, the median and total seconds
of each, and their ratio. A file clang rejects (or ompgpu) is listed, not timed. The runtime
library is built once before the timing (it is cached per installation, as a user's second
build finds it).
"""
from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def sources(only: str | None) -> dict[str, list[Path]]:
    groups = {
        "bench": sorted(p for p in (REPO / "bench").glob("*/*.c") if p.stem == p.parent.name),
        "programs": sorted((REPO / "tests" / "programs").glob("*.c")),
    }
    return {k: v for k, v in groups.items() if only in (None, k)}


def timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, bool, str]:
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, errors="replace", env=env)
    return time.perf_counter() - t, r.returncode == 0, (r.stderr or r.stdout)[-300:]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peers", type=Path, default=REPO / ".peers")
    ap.add_argument("--only", choices=["bench", "programs"])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--csv", type=Path)
    a = ap.parse_args(argv)
    clang = a.peers / "bin" / "clang-offload"
    if not clang.exists():
        print(f"no clang 19 offload driver at {clang} (run shared/peers/setup.sh)", file=sys.stderr)
        return 2
    compilers = {
        "ompgpu": lambda src, out: [sys.executable, "-m", "ompgpu", "cc", "-O2", str(src), "-o", str(out), "-lm"],
        "clang": lambda src, out: [str(clang), "-O2", str(src), "-o", str(out), "-lm"],
    }
    rows = []
    with tempfile.TemporaryDirectory(prefix="compile-time-") as tmp:
        work = Path(tmp)
        # ompgpu as installed: pip compiles an installed package's modules to bytecode once, at
        # install time. A source checkout under PYTHONDONTWRITEBYTECODE (set on some machines,
        # this one included) would compile all of them again in every build; here the first
        # build writes the bytecode once, into this run's own folder.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
        # the runtime library, once (cached)
        warm = work / "warm.c"
        warm.write_text("int main(void) { int x = 0;\n#pragma omp target map(tofrom: x)\n x = 1;\n return !x; }\n")
        timed(compilers["ompgpu"](warm, work / "warm"), work, env)
        for group, files in sources(a.only).items():
            for src in files:
                row = {"group": group, "file": str(src.relative_to(REPO))}
                for name, cmd in compilers.items():
                    times, ok, err = [], True, ""
                    for _ in range(a.runs):
                        s, ok, err = timed(cmd(src, work / f"{src.stem}.{name}"), work, env)
                        times.append(s)
                        if not ok:
                            break
                    row[f"{name}_s"] = f"{statistics.median(times):.3f}" if ok else ""
                    row[f"{name}_ok"] = ok
                    if not ok:
                        row[f"{name}_error"] = err.strip().splitlines()[-1] if err.strip() else "failed"
                rows.append(row)
                print(f"{row['file']:50s} ompgpu {row['ompgpu_s'] or 'FAIL':>7} clang {row['clang_s'] or 'FAIL':>7}",
                      flush=True)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            fields = ["group", "file", "ompgpu_s", "clang_s", "ompgpu_ok", "clang_ok", "ompgpu_error", "clang_error"]
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            w.writerows(rows)
    print(table(rows))
    return 0


def table(rows: list[dict]) -> str:
    out = ["| files | built by both | ompgpu median s | clang median s | ompgpu total s | clang total s | ompgpu / clang (total) |",
           "|---|---|---|---|---|---|---|"]
    for group in dict.fromkeys(r["group"] for r in rows):
        both = [r for r in rows if r["group"] == group and r["ompgpu_s"] and r["clang_s"]]
        if not both:
            continue
        o = [float(r["ompgpu_s"]) for r in both]
        c = [float(r["clang_s"]) for r in both]
        out.append(f"| {group} | {len(both)} of {sum(r['group'] == group for r in rows)} | {statistics.median(o):.2f} | "
                   f"{statistics.median(c):.2f} | {sum(o):.1f} | {sum(c):.1f} | {sum(o) / sum(c):.2f} |")
    failed = [f"{r['file']} ({name}: {r.get(name + '_error', '')})" for r in rows for name in ("ompgpu", "clang")
              if not r[f"{name}_ok"]]
    if failed:
        out += ["", "Not built: " + "; ".join(failed)]
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
