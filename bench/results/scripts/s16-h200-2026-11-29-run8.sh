#!/bin/bash
# Session 16 run 8, side-by-side at caf9d77 (f67f37c's compiler): every bench kernel (ompgpu, clang 19, CUDA and its
# cooperative kernels; built on the CPU machine into .devbuild/s16r8).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s16r8.tar.xz)
F=.devbuild/s16r8
SECONDS=0
( . .peers/bin/peer-env.sh
  taskset -c 0,1 python3 $F/run.py run $F --reps=5 --budget=330 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
echo "bench done at $SECONDS s" >> $R/times.txt
(cd $R && tar czf ../all.tgz . ) && rm -rf $R && mkdir -p $R && mv $OUT/all.tgz $R/
