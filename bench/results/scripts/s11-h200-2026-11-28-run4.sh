#!/bin/bash
# Session 11 (2026-11-28), run 4 (issue 49), at cee6659: bench/startup side by side (first
# region and transfers: ompgpu, ompgpu without staging, clang 19, CUDA pageable and pinned,
# 3 runs, up to 1 GB) and XSBench (ompgpu now and at 9ac09bb, clang 19, CUDA; small and large,
# 3 each), ompgpu's XSBench under OMPGPU_INFO (when its start-up was ready).
set -u
R=/tmp/res4; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; uname -r; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s11d.tar.xz)
B=.devbuild/s11d
. .peers/bin/peer-env.sh
python3 $B/startup/startup.py run $B/startup --csv $R/startup.csv --runs 3 --max-mb 1024 > $R/startup-summary.txt 2>&1
cd $B/xsb/bin
for b in ompgpu ompgpu9ac clang cuda; do
  for s in small large; do
    for r in 1 2 3; do
      echo "== $b $s $r"; timeout 120 ./XSBench.$b -m event -s $s 2>&1 | grep -i "runtime\|lookups/s\|verif\|error"
    done
  done
done > $R/xsbench.txt 2>&1
for s in small large; do echo "== $s"; OMPGPU_INFO=1 timeout 60 ./XSBench.ompgpu -m event -s $s 2>&1 | grep -i "start-up\|Beginning\|Runtime\|complete" ; done > $R/xsbench-info.txt 2>&1
cd - > /dev/null
tar czf $OUT/res4.tgz -C /tmp res4
for f in env startup-summary xsbench-info; do echo "=== $f"; cat $R/$f.txt; done > $OUT/summary.txt 2>&1
grep "==\|Lookups/s" $R/xsbench.txt >> $OUT/summary.txt
