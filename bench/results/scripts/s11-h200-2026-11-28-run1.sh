#!/bin/bash
# Session 11 (2026-11-28), run 1 (issue 49): the building blocks of a pageable copy measured on
# their own (bench/startup/copy_paths.cu), beside the transfer test of ompgpu at aa6600e and
# CUDA's pageable and pinned copies, and XSBench (small, large) by ompgpu at aa6600e and at
# 9ac09bb, clang 19 and CUDA. Built on the CPU machine (.devbuild/s11a).
set -u
R=/tmp/res1; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; grep -m1 "model name" /proc/cpuinfo; free -g | head -2; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; uname -r; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s11a.tar.xz)
B=.devbuild/s11a
. .peers/bin/peer-env.sh
timeout 200 $B/copy_paths 1024 > $R/copy_paths.txt 2>&1
for i in 1 2; do
  timeout 100 $B/startup/bin/transfer.ompgpu 1024 > $R/transfer-ompgpu-$i.txt 2>&1
done
timeout 100 $B/startup/bin/transfer.cuda pageable 1024 > $R/transfer-cuda-pageable.txt 2>&1
timeout 100 $B/startup/bin/transfer.cuda pinned 1024 > $R/transfer-cuda-pinned.txt 2>&1
cd $B/xsb/bin
for b in ompgpu ompgpu9ac clang cuda; do
  for s in small large; do
    for r in 1 2 3; do
      echo "== $b $s $r"; timeout 120 ./XSBench.$b -m event -s $s 2>&1 | grep -i "runtime\|lookups/s\|verif\|error"
    done
  done
done > $R/xsbench.txt 2>&1
OMPGPU_PROFILE=1 timeout 60 ./XSBench.ompgpu -m event -s small > $R/xsbench-profile.txt 2>&1
cd - > /dev/null
tar czf $OUT/res1.tgz -C /tmp res1
for f in env copy_paths transfer-ompgpu-1 transfer-ompgpu-2 transfer-cuda-pageable transfer-cuda-pinned xsbench; do echo "=== $f"; cat $R/$f.txt; done > $OUT/summary.txt 2>&1
