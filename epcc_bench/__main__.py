"""python -m epcc_bench build OUT | run OUT [run.py options] | plot CSV... | table CSV..."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["run"]:  # everything after OUT goes to the runner unchanged
        from .runner import main as run_main
        if len(argv) < 2:
            print("usage: python -m epcc_bench run OUT [options of OUT/run.py]", file=sys.stderr)
            return 2
        return run_main(argv[2:], default_build=Path(argv[1]))
    p = argparse.ArgumentParser(prog="python -m epcc_bench", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build every variant into OUT (CPU machine)")
    b.add_argument("out", type=Path)
    b.add_argument("--offload", choices=("cuda", "emu"), default="cuda")
    b.add_argument("--variants", default="", help="comma-separated subset")
    b.add_argument("--peers", default=None, help="folder with bin/clang-offload (default .peers)")
    b.add_argument("--arch", default="sm_90")
    pl = sub.add_parser("plot", help="draw PNGs from results CSVs")
    pl.add_argument("csv", nargs="+")
    pl.add_argument("--out", default=None, help="folder for the PNGs (default: next to the first CSV)")
    t = sub.add_parser("table", help="print the README table and the target checks")
    t.add_argument("csv", nargs="+")
    t.add_argument("--threads", default="32,128,512,992")
    sub.add_parser("run", help="run OUT [options]: the same as python3 OUT/run.py")
    a = p.parse_args(argv)
    if a.cmd == "build":
        from .build import build
        manifest = build(a.out, a.offload, [v for v in a.variants.split(",") if v], a.peers, a.arch)
        ok = [v["name"] for v in manifest["variants"] if v["status"] == "ok"]
        print(f"epcc_bench: built {', '.join(ok) or 'nothing'} into {a.out}; run: python3 {a.out}/run.py --out DIR")
        return 0 if ok else 1
    if a.cmd == "plot":
        from .plot import plot
        for path in plot(a.csv, a.out or Path(a.csv[0]).parent):
            print(path)
        return 0
    if a.cmd == "table":
        from . import report
        meta, rows = report.read_all(a.csv)
        print(report.meta_summary(meta))
        print(report.markdown_table(rows, report.meta_mhz(meta), [int(x) for x in a.threads.split(",")]))
        print(report.checks_markdown(report.target_checks(rows)))
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
