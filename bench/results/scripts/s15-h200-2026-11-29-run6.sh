#!/bin/bash
# Session 15 run 6, after the review that gave packed teams a first-taker call like block teams'
# (packed_team_first_taker): skip_guards.c in both modes against its expected output, and bfs's
# nested kernel (-O3), three times (median of 5 reps each).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s15r6.tar.xz)
B=.devbuild/s15r6
for m in auto generic; do
  OMP_TARGET_OFFLOAD=MANDATORY timeout 60 $B/skip_guards-$m > $R/skip_guards-$m.out 2>&1
  echo "skip_guards $m rc=$? $(diff -q $R/skip_guards-$m.out $B/skip_guards.expected >/dev/null && echo SAME || echo DIFFERENT)" >> $R/progs.txt
done
for i in 1 2 3; do
  out=$(BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 timeout 60 $B/bfs.nested 2>&1)
  echo "$i bfs nested $(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p) $(echo "$out" | grep -c -x PASS)" >> $R/bfs.txt
done
cd $R && tar czf all.tgz *.txt *.out && rm -f *.txt *.out
