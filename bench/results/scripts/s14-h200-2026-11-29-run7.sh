#!/bin/bash
# Session 14 run 7 (the reuse barrier moved into the runtime): the all-reduce's programs on the GPU ($COMMIT's compiler): serial_local_reductions.c
# and warp_teams.c in both modes against their expected output; then compute-sanitizer memcheck and
# racecheck (shared memory: the all-reduce's slots) on them and on btree and streamcluster's nested
# kernels at a small size.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; uname -r; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s14r5.tar.xz)
G=.devbuild/gp
export OMP_TARGET_OFFLOAD=MANDATORY
for p in serial_local_reductions warp_teams; do
  for m in auto generic; do
    if $G/$p.$m | diff -q - $G/$p.expected > /dev/null; then echo "$p $m: PASS (output as expected)"; else echo "$p $m: FAIL"; fi >> $R/programs.txt
  done
done
for tool in memcheck racecheck; do
  for p in serial_local_reductions.auto warp_teams.auto; do
    timeout 240 compute-sanitizer --tool $tool $G/$p > $R/$tool-$p.txt 2>&1
    echo "$tool $p: rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' $R/$tool-$p.txt | tail -1)" >> $R/sanitizer.txt
  done
  BENCH_REPS=1 timeout 240 compute-sanitizer --tool $tool $G/btree.nested 20000 2000 > $R/$tool-btree.txt 2>&1
  echo "$tool btree: rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool-btree.txt | tail -1) $(grep -c -x PASS $R/$tool-btree.txt)" >> $R/sanitizer.txt
  BENCH_REPS=1 timeout 240 compute-sanitizer --tool $tool $G/streamcluster.nested 4096 2 > $R/$tool-streamcluster.txt 2>&1
  echo "$tool streamcluster: rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool-streamcluster.txt | tail -1) $(grep -c -x PASS $R/$tool-streamcluster.txt)" >> $R/sanitizer.txt
done
BENCH_REPS=1 timeout 240 compute-sanitizer --tool racecheck $G/heartwall.nested 1 > $R/racecheck-heartwall.txt 2>&1
echo "racecheck heartwall: rc $? $(grep -E 'RACECHECK SUMMARY' $R/racecheck-heartwall.txt | tail -1) $(grep -c -x PASS $R/racecheck-heartwall.txt)" >> $R/sanitizer.txt
(cd $R && tar czf ../all.tgz . ) && rm -rf $R && mkdir -p $R && mv $OUT/all.tgz $R/
