#!/bin/bash
# Session 9 (2026-11-28), run 6: teams linger for jobs (spread.cuh SPREAD_LINGER_NS), after run 5 (the rotated job scan; 
# SPREAD_FIRST_CHUNKS). The kernels that spread inner loops (rowmix's four mixes, sparserows,
# particlefilter, haccmk, backprop, streamcluster, bfs: ompgpu at $COMMIT, CUDA; built on
# the CPU machine: .devbuild/s9u) and ompgpu's binaries before the change beside them
# (.devbuild/s9u/before: run 2's and run 3's).
set -u
R=/tmp/res6; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s9u.tar.xz)
SECONDS=0
( . .peers/bin/peer-env.sh
  taskset -c 0,1 python3 .devbuild/s9u/run.py run .devbuild/s9u --reps=7 --budget=200 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
for b in .devbuild/s9u/before/*; do
  k=$(basename $b | cut -d. -f1)
  args=$(python3 -c "import json,sys; m=json.load(open('.devbuild/s9u/manifest.json')); print(' '.join(next((x.get('args') or []) for x in m.get('builds', m) if isinstance(x, dict) and x.get('kernel')=='$k') if isinstance(m, (dict, list)) else ''))" 2>/dev/null)
  echo "$(basename $b) $(BENCH_REPS=7 taskset -c 0,1 timeout 60 $b $args | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 4p)" >> $R/before.txt
done
echo "all done at $SECONDS s" >> $R/times.txt
tar czf $OUT/res6.tgz -C /tmp res6
for f in times env bench-summary before; do echo "=== $f"; cat $R/$f.txt; done > $OUT/summary.txt 2>&1
