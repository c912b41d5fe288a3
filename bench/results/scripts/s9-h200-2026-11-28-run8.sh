#!/bin/bash
# Session 9 (2026-11-28), run 8, the session's closing side-by-side: every bench kernel (ompgpu at
# $COMMIT, clang 19, CUDA; built on the CPU machine: .devbuild/s9w), the stencils of run 2
# (notiles/, b91131a) and run 7 (divtiles/, 73ec411) beside them, PRK's transpose-target (ompgpu
# at $COMMIT and clang 19, -O3 -DPRKVERSION=2020; 10 iterations, orders 4096 and 8192, tiles of 32).
set -u
R=/tmp/res8; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s9w.tar.xz)
SECONDS=0
( . .peers/bin/peer-env.sh
  taskset -c 0,1 python3 .devbuild/s9w/run.py run .devbuild/s9w --reps=5 --budget=240 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1
  for c in ompgpu clang; do for args in "10 4096" "10 8192"; do
    echo "== transpose-target.$c $args $(taskset -c 0,1 timeout 120 .devbuild/s9w/prk/transpose-target.$c $args | grep Rate)" >> $R/prk.txt
  done; done )
for v in notiles divtiles; do for r in 1 2 3 4; do
  echo "$v stencil r$r $(BENCH_REPS=5 taskset -c 0,1 timeout 60 .devbuild/s9w/$v/stencil.ompgpu.r$r | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p)" >> $R/stencils.txt
done; done
echo "all done at $SECONDS s" >> $R/times.txt
tar czf $OUT/res8.tgz -C /tmp res8
for f in times env bench-summary prk stencils; do echo "=== $f"; cat $R/$f.txt; done > $OUT/summary.txt 2>&1
