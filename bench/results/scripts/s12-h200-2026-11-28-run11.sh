#!/bin/bash
# Session 12 run 11: lud and bfs against 9ac09bb (run 10's binaries, .devbuild/s12w and
# s12w/start9ac), alternated three times on the bench's two cores; bfs with
# OMPGPU_PERSISTENT_LOOPS=0 beside; lud with OMPGPU_STAGING_MIN_BYTES=0 and OMPGPU_DEFERRED_COPIES=0.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s12w.tar.xz)
B=.devbuild/s12w/bin; O=.devbuild/s12w/start9ac/bin
med() { BENCH_REPS=5 taskset -c 0,1 timeout 60 "$@" 2>/dev/null | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p; }
for i in 1 2 3; do
  for v in nested spmd; do
    echo "lud $v new $(med $B/lud.ompgpu.$v) old $(med $O/lud.ompgpu.$v)" >> $R/alt.txt
    echo "bfs $v new $(med $B/bfs.ompgpu.$v) old $(med $O/bfs.ompgpu.$v) unfused $(OMPGPU_PERSISTENT_LOOPS=0 med $B/bfs.ompgpu.$v)" >> $R/alt.txt
  done
  echo "lud nested nostaging $(OMPGPU_STAGING_MIN_BYTES=0 med $B/lud.ompgpu.nested) nodeferred $(OMPGPU_DEFERRED_COPIES=0 med $B/lud.ompgpu.nested)" >> $R/alt.txt
done
