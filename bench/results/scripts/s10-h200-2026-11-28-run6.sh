#!/bin/bash
# Session 10 (2026-11-28), run 6: RSBench (ANL-CESAR/RSBench 34b6447, -m event) again, three reps of
# each build (session 9's run 9 had one, ompgpu's first on the machine): is the small problem's loss
# to clang a cold start? ompgpu also with OMPGPU_INFO=1 (its start-up line), OMPGPU_STARTUP=lazy and
# OMPGPU_PROFILE=1, each process timed whole. Built on the CPU machine at c41a388 (.devbuild/s10rsb).
set -u
R=/tmp/res6; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s10rsb.tar.xz)
( . .peers/bin/peer-env.sh
  python3 .devbuild/s10rsb/proxy_apps.py run .devbuild/s10rsb --csv $R/rsbench.csv --reps 3 > $R/rsbench.txt 2>&1
  B=.devbuild/s10rsb/bin
  for v in "OMPGPU_INFO=1" "OMPGPU_STARTUP=lazy" "OMPGPU_PROFILE=1" "X=1"; do
    echo "== ompgpu small $v" >> $R/variants.txt
    /usr/bin/time -f "process %e s" env $v $B/rsbench.ompgpu -m event -s small 2>&1 | grep -i "runtime\|lookups/s\|start-up\|kernel\|process\|profile\|total\|rates" >> $R/variants.txt
  done
  for b in clang cuda; do echo "== $b small" >> $R/variants.txt
    /usr/bin/time -f "process %e s" $B/rsbench.$b -m event -s small 2>&1 | grep -i "runtime\|lookups/s\|process" >> $R/variants.txt
  done )
tar czf $OUT/res6.tgz -C /tmp res6
for f in env rsbench variants; do echo "=== $f"; cat $R/$f.txt 2>/dev/null | tail -n 60; done > $OUT/summary.txt 2>&1
