#!/bin/bash
# Session 10 (2026-11-28), run 8: at 57cfb90 (a loop whose longest region has more
# than 32 iterations a resident thread runs as written): the stencils and tiled transposes, fused
# by default before, against their unfused runs and CUDA; labelprop, jacobi and bfs still fused.
# Built on the CPU machine (.devbuild/s10g).
set -u
R=/tmp/res8; mkdir -p $R
{ date; echo "commit 57cfb90"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s10g.tar.xz)
med() { grep kernel_ms | awk '{print $6}' | sort -n | sed -n 4p; }
export OMP_TARGET_OFFLOAD=MANDATORY BENCH_REPS=7
for b in .devbuild/s10g/bin/*.ompgpu.*; do
  n=$(basename $b)
  echo "$n default $($b | med) unfused $(OMPGPU_PERSISTENT_LOOPS=0 $b | med) check $($b | tail -1)" >> $R/bench.txt
  OMPGPU_INFO=1 BENCH_REPS=1 $b 2>&1 | grep "cooperative\|persistent loop" | head -1 | sed "s|^|$n: |" >> $R/info.txt
done
for b in .devbuild/s10g/bin/*.cuda*; do echo "$(basename $b) $($b | med) check $($b | tail -1)" >> $R/bench.txt; done
tar czf $OUT/res8.tgz -C /tmp res8
for f in env bench info; do echo "=== $f"; cat $R/$f.txt; done > $OUT/summary.txt 2>&1
