#!/bin/bash
# Session 16 run 1: the one-iteration path of cyclic team loops (loop.j2 one_round) against the
# compiler before it. The nested and SPMD binaries of the eight kernels whose generated code
# changed (nested only; SPMD unchanged: the run's noise), base (4936b2e) then exp (working tree),
# three rounds (median kernel time of 5 reps each, and PASS count). Then ncu's kernel times of
# streamcluster's nested kernel (exp): how much of a region is its kernel.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s16r1.tar.xz)
run() {  # run BIN ARGS...: "median-kernel-ms status"
  local out; out=$(BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 timeout 60 "$@" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p) $(echo "$out" | grep -c -x PASS)"
}
SECONDS=0
for i in 1 2 3; do
  for b in .devbuild/s16r1/exp/bin/*.ompgpu.*; do
    n=$(basename $b)
    echo "$i $n base $(run .devbuild/s16r1/base/bin/$n) exp $(run $b)" >> $R/alt.txt
  done
  echo "round $i done at $SECONDS s" >> $R/times.txt
  [ $SECONDS -gt 360 ] && break
done
BENCH_REPS=2 OMP_TARGET_OFFLOAD=MANDATORY timeout 120 ncu --metrics gpu__time_duration.sum -k regex:main .devbuild/s16r1/exp/bin/streamcluster.ompgpu.nested > $R/ncu-streamcluster.txt 2>&1
BENCH_REPS=2 OMPGPU_PROFILE=1 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 .devbuild/s16r1/exp/bin/streamcluster.ompgpu.nested > $R/profile-streamcluster.txt 2>&1
cd $R && tar czf all.tgz *.txt && rm -f *.txt
