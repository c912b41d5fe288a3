#!/bin/bash
# Session 12 run 13: streamcluster and lavamd without spreading (new/, c81143a: their region loops
# are constants too short to share) against run 10's binaries (old/, 6a7c5db), alternated three
# times on the bench's two cores; CUDA beside.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
cd /tmp && tar xJf $OLDPWD/.devbuild/s12r13.tar.xz && cd /tmp/s12r13
med() { BENCH_REPS=7 taskset -c 0,1 timeout 60 "$@" 2>/dev/null | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 4p; }
for i in 1 2 3; do for k in streamcluster lavamd; do for v in nested spmd; do
  echo "$k $v new $(med new/bin/$k.ompgpu.$v) old $(med old/bin/$k.ompgpu.$v) cuda $(med old/bin/$k.cuda)" >> $R/alt.txt
done; done; done
for b in new/bin/*; do echo "$b $(BENCH_REPS=1 $b 2>&1 | tail -1)"; done > $R/check.txt
