#!/bin/bash
# Session 15 run 3, side-by-side at c9dee67: every bench kernel (ompgpu, clang 19, CUDA and its
# cooperative kernels; built on the CPU machine into .devbuild/s15r3).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s15r3.tar.xz)
F=.devbuild/s15r3
SECONDS=0
( . .peers/bin/peer-env.sh
  taskset -c 0,1 python3 $F/run.py run $F --reps=5 --budget=330 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
echo "bench done at $SECONDS s" >> $R/times.txt
(cd $R && tar czf ../all.tgz . ) && rm -rf $R && mkdir -p $R && mv $OUT/all.tgz $R/
