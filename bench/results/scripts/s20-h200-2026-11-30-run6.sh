#!/bin/bash
# Session 20 run 6 (issue 48) at the commit below: PRK's transpose-target (ParRes/Kernels C1z, kept
# outside the project, built with -DPRKVERSION=2020 by ompgpu -O3 and clang 19 -O3; 10 iterations,
# orders 4096 and 8192, tiles of 32 and untiled, three runs each) and RSBench (ANL-CESAR/RSBench,
# kept outside; bench/proxy_apps.py: ompgpu, clang 19 and its CUDA version, small and large).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s20r6.tar.xz)
D=.devbuild
. .peers/bin/peer-env.sh
for r in 1 2 3; do for c in ompgpu clang; do for args in "10 4096" "10 4096 -1" "10 8192" "10 8192 -1"; do
  echo "== round $r transpose-target.$c $args" >> $R/prk.txt
  timeout 120 $D/prk/transpose-target.$c $args >> $R/prk.txt 2>&1
done; done; done
python3 $D/rsbb/proxy_apps.py run $D/rsbb --csv $R/rsbench.csv --reps 3 > $R/rsbench-summary.txt 2>&1
cd $R && tar czf all.tgz *.txt *.csv && rm -f *.txt *.csv
