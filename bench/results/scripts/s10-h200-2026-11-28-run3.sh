#!/bin/bash
# Session 10 (2026-11-28), run 3: issue 50's level-synchronous benchmarks at a6451ea (persistent
# loops with no more teams than the regions' grid loops fill; grid barrier spinning without sleep)
# beside clang 19, CUDA as a host loop and CUDA as one cooperative kernel (.devbuild/s10c, built on
# the CPU machine); the same ompgpu sources built with the barrier sleeping 32 ns between looks
# (s10c/sleep); ompgpu at other team counts (OMPGPU_LOOP_TEAMS) and unfused; the run-and-check
# programs of run 1 again in both modes.
set -u
R=/tmp/res3; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache3
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version; g++ --version | head -1; nvcc --version | tail -2 | head -1; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s10c.tar.xz)
SECONDS=0
PROGS="persistent_loops bfs hotspot lud spmv tiled_loops transpose_tiles"
for mode in auto generic; do mkdir -p /tmp/p-$mode; for b in $PROGS; do
  python3 -m ompgpu cc --offload=cuda --mode=$mode tests/programs/$b.c -o /tmp/p-$mode/$b -lm > /tmp/p-$mode/$b.log 2>&1 &
done; done; wait
for mode in auto generic; do for b in $PROGS; do
  if OMP_TARGET_OFFLOAD=MANDATORY timeout 60 /tmp/p-$mode/$b 2>&1 | diff -q - tests/programs/$b.expected > /dev/null; then
    echo "PASS $mode $b" >> $R/programs.txt; else echo "FAIL $mode $b" >> $R/programs.txt; fi
done; done
( . .peers/bin/peer-env.sh
  python3 .devbuild/s10c/run.py run .devbuild/s10c --reps=7 --budget=200 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
med() { grep kernel_ms | awk '{print $6}' | sort -n | sed -n 4p; }
for b in .devbuild/s10c/bin/*.ompgpu.*; do
  n=$(basename $b)
  echo "$n sized $(BENCH_REPS=7 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 $b | med) sleep32 $(BENCH_REPS=7 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 .devbuild/s10c/sleep/$n | med) unfused $(OMPGPU_PERSISTENT_LOOPS=0 BENCH_REPS=7 timeout 60 $b | med)" >> $R/variants.txt
  for t in 66 132 264 528 2000; do echo "$n teams<=$t $(OMPGPU_LOOP_TEAMS=$t BENCH_REPS=7 timeout 60 $b | med)" >> $R/teams.txt; done
  BENCH_REPS=1 OMPGPU_INFO=1 timeout 60 $b 2>&1 | grep "cooperative" | head -1 >> $R/info.txt
done
echo "all done at $SECONDS s" >> $R/times.txt
tar czf $OUT/res3.tgz -C /tmp res3
for f in times env programs info bench-summary variants teams; do echo "=== $f"; cat $R/$f.txt 2>/dev/null | tail -n 80; done > $OUT/summary.txt 2>&1
