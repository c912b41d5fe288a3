#!/bin/bash
# Session 14 run 1: reductions into serial locals handed to every thread (all-reduce), storeless
# regions without an entry barrier (f78e9da) against the session's start (20a1c06, "old"), same
# bench sources: every nested and SPMD kernel of the nested benchmarks and rowmix, alternated three
# times (median of 5 reps each), CUDA once per round; each binary's PASS/FAIL line kept.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s14r1.tar.xz)
B=.devbuild/s14r1
run() {  # run BIN: "median-kernel-ms status"
  local out; out=$(BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 timeout 60 "$1" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p) $(echo "$out" | grep -c -x PASS)"
}
KS="heartwall imghisto lud kmeans backprop bfs transpose gaussjordan haccmk lavamd particlefilter btree streamcluster sparserows"
for i in 1 2 3; do
  for k in $KS; do
    for v in nested spmd; do
      echo "$i $k $v old $(run $B/old/$k.ompgpu.$v) new $(run $B/new/$k.ompgpu.$v)" >> $R/alt.txt
    done
    echo "$i $k cuda $(run $B/new/$k.cuda)" >> $R/alt.txt
  done
  for v in every64 every512 every4096 uniform; do
    echo "$i rowmix $v old $(run $B/old/rowmix.ompgpu.$v) new $(run $B/new/rowmix.ompgpu.$v) cuda $(run $B/new/rowmix.cuda.$v)" >> $R/alt.txt
  done
done
