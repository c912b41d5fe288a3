"""Build the run-and-check programs here, run them on a GPU machine.

    python tests/gpu/programs.py build OUT [--offload=cuda] [ompgpu flags...]
        compiles tests/programs/*.c with `ompgpu cc` into OUT (binaries + .expected files)
    python3 OUT/programs.py run OUT [--sanitize=memcheck,racecheck,synccheck] [--log=FILE] [--timeout=S]
        runs every binary (OMP_TARGET_OFFLOAD=MANDATORY), compares stdout with .expected,
        optionally under compute-sanitizer, and prints one line per program and a summary;
        a program still running after S seconds (default 600) is killed and reported TIMEOUT,
        so that one hang does not end the run

`run` needs only the Python standard library, so it works on a machine without ompgpu.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def build(out: Path, flags: list[str]) -> int:
    programs = sorted((HERE.parent / "programs").glob("*.c"))
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(__file__, out / "programs.py")
    failed = 0
    for src in programs:
        r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", *flags, str(src), "-o", str(out / src.stem)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            failed += 1
            print(f"BUILD-FAIL {src.stem}\n{r.stderr[-2000:]}", flush=True)
            continue
        shutil.copy(src.with_suffix(".expected"), out / (src.stem + ".expected"))
        print(f"built {src.stem}", flush=True)
    print(f"{len(programs) - failed} built, {failed} failed")
    return 1 if failed else 0


def run(folder: Path, sanitize: list[str], log, timeout: float) -> int:
    env = dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY")
    folder = folder.resolve()
    binaries = sorted(p.with_suffix("") for p in folder.glob("*.expected"))
    passed = failed = 0
    for exe in binaries:
        expected = exe.with_suffix(".expected").read_text()
        t0 = time.time()
        timed_out = False
        try:
            r = subprocess.run([str(exe)], capture_output=True, text=True, env=env, timeout=timeout, cwd=folder)
        except subprocess.TimeoutExpired as e:   # killed (SIGKILL): what it had written, rc -9
            r = subprocess.CompletedProcess(e.cmd, -9, _text(e.stdout), _text(e.stderr))
            timed_out = True
        ok = r.returncode == 0 and r.stdout == expected
        status = "PASS" if ok else ("TIMEOUT" if timed_out else
                                    "WRONG" if r.returncode == 0 else f"FAIL(rc={r.returncode})")
        notes = []
        for tool in sanitize:
            s = subprocess.run(["compute-sanitizer", f"--tool={tool}", "--error-exitcode=99", str(exe)],
                               capture_output=True, text=True, env=env, timeout=1200, cwd=folder)
            summary = [l for l in s.stdout.splitlines() if "ERROR SUMMARY" in l or "RACECHECK SUMMARY" in l]
            clean = s.returncode == 0
            notes.append(f"{tool}={'clean' if clean else 'ERRORS'}")
            ok = ok and clean
            print(f"--- {exe.name} {tool}: rc={s.returncode} {' '.join(summary)}", file=log)
            if not clean:
                print(s.stdout[-3000:], file=log)
        line = f"{status:12s} {exe.name:28s} {time.time() - t0:7.2f}s {' '.join(notes)}"
        print(line, flush=True)
        print(line, file=log)
        if not ok and r.returncode != 0 or r.stdout != expected:
            print(f"stdout:\n{r.stdout[-2000:]}\nstderr:\n{r.stderr[-2000:]}", file=log)
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def _text(out) -> str:
    """What a killed program had written (TimeoutExpired holds bytes even in text mode)."""
    if out is None:
        return ""
    return out.decode(errors="replace") if isinstance(out, bytes) else out


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "build":
        return build(Path(argv[1]), argv[2:] or ["--offload=cuda"])
    if len(argv) >= 2 and argv[0] == "run":
        sanitize, log, timeout = [], None, 600.0
        for a in argv[2:]:
            if a.startswith("--sanitize="):
                sanitize = [t for t in a.split("=", 1)[1].split(",") if t]
            elif a.startswith("--log="):
                log = open(a.split("=", 1)[1], "w")
            elif a.startswith("--timeout="):
                timeout = float(a.split("=", 1)[1])
        return run(Path(argv[1]), sanitize, log or open(os.devnull, "w"), timeout)
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
