"""Build run-and-check programs here for one batched run on a GPU machine.

    python3 tests/host_runtime/devbuild.py OUT NAME... [-- ompgpu-flags...]

builds tests/programs/NAME.c with `ompgpu cc --offload=cuda` (one at a time: the build
machine is small), strips the binaries and packs them with their .expected files and
tests/gpu/programs.py into OUT/progs.tar.xz, and writes OUT/run.sh:

    bash OUT/run.sh single   # every program (programs.py run), then nowait_overlap
                             # with OMPGPU_BENCH=1 a few times, logs under $OUT
    bash OUT/run.sh multi    # the multi-device programs with OMPGPU_INFO=1 (2+ GPUs)
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MULTI = ("multi_device", "multi_device_nowait", "default_device")

RUN_SH = r"""#!/bin/bash
# Runs the programs packed next to this script; writes logs under $OUT. See devbuild.py.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/out}
mkdir -p "$OUT"
WORK=$(mktemp -d)
tar xJf "$HERE/progs.tar.xz" -C "$WORK"
P=$WORK/progs
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$OUT/device.txt" 2>&1
case "${1:-single}" in
single)
  python3 "$P/programs.py" run "$P" --log "$OUT/programs.log" > "$OUT/programs.txt" 2>&1
  for i in 1 2 3; do
    OMPGPU_BENCH=1 OMP_NUM_THREADS=8 OMP_TARGET_OFFLOAD=MANDATORY "$P/nowait_overlap" >> "$OUT/bench_overlap.txt" 2>&1
  done
  OMPGPU_INFO=1 OMP_TARGET_OFFLOAD=MANDATORY "$P/struct_members" > "$OUT/struct_members_info.txt" 2>&1
  ;;
multi)
  for p in %(multi)s; do
    echo "== $p" >> "$OUT/multi.txt"
    OMPGPU_INFO=1 OMP_TARGET_OFFLOAD=MANDATORY "$P/$p" > "$OUT/$p.stdout" 2> "$OUT/$p.stderr"
    echo "rc=$? $(cmp -s "$OUT/$p.stdout" "$P/$p.expected" && echo PASS || echo WRONG)" >> "$OUT/multi.txt"
    grep -o ', device [0-9]*$' "$OUT/$p.stderr" | sort | uniq -c >> "$OUT/multi.txt"
  done
  for i in 1 2 3; do
    OMPGPU_BENCH=1 OMP_NUM_THREADS=8 OMP_TARGET_OFFLOAD=MANDATORY "$P/nowait_overlap" >> "$OUT/bench_overlap.txt" 2>&1
  done
  ;;
esac
cat "$OUT"/*.txt | tail -60
"""


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__)
        return 2
    out = Path(argv[0]).resolve()
    names, flags = argv[1:], ["--offload=cuda"]
    if "--" in names:
        i = names.index("--")
        names, flags = names[:i], flags + names[i + 1:]
    out.mkdir(parents=True, exist_ok=True)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        stage = Path(tmp) / "progs"
        stage.mkdir()
        shutil.copy(REPO / "tests" / "gpu" / "programs.py", stage / "programs.py")
        for name in names:
            src = REPO / "tests" / "programs" / f"{name}.c"
            exe = stage / name
            r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", *flags, str(src), "-o", str(exe)],
                               capture_output=True, text=True, cwd=REPO)
            if r.returncode != 0:
                failed += 1
                print(f"BUILD-FAIL {name}\n{r.stderr[-2000:]}", flush=True)
                continue
            subprocess.run(["strip", str(exe)], check=False)
            shutil.copy(src.with_suffix(".expected"), stage / f"{name}.expected")
            print(f"built {name}", flush=True)
        with tarfile.open(out / "progs.tar.xz", "w:xz") as tar:
            tar.add(stage, arcname="progs")
    (out / "run.sh").write_text(RUN_SH % {"multi": " ".join(MULTI)})
    print(f"{len(names) - failed} built, {failed} failed; {out / 'progs.tar.xz'}: "
          f"{(out / 'progs.tar.xz').stat().st_size / 1e6:.1f} MB")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
