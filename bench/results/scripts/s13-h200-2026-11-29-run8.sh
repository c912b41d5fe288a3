#!/bin/bash
# Session 13 run 8, the session's closing side-by-side: every bench kernel (ompgpu at $COMMIT, clang
# 19, CUDA; built on the CPU machine: .devbuild/s13g). Run 9 has ompgpu at 9ac09bb beside today's
# ompgpu builds, and XSBench (one device call could not carry them all). Outputs packed.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s13gA.tar.xz)
SECONDS=0
( . .peers/bin/peer-env.sh
  taskset -c 0,1 python3 .devbuild/s13g/run.py run .devbuild/s13g --reps=5 --budget=300 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
echo "bench done at $SECONDS s" >> $R/times.txt
(cd $R && tar czf ../all.tgz . ) && rm -rf $R && mkdir -p $R && mv $OUT/all.tgz $R/
