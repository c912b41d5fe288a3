#!/bin/bash
# Session 14 run 4: the cost of one synchronous target region (s14-target-empty.c, ompgpu at
# 788dea3 and clang 19) against the floor of a CUDA launch and wait (s14-launch-sync.cu), three
# times each on the bench's two cores; then ompgpu's with OMPGPU_PROFILE=1.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s14r4.tar.xz)
L=.devbuild/lat
for i in 1 2 3; do
  echo "$i cuda: $(taskset -c 0,1 $L/launch_sync | tr '\n' ' ')" >> $R/latency.txt
  echo "$i ompgpu: $(OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 $L/target_empty)" >> $R/latency.txt
  echo "$i clang: $( . .peers/bin/peer-env.sh; taskset -c 0,1 $L/target_empty.clang)" >> $R/latency.txt
done
OMPGPU_PROFILE=1 OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 $L/target_empty > $R/profile.txt 2>&1
