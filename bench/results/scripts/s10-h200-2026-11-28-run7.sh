#!/bin/bash
# Session 10 (2026-11-28), run 7: the stencil benchmark's sweep loop now runs as one persistent kernel
# (its region's firstprivate pointers are kept since e8c04b3's successors): fused with the default
# teams, fused on every resident team (OMPGPU_LOOP_TEAMS=100000), unfused (OMPGPU_PERSISTENT_LOOPS=0),
# beside CUDA, radius 1-4, and tiledtranspose (not fused) as a control. Built on the CPU machine at
# 7fbd3d8 (.devbuild/s10f).
set -u
R=/tmp/res7; mkdir -p $R
{ date; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s10f.tar.xz)
med() { grep kernel_ms | awk '{print $6}' | sort -n | sed -n 4p; }
export OMP_TARGET_OFFLOAD=MANDATORY BENCH_REPS=7
for b in .devbuild/s10f/bin/*.ompgpu.*; do
  n=$(basename $b)
  echo "$n fused $($b | med) fused_all_resident $(OMPGPU_LOOP_TEAMS=100000 $b | med) unfused $(OMPGPU_PERSISTENT_LOOPS=0 $b | med) check $($b | tail -1)" >> $R/stencil.txt
  OMPGPU_INFO=1 BENCH_REPS=1 $b 2>&1 | grep "cooperative" | head -1 >> $R/info.txt
  OMPGPU_INFO=1 BENCH_REPS=1 OMPGPU_LOOP_TEAMS=100000 $b 2>&1 | grep "cooperative" | head -1 >> $R/info.txt
done
for b in .devbuild/s10f/bin/*.cuda.*; do echo "$(basename $b) $($b | med) check $($b | tail -1)" >> $R/stencil.txt; done
tar czf $OUT/res7.tgz -C /tmp res7
for f in env stencil info; do echo "=== $f"; cat $R/$f.txt; done > $OUT/summary.txt 2>&1
