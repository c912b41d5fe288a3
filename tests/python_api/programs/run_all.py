"""Run every program driver here and compare with tests/programs/NAME.expected.

    python3 tests/python_api/programs/run_all.py [--backend cuda|emu] [NAME ...]
Prints one line per program (ok / MISMATCH / ERROR) and the diff of a mismatch; exit
status 1 if any program disagrees.
"""
import argparse
import contextlib
import difflib
import importlib.util
import io
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE.parent.parent / "programs"
sys.path.insert(0, str(HERE.parent.parent.parent))

import ompgpu  # noqa: E402


def drivers():
    return sorted(p.stem for p in HERE.glob("*.py") if p.stem not in ("run_all", "__init__"))


def run(name: str, backend: str) -> tuple[str, str]:
    spec = importlib.util.spec_from_file_location(f"driver_{name}", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        mod.main(lambda src, fn, options=(): ompgpu.compile(src, fn, options, backend=backend))
    return out.getvalue(), (PROGRAMS / f"{name}.expected").read_text()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="cuda")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    bad = 0
    for name in a.names or drivers():
        t0 = time.time()
        try:
            got, want = run(name, a.backend)
        except Exception:  # noqa: BLE001 - report and go on with the next program
            print(f"{name}: ERROR ({time.time() - t0:.1f} s)\n{traceback.format_exc()}")
            bad += 1
            continue
        if got == want:
            print(f"{name}: ok ({time.time() - t0:.1f} s)")
        else:
            bad += 1
            print(f"{name}: MISMATCH ({time.time() - t0:.1f} s)")
            print("".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "expected", "got")))
    print(f"{len(a.names or drivers()) - bad} of {len(a.names or drivers())} programs agree with tests/programs/*.expected "
          f"(backend {a.backend})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
