#!/bin/bash
# Session 19 run 8 (issue 48): RSBench (ANL-CESAR/RSBench 34b6447, a checkout outside the project)
# openmp-offload built by ompgpu at the commit below and by clang 19, its cuda version by nvcc;
# bench/proxy_apps.py run, 3 reps, small and large.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s19r8.tar.xz)
( . .peers/bin/peer-env.sh
  python3 .devbuild/s19r8/proxy_apps.py run .devbuild/s19r8 --csv $R/rsbench.csv --reps 3 > $R/rsbench-summary.txt 2>&1 )
cd $R && tar czf all.tgz *.txt *.csv && rm -f *.txt *.csv
