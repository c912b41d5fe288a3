#!/bin/bash
# Session 20 run 9 (issue 48), the side-by-side at the final compiler (0d7c6f6's, the code of the
# commit below): every bench kernel built by ompgpu at 0d7c6f6 beside clang 19's and CUDA's binaries
# built from the same sources at 4dc1666 (same compilers); 5 reps each.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s20d.tar.xz)
D=.devbuild/s20d
( . .peers/bin/peer-env.sh
  python3 $D/run.py run $D --reps=5 --budget=240 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
cd $R && tar czf all.tgz *.txt *.log *.csv && rm -f *.txt *.log *.csv
