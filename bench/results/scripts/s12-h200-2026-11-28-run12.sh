#!/bin/bash
# Session 12 run 12: bfs against 9ac09bb (run 10's binaries), fused and not
# (OMPGPU_PERSISTENT_LOOPS=0), and without deferred small copies (OMPGPU_DEFERRED_COPIES=0),
# alternated three times on the bench's two cores; a profile of each.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s12w.tar.xz)
B=.devbuild/s12w/bin; O=.devbuild/s12w/start9ac/bin
med() { BENCH_REPS=5 taskset -c 0,1 timeout 60 "$@" 2>/dev/null | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p; }
for i in 1 2 3; do for v in spmd nested; do
  echo "bfs $v old $(med $O/bfs.ompgpu.$v) unfused $(OMPGPU_PERSISTENT_LOOPS=0 med $B/bfs.ompgpu.$v) unfused-nodeferred $(OMPGPU_PERSISTENT_LOOPS=0 OMPGPU_DEFERRED_COPIES=0 med $B/bfs.ompgpu.$v) nodeferred $(OMPGPU_DEFERRED_COPIES=0 med $B/bfs.ompgpu.$v)" >> $R/alt.txt
done; done
for v in spmd nested; do
  BENCH_REPS=3 OMPGPU_PROFILE=1 taskset -c 0,1 $O/bfs.ompgpu.$v > $R/profile-old-$v.txt 2>&1
  BENCH_REPS=3 OMPGPU_PROFILE=1 OMPGPU_PERSISTENT_LOOPS=0 taskset -c 0,1 $B/bfs.ompgpu.$v > $R/profile-unfused-$v.txt 2>&1
done
