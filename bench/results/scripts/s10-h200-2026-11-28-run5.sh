#!/bin/bash
# Session 10 (2026-11-28), run 5: as run 4, at 46278a2 (the carry copies a cell over only where the
# iteration does not first write it whole). Run 4's text follows.
# Session 10 (2026-11-28), run 4: issue 50's level-synchronous benchmarks at a6321fd (persistent
# loops' teams: at most half an SM's threads, two of the longest region's iterations a thread) beside
# clang 19, CUDA as a host loop and CUDA as one cooperative kernel (.devbuild/s10e, built on the CPU
# machine); ompgpu at other team counts (OMPGPU_LOOP_TEAMS) and unfused; the run-and-check programs
# of run 1 in both modes, and compute-sanitizer on persistent_loops in both modes.
set -u
R=/tmp/res5; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache5
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version; g++ --version | head -1; nvcc --version | tail -2 | head -1; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s10e.tar.xz)
SECONDS=0
PROGS="persistent_loops bfs hotspot lud spmv tiled_loops transpose_tiles"
for mode in auto generic; do mkdir -p /tmp/p-$mode; for b in $PROGS; do
  python3 -m ompgpu cc --offload=cuda --mode=$mode tests/programs/$b.c -o /tmp/p-$mode/$b -lm > /tmp/p-$mode/$b.log 2>&1 &
done; done; wait
for mode in auto generic; do for b in $PROGS; do
  if OMP_TARGET_OFFLOAD=MANDATORY timeout 60 /tmp/p-$mode/$b 2>&1 | diff -q - tests/programs/$b.expected > /dev/null; then
    echo "PASS $mode $b" >> $R/programs.txt; else echo "FAIL $mode $b" >> $R/programs.txt; fi
done; done
for mode in auto generic; do for tool in memcheck racecheck synccheck; do
  echo "== $mode $tool" >> $R/sanitizer.txt
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/p-$mode/persistent_loops > /tmp/san.txt 2>&1; echo "rc $?" >> $R/sanitizer.txt
  grep "SUMMARY" /tmp/san.txt >> $R/sanitizer.txt
done; done
( . .peers/bin/peer-env.sh
  python3 .devbuild/s10e/run.py run .devbuild/s10e --reps=7 --budget=200 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
med() { grep kernel_ms | awk '{print $6}' | sort -n | sed -n 4p; }
for b in .devbuild/s10e/bin/*.ompgpu.*; do
  n=$(basename $b)
  echo "$n default $(BENCH_REPS=7 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 $b | med) unfused $(OMPGPU_PERSISTENT_LOOPS=0 BENCH_REPS=7 timeout 60 $b | med)" >> $R/variants.txt
  for t in 66 132 264; do echo "$n teams<=$t $(OMPGPU_LOOP_TEAMS=$t BENCH_REPS=7 timeout 60 $b | med)" >> $R/teams.txt; done
  BENCH_REPS=1 OMPGPU_INFO=1 timeout 60 $b 2>&1 | grep "cooperative" | head -1 >> $R/info.txt
done
echo "all done at $SECONDS s" >> $R/times.txt
tar czf $OUT/res5.tgz -C /tmp res5
for f in times env programs sanitizer info bench-summary variants teams; do echo "=== $f"; cat $R/$f.txt 2>/dev/null | tail -n 80; done > $OUT/summary.txt 2>&1
