#!/bin/bash
# Session 11 (2026-11-28), run 3 (issue 49): the staging's caller polls instead of sleeping
# between chunks, helpers look for work 100 us before sleeping, the helper count per direction
# chosen by measurement (HelperTuner); the profile's alloc ms. Transfer test (default twice,
# 7 helpers, fresh none), CUDA beside it; XSBench by ompgpu now and at 9ac09bb with profiles.
set -u
R=/tmp/res3; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; uname -r; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s11c.tar.xz)
B=.devbuild/s11c
. .peers/bin/peer-env.sh
T=$B/startup/bin
run() { local name=$1; shift; echo "== $name"; env "$@" timeout 150 $T/transfer.ompgpu 1024 2>&1; }
{
run default
run default-again
run threads7 OMPGPU_COPY_THREADS=7
run threads15 OMPGPU_COPY_THREADS=15
} > $R/transfer-ompgpu.txt
{
echo "== cuda pageable"; timeout 150 $T/transfer.cuda pageable 1024
echo "== cuda pinned"; timeout 150 $T/transfer.cuda pinned 1024
} > $R/transfer-peers.txt 2>&1
cd $B/xsb/bin
for b in ompgpu ompgpu9ac; do
  for s in small large; do
    for r in 1 2 3; do
      echo "== $b $s $r"; timeout 120 ./XSBench.$b -m event -s $s 2>&1 | grep -i "runtime\|lookups/s\|verif\|error"
    done
  done
done > $R/xsbench.txt 2>&1
for s in small large; do
  for b in ompgpu ompgpu9ac; do echo "== $b $s"; OMPGPU_PROFILE=1 timeout 60 ./XSBench.$b -m event -s $s 2>&1 | head -6; done
done > $R/xsbench-profile.txt 2>&1
OMPGPU_PROFILE=/tmp/res3/xsb-trace.json timeout 60 ./XSBench.ompgpu -m event -s small > /dev/null 2>&1
cd - > /dev/null
tar czf $OUT/res3.tgz -C /tmp res3
for f in env transfer-ompgpu transfer-peers xsbench-profile; do echo "=== $f"; cat $R/$f.txt; done > $OUT/summary.txt 2>&1
grep -A2 "ompgpu small\|ompgpu large\|9ac small\|9ac large" $R/xsbench.txt | grep -i "==\|lookups" >> $OUT/summary.txt
