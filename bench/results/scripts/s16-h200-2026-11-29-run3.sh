#!/bin/bash
# Session 16 run 3: where streamcluster's nested kernel spends its time, against CUDA's pgain:
# ncu's speed of light, memory, warp states and launch statistics of one launch of each
# (run 2's binaries: ompgpu at 4936b2e, CUDA's bench binary).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s16r2.tar.xz)
D=.devbuild/s16r2
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats --section Occupancy --section SchedulerStats"
BENCH_REPS=1 OMP_TARGET_OFFLOAD=MANDATORY timeout 200 ncu $S -k regex:main_l30 -s 2 -c 1 $D/base/bin/streamcluster.ompgpu.nested > $R/ncu-ompgpu.txt 2>&1
BENCH_REPS=1 timeout 200 ncu $S -k regex:pgain -s 2 -c 1 $D/cudab/bin/streamcluster.cuda > $R/ncu-cuda.txt 2>&1
cd $R && tar czf all.tgz *.txt && rm -f *.txt
