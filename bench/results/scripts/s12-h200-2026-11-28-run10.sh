#!/bin/bash
# Session 12 run 10, the session's closing side-by-side: every bench kernel (ompgpu at $COMMIT,
# clang 19, CUDA; built on the CPU machine: .devbuild/s12w), and ompgpu at 9ac09bb (the issue's
# reference commit; .devbuild/s12w/start9ac) beside them.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s12w.tar.xz)
SECONDS=0
( . .peers/bin/peer-env.sh
  taskset -c 0,1 python3 .devbuild/s12w/run.py run .devbuild/s12w --reps=5 --budget=300 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
echo "bench done at $SECONDS s" >> $R/times.txt
taskset -c 0,1 python3 .devbuild/s12w/run.py run .devbuild/s12w/start9ac --reps=5 --budget=150 --csv=$R/start9ac.csv --log=$R/start9ac.log > $R/start9ac-summary.txt 2>&1
echo "all done at $SECONDS s" >> $R/times.txt
