#!/bin/bash
# Session 16 run 2, an experiment: packed-team kernels (backprop, bfs, rowmix, sparserows,
# streamcluster nested) compiled for full residency, __launch_bounds__(block, 2048 / block)
# ("dense", built from 4936b2e with that bound; ptxas then keeps 28 registers for
# streamcluster's kernel where it took 48: 16 blocks of 128 per SM instead of 10) against
# 4936b2e's code ("base"), three rounds alternated (median kernel time of 5 reps, PASS count);
# CUDA's binaries once each; streamcluster with minimum blocks 12 and 16 by hand; ncu's
# registers, achieved occupancy and time of streamcluster's kernel, base and dense.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s16r2.tar.xz)
run() {  # run BIN ARGS...: "median-kernel-ms status"
  local out; out=$(BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 timeout 60 "$@" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p) $(echo "$out" | grep -c -x PASS)"
}
D=.devbuild/s16r2
SECONDS=0
for i in 1 2 3; do
  for b in $D/dense/bin/*.ompgpu.*; do
    n=$(basename $b)
    echo "$i $n base $(run $D/base/bin/$n) dense $(run $b)" >> $R/alt.txt
  done
  for v in base mb12 mb16; do echo "$i streamcluster.$v $(run $D/streamcluster.$v)" >> $R/alt.txt; done
  echo "round $i done at $SECONDS s" >> $R/times.txt
  [ $SECONDS -gt 400 ] && break
done
for b in $D/cudab/bin/*.cuda; do echo "$(basename $b) $(run $b)" >> $R/cuda.txt; done
for v in base dense; do
  BENCH_REPS=1 OMP_TARGET_OFFLOAD=MANDATORY timeout 120 ncu --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size -k regex:main_l30 -c 3 $D/$v/bin/streamcluster.ompgpu.nested > $R/ncu-streamcluster-$v.txt 2>&1
done
cd $R && tar czf all.tgz *.txt && rm -f *.txt
