#!/bin/bash
# Session 17 run 10: session 16's run 8 binaries (caf9d77: ompgpu, clang 19, CUDA; every bench
# kernel) run again exactly as then but without `taskset -c 0,1`, so that the end-to-end column
# is what a process with all 16 processors sees (ompgpu's staging has helper threads only then).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT (binaries: caf9d77, .devbuild/s16r8)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s16r8.tar.xz)
F=.devbuild/s16r8
( . .peers/bin/peer-env.sh
  python3 $F/run.py run $F --reps=5 --budget=420 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
tail -n 5 $R/bench-summary.txt
(cd $R && tar czf ../all.tgz .) && rm -rf $R && mkdir -p $R && mv $OUT/all.tgz $R/
