#!/bin/bash
# Session 15 run 1: skip conditions tested a team's width at a time (92964fd, "new") against the
# session's start (ce0272a, "old"), bfs's nested and SPMD kernels alternated five times (median of
# 5 reps each), CUDA and clang 19 each round; tests/programs/skip_guards.c and packed_teams.c in
# both modes on the GPU against their expected output; racecheck and memcheck on skip_guards
# (auto) and on bfs nested.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s15r1.tar.xz)
B=.devbuild/s15r1
. .peers/bin/peer-env.sh >/dev/null 2>&1
run() {  # run BIN: "median-kernel-ms status"
  local out; out=$(BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 timeout 60 "$1" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  for v in nested spmd; do
    echo "$i bfs $v old $(run $B/old/bin/bfs.ompgpu.$v) new $(run $B/new/bin/bfs.ompgpu.$v) clang $(run $B/new/bin/bfs.clang.$v)" >> $R/alt.txt
  done
  echo "$i bfs cuda $(run $B/new/bin/bfs.cuda)" >> $R/alt.txt
done
for p in skip_guards packed_teams; do
  for m in auto generic; do
    OMP_TARGET_OFFLOAD=MANDATORY timeout 60 $B/progs/$p-$m > $R/$p-$m.out 2>&1
    echo "$p $m rc=$? $(diff -q $R/$p-$m.out $B/progs/$p.expected >/dev/null && echo SAME || echo DIFFERENT)" >> $R/progs.txt
  done
done
SAN=compute-sanitizer; command -v $SAN >/dev/null || SAN=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do
  OMP_TARGET_OFFLOAD=MANDATORY timeout 200 $SAN --tool $tool $B/progs/skip_guards-auto > $R/san-$tool-skip_guards.txt 2>&1
  BENCH_REPS=1 OMP_TARGET_OFFLOAD=MANDATORY timeout 200 $SAN --tool $tool $B/new/bin/bfs.ompgpu.nested > $R/san-$tool-bfs.txt 2>&1
done
tail -n 3 $R/san-*.txt > $R/san-summary.txt
cd $R && tar czf all.tgz *.txt && rm -f alt.txt progs.txt san-*.txt env.txt
