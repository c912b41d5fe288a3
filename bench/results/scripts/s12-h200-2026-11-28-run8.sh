#!/bin/bash
# Session 12 run 8: nested kernels with SPMD serial code's needless barriers gone and the
# full-SM instance of kernels whose distribute loop forks the team (new/, c0ad3bc) against the
# session's start (old/, 6759674) and CUDA: streamcluster, btree, lud, gaussjordan, backprop;
# launch shapes (OMPGPU_INFO).
set -u
R=$OUT/r; mkdir -p $R
cd /tmp && tar xJf $OLDPWD/.devbuild/s12r8.tar.xz && cd /tmp/s12r8
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt
python3 new/run.py run new --reps=7 --budget=100 --csv=$R/new.csv --log=$R/new.log > $R/new-summary.txt 2>&1
python3 new/run.py run old --reps=7 --budget=80 --csv=$R/old.csv --log=$R/old.log > $R/old-summary.txt 2>&1
for b in new/bin/*.ompgpu.*; do
  echo "== $b $(BENCH_REPS=1 OMPGPU_INFO=1 $b 2>&1 | grep -E 'teams x' | grep -v warmup | sort | uniq -c | head -3)" >> $R/info.txt
done
