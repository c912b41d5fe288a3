#!/bin/bash
# Session 16 run 6: btree and bfs nested with the one-iteration path (run 1's exp binaries,
# f67f37c's code) beside CUDA's versions of the same bench sources, five rounds alternated
# (median kernel time of 5 reps each, PASS count).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s16r1.tar.xz && tar xJf s16r2.tar.xz)
run() {
  local out; out=$(BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 timeout 60 "$@" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  echo "$i btree ompgpu $(run .devbuild/s16r1/exp/bin/btree.ompgpu.nested) base $(run .devbuild/s16r1/base/bin/btree.ompgpu.nested) cuda $(run .devbuild/s16r2/cuda/bin/btree.cuda)" >> $R/alt.txt
  echo "$i bfs ompgpu $(run .devbuild/s16r1/exp/bin/bfs.ompgpu.nested) base $(run .devbuild/s16r1/base/bin/bfs.ompgpu.nested) cuda $(run .devbuild/s16r2/cudab/bin/bfs.cuda)" >> $R/alt.txt
done
cd $R && tar czf all.tgz *.txt && rm -f *.txt
