#!/bin/bash
# Session 14 run 2: why btree and streamcluster's nested kernels stay at 0.4x CUDA. Team counts
# (OMP_NUM_TEAMS: the runtime's one wave against more, as CUDA launches a block per query or
# 8192 warps), OMPGPU_INFO's launch lines, and Nsight Compute's launch, occupancy and warp-state
# sections for one launch of each kernel (ours, f78e9da, and CUDA's), clocks left alone.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; uname -r; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s14r1.tar.xz)
B=.devbuild/s14r1/new
med() { BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 timeout 60 "$@" 2>/dev/null | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p; }
for i in 1 2; do
  for k in btree streamcluster; do
    echo "$i $k nested default $(med $B/$k.ompgpu.nested) t2112 $(OMP_NUM_TEAMS=2112 med $B/$k.ompgpu.nested) t4224 $(OMP_NUM_TEAMS=4224 med $B/$k.ompgpu.nested) t16384 $(OMP_NUM_TEAMS=16384 med $B/$k.ompgpu.nested) t65536 $(OMP_NUM_TEAMS=65536 med $B/$k.ompgpu.nested) cuda $(med $B/$k.cuda)" >> $R/teams.txt
  done
done
for k in btree streamcluster; do
  OMPGPU_INFO=1 BENCH_REPS=1 OMP_TARGET_OFFLOAD=MANDATORY $B/$k.ompgpu.nested 2>&1 | grep -i "main_l" | sort | uniq -c | head -5 > $R/info-$k.txt
done
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" >> $R/env.txt
for k in btree streamcluster; do
  BENCH_REPS=1 OMP_TARGET_OFFLOAD=MANDATORY timeout 120 $NCU --clock-control none -k regex:main_l --launch-skip 1 --launch-count 1 \
    --section LaunchStats --section Occupancy --section WarpStateStats --section SpeedOfLight --section MemoryWorkloadAnalysis \
    $B/$k.ompgpu.nested > $R/ncu-$k-ompgpu.txt 2>&1
  BENCH_REPS=1 timeout 120 $NCU --clock-control none --launch-skip 1 --launch-count 1 \
    --section LaunchStats --section Occupancy --section WarpStateStats --section SpeedOfLight --section MemoryWorkloadAnalysis \
    $B/$k.cuda > $R/ncu-$k-cuda.txt 2>&1
done
