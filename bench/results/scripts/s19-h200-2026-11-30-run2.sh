#!/bin/bash
# Session 19 run 2 (issue 48) at the commit below: every bench kernel built by ompgpu at 453ab2a
# (counting loops; the generic teams' thread limit) beside clang 19's and CUDA's binaries of session
# 18's run 8 (the same sources and compilers). 5 reps each.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s19r2b.tar.xz)
D=.devbuild/s19b
( . .peers/bin/peer-env.sh
  python3 $D/run.py run $D --reps=5 --budget=330 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
cd $R && tar czf all.tgz *.txt *.log *.csv && rm -f *.txt *.log *.csv
