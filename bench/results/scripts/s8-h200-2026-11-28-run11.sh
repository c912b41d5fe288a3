#!/bin/bash
# Session 8 (2026-11-28), run 11: issue 49's baseline: XSBench (ANL-CESAR/XSBench, the mirror's
# newest commit, built outside the project by bench/xsbench.py: ompgpu -O3 at $COMMIT, clang 19
# offload, nvcc) with -m event, small and large, two runs each, ompgpu also under OMPGPU_PROFILE.
set -u
R=/tmp/res11; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf xs.tar.xz)
cat .devbuild/xs/xsbench-commit.txt >> $R/env.txt
( . .peers/bin/peer-env.sh
  timeout 330 python3 .devbuild/xs/xsbench.py run .devbuild/xs --csv $R/xsbench.csv --reps 2 > $R/xsbench.txt 2>&1 )
cp $R/* $OUT/
