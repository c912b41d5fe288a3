"""The OpenMP validation suite (SOLLVE/sollve_vv, a checkout kept outside this project) built by
ompgpu and run: how many of its C tests pass, per OpenMP version (issue 46).

    python3 bench/sollve.py build SOLLVE OUT [--jobs N] [--versions 4.5,5.0,5.1] [-- ompgpu flags]
        builds the suite's library (SOLLVE/ompvv/libompvv.c, with a target region, as libompvv.a)
        and SOLLVE/tests/<version>/**/*.c with `ompgpu cc -O3 -I SOLLVE/ompvv ... libompvv.a -lm` into
        OUT/<version>/<test>, N at a time; a test that does not build keeps its first error
        line in OUT/builds.csv
    python3 OUT/sollve.py run OUT [--timeout S] [--csv FILE]
        runs every built test (a test passes when it exits 0 and prints no failure report) and
        prints a line per test and the totals per version

`run` needs only the Python standard library (the GPU machine has no ompgpu installed).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import csv
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

VERSIONS = ("4.5", "5.0", "5.1")
# ompvv.h's failure reports: "[OMPVV_RESULT: f.c] Test failed ..." and OMPVV_ERROR lines
FAILED = re.compile(r"Test failed|\[OMPVV_ERROR")


def build(sollve: Path, out: Path, jobs: int, versions: tuple[str, ...], flags: list[str]) -> int:
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(__file__, out / "sollve.py")
    tests = [(v, src) for v in versions for src in sorted((sollve / "tests" / v).rglob("*.c"))]
    # The suite's own library (a target region in a static library, as its Makefile builds it):
    # every test links it.
    library = out / "libompvv.a"
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "-O3", "-c", f"-I{sollve / 'ompvv'}", *flags,
                        str(sollve / "ompvv" / "libompvv.c"), "-o", str(out / "libompvv.o")], capture_output=True, text=True)
    if r.returncode != 0 or subprocess.run(["ar", "rcs", str(library), str(out / "libompvv.o")]).returncode != 0:
        print(f"libompvv.a did not build:\n{r.stderr}", file=sys.stderr)
        return 1

    def one(job):
        version, src = job
        exe = out / version / src.stem
        exe.parent.mkdir(parents=True, exist_ok=True)
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "-O3", f"-I{sollve / 'ompvv'}", *flags, str(src),
                            "-o", str(exe), str(library), "-lm"], capture_output=True, text=True, errors="replace")
        first_error = next((line for line in r.stderr.splitlines() if "error" in line), r.stderr.strip()[:200])
        return version, src.stem, r.returncode == 0, time.perf_counter() - t, "" if r.returncode == 0 else first_error

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(one, tests))
    with open(out / "builds.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["version", "test", "built", "seconds", "first_error"])
        for row in results:
            w.writerow([row[0], row[1], int(row[2]), f"{row[3]:.2f}", row[4]])
    built = sum(r[2] for r in results)
    print(f"{built} of {len(results)} tests built")
    return 0


def test_environment(test: str) -> dict[str, str]:
    """The environment a test runs in: the suite's Makefile runs test_<name>_env_<value> with the
    environment variable <NAME> (upper case) set to <value> (test_omp_num_teams_env_2:
    OMP_NUM_TEAMS=2), the other tests in the caller's."""
    m = re.fullmatch(r"test_(.*)_env_([^.]*)", test)
    return dict(os.environ, **({m.group(1).upper(): m.group(2)} if m else {}))


def run(out: Path, timeout: float, csv_path: Path | None) -> int:
    builds = {}
    if (out / "builds.csv").exists():
        with open(out / "builds.csv") as f:
            builds = {(r["version"], r["test"]): r for r in csv.DictReader(f)}
    rows = []
    for (version, test), b in sorted(builds.items()):
        if b["built"] != "1":
            rows.append((version, test, "BUILD-FAIL", 0.0, b["first_error"]))
            continue
        t = time.perf_counter()
        try:
            r = subprocess.run([str(out / version / test)], capture_output=True, text=True, errors="replace",
                               timeout=timeout, cwd=out / version, env=test_environment(test))
            text = r.stdout + r.stderr
            ok = r.returncode == 0 and not FAILED.search(text)
            last = (text.strip().splitlines() or [""])[-1][:200]
            status = "PASS" if ok else f"FAIL(rc={r.returncode})"
        except subprocess.TimeoutExpired:
            status, last = "TIMEOUT", ""
        rows.append((version, test, status, time.perf_counter() - t, "" if status == "PASS" else last))
    for row in rows:
        print(f"{row[2]:12} {row[0]} {row[1]:50} {row[3]:6.2f}s {row[4]}")
    for v in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == v]
        print(f"OpenMP {v}: {sum(r[2] == 'PASS' for r in mine)}/{len(mine)} pass, "
              f"{sum(r[2] == 'BUILD-FAIL' for r in mine)} do not build")
    if csv_path:
        with open(csv_path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["version", "test", "status", "seconds", "note"])
            w.writerows([(r[0], r[1], r[2], f"{r[3]:.2f}", r[4]) for r in rows])
    return 0


def main(argv: list[str]) -> int:
    flags: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, flags = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("sollve", type=Path)
    b.add_argument("out", type=Path)
    b.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    b.add_argument("--versions", default=",".join(VERSIONS))
    r = sub.add_parser("run")
    r.add_argument("out", type=Path)
    r.add_argument("--timeout", type=float, default=60)
    r.add_argument("--csv", type=Path)
    a = ap.parse_args(argv)
    if a.cmd == "build":
        return build(a.sollve.resolve(), a.out.resolve(), a.jobs, tuple(a.versions.split(",")), flags)
    return run(a.out.resolve(), a.timeout, a.csv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
