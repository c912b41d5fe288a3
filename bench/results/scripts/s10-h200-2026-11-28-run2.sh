#!/bin/bash
# Session 10 (2026-11-28), run 2: as run 1, after the scalars' cells (two grid barriers an iteration),
# the one-atomic grid barrier and min/max CAS loops that store nothing when the value stays; also
# ompgpu's loops at fewer teams (OMPGPU_LOOP_TEAMS: 132, 264, 528). Run 1's text follows.
# Session 10 (2026-11-28), run 1: issue 50's persistent loops on the GPU. The run-and-check programs
# whose host loops now run as one persistent kernel (persistent_loops and the ones that changed:
# bfs, hotspot, lud, spmv, tiled_loops, transpose_tiles) built here by ompgpu in both modes and run,
# each also with OMPGPU_PERSISTENT_LOOPS=0; compute-sanitizer memcheck, racecheck and synccheck on
# persistent_loops (both modes); the level-synchronous benchmarks (labelprop, jacobi: two sizes; bfs)
# built on the CPU machine (.devbuild/s10b: ompgpu, clang 19, CUDA host loop, CUDA cooperative), run
# side by side, ompgpu's also unfused (OMPGPU_PERSISTENT_LOOPS=0).
set -u
R=/tmp/res2; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache2
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version; g++ --version | head -1; nvcc --version | tail -2 | head -1; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s10b.tar.xz)
SECONDS=0
PROGS="persistent_loops bfs hotspot lud spmv tiled_loops transpose_tiles vec_add"
build_one() { python3 -m ompgpu cc --offload=cuda --mode=$1 -Rpass=ompgpu tests/programs/$2.c -o /tmp/p-$1/$2 -lm > /tmp/p-$1/$2.log 2>&1 || echo "BUILD-FAIL $1 $2" >> $R/programs.txt; }
for mode in auto generic; do mkdir -p /tmp/p-$mode; done
python3 -m ompgpu cc --offload=cuda tests/programs/vec_add.c -o /tmp/warm > /dev/null 2>&1
for mode in auto generic; do for b in $PROGS; do build_one $mode $b & done; done
wait
echo "built at $SECONDS s" >> $R/times.txt
for mode in auto generic; do for b in $PROGS; do
  for fused in 1 0; do
    if OMPGPU_PERSISTENT_LOOPS=$fused OMP_TARGET_OFFLOAD=MANDATORY timeout 60 /tmp/p-$mode/$b > /tmp/out.txt 2> /tmp/err.txt && diff -q /tmp/out.txt tests/programs/$b.expected > /dev/null; then
      echo "PASS $mode $b fused=$fused" >> $R/programs.txt
    else echo "FAIL $mode $b fused=$fused"; cat /tmp/out.txt /tmp/err.txt | tail -5; fi >> $R/programs.txt 2>&1
  done
  OMPGPU_INFO=1 timeout 60 /tmp/p-$mode/$b 2>&1 | grep -i "cooperative\|persistent" | sed "s/^/$mode $b: /" >> $R/info.txt
done; done
echo "ran at $SECONDS s" >> $R/times.txt
for mode in auto generic; do for tool in memcheck racecheck synccheck; do
  echo "== $mode $tool" >> $R/sanitizer.txt
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/p-$mode/persistent_loops > /tmp/san.txt 2>&1; echo "rc $?" >> $R/sanitizer.txt
  grep -v "^jacobi\|^labels\|^local\|^step\|^PASS" /tmp/san.txt | tail -8 >> $R/sanitizer.txt
done; done
echo "sanitized at $SECONDS s" >> $R/times.txt
( . .peers/bin/peer-env.sh
  python3 .devbuild/s10b/run.py run .devbuild/s10b --reps=5 --budget=150 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
for b in .devbuild/s10b/bin/*.ompgpu.*; do
  echo "== unfused $(basename $b)" >> $R/unfused.txt
  OMPGPU_PERSISTENT_LOOPS=0 BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 $b >> $R/unfused.txt 2>&1
  BENCH_REPS=1 OMPGPU_INFO=1 timeout 60 $b 2>&1 | grep "cooperative\|persistent" | head -2 >> $R/info.txt
done
for t in 132 264 528; do for b in .devbuild/s10b/bin/labelprop.ompgpu.* .devbuild/s10b/bin/jacobi.ompgpu.*; do
  echo "== teams $t $(basename $b) $(OMPGPU_LOOP_TEAMS=$t BENCH_REPS=5 timeout 60 $b | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p)" >> $R/teams.txt
done; done
echo "all done at $SECONDS s" >> $R/times.txt
tar czf $OUT/res2.tgz -C /tmp res2
for f in times env programs sanitizer bench-summary unfused teams; do echo "=== $f"; cat $R/$f.txt 2>/dev/null | tail -n 80; done > $OUT/summary.txt 2>&1
