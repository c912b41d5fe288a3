#!/bin/bash
# Session 18 run 8 (issue 48), the closing side-by-side at the commit below: every bench kernel
# built by ompgpu at this commit; clang 19's and CUDA's binaries are run 2's (the same sources and
# compilers, built at a94d840). Every kernel, 5 reps.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s18r8.tar.xz)
D=.devbuild/s18r8
( . .peers/bin/peer-env.sh
  python3 $D/bench/run.py run $D/bench --reps=5 --budget=330 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
cd $R && tar czf all.tgz *.txt *.log *.csv && rm -f *.txt *.log *.csv
