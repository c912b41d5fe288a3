#!/bin/bash
# Session 16 run 5: the cost of a synchronous target region (bench/startup/region_cost.c, ompgpu
# at f67f37c) against CUDA's launch and wait (region_cost.cu), three runs each.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
D=.devbuild/s16r5
for i in 1 2 3; do
  echo "== run $i" >> $R/region_cost.txt
  OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 $D/region_cost 3000 >> $R/region_cost.txt 2>&1
  taskset -c 0,1 $D/region_cost_cuda 3000 >> $R/region_cost.txt 2>&1
done
OMPGPU_PROFILE=$R/trace.json OMP_TARGET_OFFLOAD=MANDATORY $D/region_cost 200 > $R/profile.txt 2>&1
cd $R && tar czf all.tgz *.txt trace.json && rm -f *.txt trace.json
