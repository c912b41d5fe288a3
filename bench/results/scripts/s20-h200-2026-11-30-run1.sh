#!/bin/bash
# Session 20 run 1 (issue 48) at the commit below: every bench kernel built by ompgpu at 984e0fe
# (persistent loops of packed regions: bfs nested; a team's own transposing nest staged through
# shared memory: transpose nested) beside clang 19's and CUDA's binaries built from the same sources
# at 4dc1666 (same compilers); 5 reps each. Then bfs's and transpose's nested kernels under
# OMPGPU_PROFILE=1 and OMPGPU_INFO=1 (what the runtime launched).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s20b.tar.xz)
D=.devbuild/s20b
( . .peers/bin/peer-env.sh
  python3 $D/run.py run $D --reps=5 --budget=330 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
for k in bfs transpose; do
  OMPGPU_PROFILE=1 OMPGPU_INFO=1 BENCH_REPS=3 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 $D/bin/$k.ompgpu.nested > $R/profile-$k.txt 2>&1
done
cd $R && tar czf all.tgz *.txt *.log *.csv && rm -f *.txt *.log *.csv
