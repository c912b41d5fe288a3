#!/bin/bash
# Session 11 (2026-11-28), run 2 (issue 49): the pipelined staging (chunks' host side by all
# processors with streaming stores, no pause between chunks, buffers per direction, fresh pages
# faulted in ahead by four helpers): transfer test with its default and swept settings, CUDA and
# clang beside it; XSBench by ompgpu now and at 9ac09bb, clang 19, CUDA. Built on the CPU machine
# (.devbuild/s11b).
set -u
R=/tmp/res2; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; uname -r; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s11b.tar.xz)
B=.devbuild/s11b
. .peers/bin/peer-env.sh
T=$B/startup/bin
run() { local name=$1; shift; echo "== $name"; env "$@" timeout 150 $T/transfer.ompgpu 1024 2>&1; }
{
run default
run default-again
run threads7 OMPGPU_COPY_THREADS=7
run threads11 OMPGPU_COPY_THREADS=11
run buffers3 OMPGPU_STAGING_BUFFERS=3
run buffers8 OMPGPU_STAGING_BUFFERS=8
run chunk4M OMPGPU_STAGING_CHUNK_BYTES=4194304
run chunk16M OMPGPU_STAGING_CHUNK_BYTES=16777216
run fresh-huge OMPGPU_FRESH_PAGES=huge
run fresh-none OMPGPU_FRESH_PAGES=none
run pageable OMPGPU_STAGING_MIN_BYTES=0
} > $R/transfer-ompgpu.txt
{
echo "== cuda pageable"; timeout 150 $T/transfer.cuda pageable 1024
echo "== cuda pinned"; timeout 150 $T/transfer.cuda pinned 1024
echo "== clang"; timeout 150 $T/transfer.clang 1024
} > $R/transfer-peers.txt 2>&1
cd $B/xsb/bin
for b in ompgpu ompgpu9ac clang cuda; do
  for s in small large; do
    for r in 1 2 3; do
      echo "== $b $s $r"; timeout 120 ./XSBench.$b -m event -s $s 2>&1 | grep -i "runtime\|lookups/s\|verif\|error"
    done
  done
done > $R/xsbench.txt 2>&1
for s in small large; do OMPGPU_PROFILE=1 timeout 60 ./XSBench.ompgpu -m event -s $s 2>&1 | head -5; done > $R/xsbench-profile.txt 2>&1
cd - > /dev/null
tar czf $OUT/res2.tgz -C /tmp res2
for f in env transfer-ompgpu transfer-peers xsbench-profile; do echo "=== $f"; cat $R/$f.txt; done > $OUT/summary.txt 2>&1
grep -A2 "ompgpu small\|ompgpu large\|9ac small\|9ac large" $R/xsbench.txt | grep -i "==\|lookups" >> $OUT/summary.txt
