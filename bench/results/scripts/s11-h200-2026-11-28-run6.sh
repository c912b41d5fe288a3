#!/bin/bash
# Session 11 (2026-11-28), run 6 (issue 49), at 3c07323: the pinned lane beside the staging.
# Transfer test: 3c07323 default, without the lane (OMPGPU_PINNED_LANE_BYTES=0), and cee6659,
# interleaved, twice each; the host's memory bandwidth (copy_paths' memcpy lines); XSBench
# small and large by ompgpu now and at 9ac09bb (3 each), now with the trace (construct spans).
set -u
R=/tmp/res6; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; uname -r; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s11e.tar.xz)
B=.devbuild/s11e
T=$B/startup/bin
{
for i in 1 2; do
  echo "== lane $i"; timeout 150 $T/transfer.ompgpu 1024
  echo "== nolane $i"; OMPGPU_PINNED_LANE_BYTES=0 timeout 150 $T/transfer.ompgpu 1024
  echo "== cee6659 $i"; timeout 150 $T/transfer.ompgpu-cee6659 1024
done
} > $R/transfer.txt 2>&1
timeout 120 $B/copy_paths 256 2>&1 | grep "memcpy \|stream_copy \|stream_to\|stream_from\|register" > $R/copy_paths.txt
cd $B/xsb/bin
for b in ompgpu ompgpu9ac; do
  for s in small large; do
    for r in 1 2 3; do
      echo "== $b $s $r"; timeout 120 ./XSBench.$b -m event -s $s 2>&1 | grep -i "runtime\|lookups/s\|verif\|error"
    done
  done
done > $R/xsbench.txt 2>&1
for s in small large; do OMPGPU_PROFILE=/tmp/res6/xsb-trace-$s.json timeout 120 ./XSBench.ompgpu -m event -s $s 2>&1 | grep -i "runtime\|lookups/s\|transfer rates\|Simulation.c"; done > $R/xsbench-profile.txt 2>&1
cd - > /dev/null
tar czf $OUT/res6.tgz -C /tmp res6
{ cat $R/env.txt; grep -v "bytes 4096 \|bytes 16384 \|bytes 65536 " $R/transfer.txt; cat $R/copy_paths.txt $R/xsbench-profile.txt; grep "==\|Lookups/s" $R/xsbench.txt; } > $OUT/summary.txt
