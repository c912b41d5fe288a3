#!/bin/bash
# Session 16 run 7: RSBench (ANL-CESAR/RSBench 34b6447, -m event -s small and large) with ompgpu
# (f67f37c), clang 19 and CUDA, three reps each (bench/proxy_apps.py), ompgpu's profile and trace
# of a small run; and what cudaMalloc, cudaFree and a pool's allocations cost by size
# (s16-alloc-cost.cu).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s16r7.tar.xz)
. .peers/bin/peer-env.sh
D=.devbuild/s16r7
for i in 1 2; do $D/alloc_cost >> $R/alloc.txt 2>&1; done
python3 $D/proxy_apps.py run $D --csv $R/rsbench.csv > $R/rsbench.txt 2>&1
OMPGPU_PROFILE=$R/trace.json OMPGPU_INFO=1 $D/bin/rsbench.ompgpu -m event -s small > $R/profile-small.txt 2>&1
cd $R && tar czf all.tgz *.txt *.csv trace.json && rm -f *.txt *.csv trace.json
