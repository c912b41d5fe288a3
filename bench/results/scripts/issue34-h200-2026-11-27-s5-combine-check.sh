#!/bin/bash
# Session 5 (2026-11-27): after combine.cuh moved to block_barrier (b0ea...: see $COMMIT), the
# programs that combine atomic updates, in both modes, plain and under memcheck/racecheck, and
# streamcluster's benchmark built here, 5 repetitions.
set -u
R=$OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
for mode in auto generic; do
  mkdir -p /tmp/p-$mode && cp tests/gpu/programs.py /tmp/p-$mode/
  for b in combined_atomics kmeans multi_device_nowait; do
    python3 -m ompgpu cc --offload=cuda --mode=$mode tests/programs/$b.c -o /tmp/p-$mode/$b && cp tests/programs/$b.expected /tmp/p-$mode/
  done
  python3 /tmp/p-$mode/programs.py run /tmp/p-$mode --sanitize=memcheck,racecheck > $R/programs-$mode.txt 2>&1
done
python3 -m ompgpu cc -O3 bench/streamcluster/streamcluster.c -o /tmp/sc -lm && BENCH_REPS=5 /tmp/sc > $R/streamcluster.txt 2>&1
tail -n 4 $R/programs-*.txt; grep -v "^ompgpu" $R/streamcluster.txt | tail -4
