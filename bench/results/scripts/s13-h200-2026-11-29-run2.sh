#!/bin/bash
# Session 13 run 2: persistent loops. bfs with the grid barrier's word on a cache line of its own in
# the loop's frame (pad: HEAD + that change), and that with a 200 or 1000 ns sleep between looks at
# the barrier word (spin200, spin1000: OMPGPU_GRID_SPIN_NS); each on its default team count and on
# fewer teams (OMPGPU_LOOP_TEAMS). labelprop and jacobi (pad) on 528 / 396 / 264 / 132 teams.
# Alternated three times on the bench's two cores.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s13b.tar.xz)
B=.devbuild/s13b; L=.devbuild/s13b/lj/bin
med() { BENCH_REPS=5 taskset -c 0,1 timeout 60 "$@" 2>/dev/null | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p; }
for i in 1 2 3; do
  for v in spmd nested; do
    echo "bfs $v pad $(med $B/bfs.pad.$v) pad-t264 $(OMPGPU_LOOP_TEAMS=264 med $B/bfs.pad.$v) pad-t132 $(OMPGPU_LOOP_TEAMS=132 med $B/bfs.pad.$v) spin200 $(med $B/bfs.spin200.$v) spin1000 $(med $B/bfs.spin1000.$v) spin200-t264 $(OMPGPU_LOOP_TEAMS=264 med $B/bfs.spin200.$v) unfused $(OMPGPU_PERSISTENT_LOOPS=0 med $B/bfs.pad.$v)" >> $R/alt.txt
  done
  for k in labelprop.ompgpu.small labelprop.ompgpu.large jacobi.ompgpu.small jacobi.ompgpu.large; do
    echo "$k default $(med $L/$k) t396 $(OMPGPU_LOOP_TEAMS=396 med $L/$k) t264 $(OMPGPU_LOOP_TEAMS=264 med $L/$k) t132 $(OMPGPU_LOOP_TEAMS=132 med $L/$k)" >> $R/alt.txt
  done
done
for k in labelprop.ompgpu.small labelprop.ompgpu.large jacobi.ompgpu.small jacobi.ompgpu.large; do OMPGPU_INFO=1 BENCH_REPS=1 taskset -c 0,1 $L/$k 2>&1 | grep -i "teams x\|persistent" | sort | uniq -c > $R/info-$k.txt; done
