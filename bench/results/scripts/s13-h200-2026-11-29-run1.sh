#!/bin/bash
# Session 13 run 1: bfs at HEAD against 9ac09bb's compiler on the same bfs.c (HEAD's, which times
# the whole loop of levels, updates included); HEAD fused (default), unfused
# (OMPGPU_PERSISTENT_LOOPS=0) and fused on other team counts (OMPGPU_LOOP_TEAMS), alternated three
# times on the bench's two cores. Then the transfer test (ompgpu, CUDA pageable and pinned) to 256 MB.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s13a.tar.xz)
B=.devbuild/s13a/bin; O=.devbuild/s13a/old/bin; T=.devbuild/s13a/tr
med() { BENCH_REPS=5 taskset -c 0,1 timeout 60 "$@" 2>/dev/null | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p; }
for v in spmd nested; do OMPGPU_INFO=1 BENCH_REPS=1 taskset -c 0,1 $B/bfs.ompgpu.$v > $R/info-$v.txt 2>&1; done
for i in 1 2 3; do for v in spmd nested; do
  echo "bfs $v old9ac $(med $O/bfs.ompgpu.$v) fused $(med $B/bfs.ompgpu.$v) unfused $(OMPGPU_PERSISTENT_LOOPS=0 med $B/bfs.ompgpu.$v) teams264 $(OMPGPU_LOOP_TEAMS=264 med $B/bfs.ompgpu.$v) teams1056 $(OMPGPU_LOOP_TEAMS=1056 med $B/bfs.ompgpu.$v) teams2112 $(OMPGPU_LOOP_TEAMS=2112 med $B/bfs.ompgpu.$v)" >> $R/alt.txt
done; done
for v in spmd nested; do
  BENCH_REPS=3 OMPGPU_PROFILE=1 taskset -c 0,1 $B/bfs.ompgpu.$v > $R/profile-fused-$v.txt 2>&1
  BENCH_REPS=3 OMPGPU_PROFILE=1 OMPGPU_PERSISTENT_LOOPS=0 taskset -c 0,1 $B/bfs.ompgpu.$v > $R/profile-unfused-$v.txt 2>&1
done
for i in 1 2; do $T/transfer.ompgpu 256 > $R/transfer-ompgpu-$i.txt 2>&1; done
$T/transfer.cuda pageable 256 > $R/transfer-cuda-pageable.txt 2>&1
$T/transfer.cuda pinned 256 > $R/transfer-cuda-pinned.txt 2>&1
