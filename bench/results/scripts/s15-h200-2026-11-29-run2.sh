#!/bin/bash
# Session 15 run 2: skip conditions tested ahead by block teams too (5bf5209): bfs's nested kernel
# with teams of 128 and 256 threads (results/scripts/s15-bfs-block-teams.c, -O3) built at ce0272a
# ("old") and 5bf5209 ("new"), alternated five times (median of 5 reps each); skip_guards.c and
# packed_teams.c in both modes against their expected output; memcheck and racecheck on
# skip_guards (auto: packed and block teams) and on the 128-thread bfs.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s15r2.tar.xz)
B=.devbuild/s15r2/progs
run() {  # run BIN: "median-kernel-ms status"
  local out; out=$(BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 timeout 60 "$1" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  for t in 128 256; do
    echo "$i bfs team$t old $(run $B/bfs$t-old) new $(run $B/bfs$t-new)" >> $R/alt.txt
  done
done
for p in skip_guards packed_teams; do
  for m in auto generic; do
    OMP_TARGET_OFFLOAD=MANDATORY timeout 60 $B/$p-$m > $R/$p-$m.out 2>&1
    echo "$p $m rc=$? $(diff -q $R/$p-$m.out $B/$p.expected >/dev/null && echo SAME || echo DIFFERENT)" >> $R/progs.txt
  done
done
SAN=compute-sanitizer; command -v $SAN >/dev/null || SAN=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do
  OMP_TARGET_OFFLOAD=MANDATORY timeout 200 $SAN --tool $tool $B/skip_guards-auto > $R/san-$tool-skip_guards.txt 2>&1
  BENCH_REPS=1 OMP_TARGET_OFFLOAD=MANDATORY timeout 200 $SAN --tool $tool $B/bfs128-new > $R/san-$tool-bfs128.txt 2>&1
done
tail -n 3 $R/san-*.txt > $R/san-summary.txt
cd $R && tar czf all.tgz *.txt *.out && rm -f *.txt *.out
