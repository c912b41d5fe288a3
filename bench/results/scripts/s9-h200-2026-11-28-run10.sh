#!/bin/bash
# Session 9 (2026-11-28), run 10: where RSBench's small problem loses (run 9: ompgpu 24.3M lookups/s
# against clang's 57.4M): the launch ompgpu picks (OMPGPU_INFO) at both sizes, and the small problem
# with other team counts (OMP_NUM_TEAMS) and the dense instance's alternative (the plain kernel:
# OMP_NUM_TEAMS set turns the dense instance off). Binaries of run 9 (.devbuild/rsb).
set -u
R=/tmp/res10; mkdir -p $R
(cd .devbuild && tar xJf rsb.tar.xz)
B=.devbuild/rsb/bin/rsbench.ompgpu
for s in small large; do echo "== $s"; OMPGPU_INFO=1 timeout 60 $B -m event -s $s 2>&1 | grep -i "kernel __omp\|instance\|Lookups/s\|checksum"; done > $R/rsbench-info.txt 2>&1
for t in 528 1056 2112 4224 8448; do echo "== small OMP_NUM_TEAMS=$t $(OMP_NUM_TEAMS=$t timeout 60 $B -m event -s small 2>&1 | grep 'Lookups/s')"; done >> $R/rsbench-info.txt 2>&1
cp $R/rsbench-info.txt $OUT/
