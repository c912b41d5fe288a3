#!/bin/bash
# Session 13 run 9: what run 8's budget skipped (matmul, labelprop, jacobi, mclookup: ompgpu, clang
# 19, CUDA and cooperative CUDA; run 8's build also had gcc 12, whose slow runs spent the budget);
# ompgpu at 9ac09bb (the reference compiler) built from today's bench sources
# (.devbuild/s13g/start9ac; bfs.c times its updates) and today's ompgpu builds (.devbuild/s13g/now,
# run 8's binaries) one after the other; XSBench (ANL-CESAR/XSBench ba08e52, kept outside the
# repository; -m event small and large, 3 runs each): ompgpu now and at 9ac09bb, clang 19, nvcc.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s13gB.tar.xz)
SECONDS=0
( . .peers/bin/peer-env.sh
  taskset -c 0,1 python3 .devbuild/s13g/run.py run .devbuild/s13g/rest --reps=5 --budget=120 --csv=$R/rest.csv --log=$R/rest.log > $R/rest-summary.txt 2>&1
  echo "rest done at $SECONDS s" >> $R/times.txt
  taskset -c 0,1 python3 .devbuild/s13g/run.py run .devbuild/s13g/start9ac --reps=5 --budget=110 --csv=$R/start9ac.csv --log=$R/start9ac.log > $R/start9ac-summary.txt 2>&1
  echo "9ac09bb done at $SECONDS s" >> $R/times.txt
  taskset -c 0,1 python3 .devbuild/s13g/run.py run .devbuild/s13g/now --reps=5 --budget=110 --csv=$R/now.csv --log=$R/now.log > $R/now-summary.txt 2>&1
  echo "now done at $SECONDS s" >> $R/times.txt
  python3 .devbuild/s13g/xs/proxy_apps.py run .devbuild/s13g/xs --csv $R/xsbench.csv --reps 3 > $R/xsbench-summary.txt 2>&1
  for s in small large; do for i in 1 2 3; do
    echo "== 9ac09bb $s" >> $R/xsbench-9ac.txt
    .devbuild/s13g/xs9ac/XSBench.ompgpu -m event -s $s 2>&1 | grep -a "Runtime:\|Lookups/s\|Verification" >> $R/xsbench-9ac.txt
  done; done
  echo "all done at $SECONDS s" >> $R/times.txt )
(cd $R && tar czf ../all.tgz . ) && rm -rf $R && mkdir -p $R && mv $OUT/all.tgz $R/
