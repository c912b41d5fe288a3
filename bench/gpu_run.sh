#!/bin/bash
# The GPU-machine side of bench/run.py, as run through the device tool from the main
# checkout's root with .devbuild/appbench (this script + bench.tar.xz from `run.py build`)
# and .peers/{bin,debs} carried:   bash .devbuild/appbench/gpu_run.sh   (writes into $OUT)
set -u
here="$(cd "$(dirname "$0")" && pwd)"
work=/tmp/appbench
mkdir -p "$work" && tar xJf "$here/bench.tar.xz" -C "$work"
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
. .peers/bin/peer-env.sh
python3 "$work/out/run.py" run "$work/out" --reps="${REPS:-5}" --budget="${BUDGET:-230}" \
  --csv="$OUT/results.csv" --log="$OUT/run.log" 2>&1 | tee "$OUT/summary.txt"
