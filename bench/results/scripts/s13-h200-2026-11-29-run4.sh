#!/bin/bash
# Session 13 run 4: what the background start-up spends its time on (OMPGPU_INFO's report of its
# steps, 5 fresh processes each): RSBench (-m event -s small) and bench/startup/first_region after
# 0 and 300 ms of host work, with CUDA's first_region beside them; the GPU's persistence mode.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s13d.tar.xz)
D=.devbuild/s13d
for i in 1 2 3 4 5; do
  OMPGPU_INFO=1 $D/rsbench.ompgpu -m event -s small 2>&1 | grep -a "start-up\|Runtime:\|Lookups/s\|Initialization Complete" >> $R/rsbench-small.txt
  for h in 0 300; do
    OMPGPU_INFO=1 $D/first_region.ompgpu $h 2>&1 | grep -a "start-up\|first" >> $R/first-region-ompgpu-$h.txt
    $D/first_region.cuda $h >> $R/first-region-cuda-$h.txt 2>&1
  done
done
