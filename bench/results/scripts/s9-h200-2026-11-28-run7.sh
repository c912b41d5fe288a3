#!/bin/bash
# Session 9 (2026-11-28), run 7: stencils whose teams take 8 x 32 tiles of iterations
# (worksharing.py TEAM_TILE). The stencils, transposes and matmul (ompgpu at $COMMIT, CUDA; built on
# the CPU machine: .devbuild/s9v) with run 2's stencil binaries (before/, b91131a) beside them, two
# rounds; tests/programs/stencil_tiles.c built here in both modes, run, memcheck.
set -u
R=/tmp/res7; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache7
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s9v.tar.xz)
SECONDS=0
( for mode in auto generic; do
    python3 -m ompgpu cc --offload=cuda --mode=$mode tests/programs/stencil_tiles.c -o /tmp/stencil_tiles_$mode > $R/build-$mode.txt 2>&1
  done ) & BUILD=$!
for round in 1 2; do
  taskset -c 0,1 python3 .devbuild/s9v/run.py run .devbuild/s9v --reps=5 --budget=120 --csv=$R/bench-$round.csv --log=$R/bench-$round.log > $R/bench-summary-$round.txt 2>&1
  for r in 1 2 3 4; do
    echo "before stencil r$r $(BENCH_REPS=5 taskset -c 0,1 timeout 60 .devbuild/s9v/before/stencil.ompgpu.r$r | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p)" >> $R/before-$round.txt
  done
done
wait $BUILD
for mode in auto generic; do
  if OMP_TARGET_OFFLOAD=MANDATORY /tmp/stencil_tiles_$mode | diff -q - tests/programs/stencil_tiles.expected > /dev/null; then
    echo "PASS $mode stencil_tiles" >> $R/programs.txt; else echo "FAIL $mode stencil_tiles" >> $R/programs.txt; fi
done
OMP_TARGET_OFFLOAD=MANDATORY timeout 120 compute-sanitizer --tool memcheck /tmp/stencil_tiles_auto 2>&1 | tail -2 >> $R/programs.txt
echo "all done at $SECONDS s" >> $R/times.txt
tar czf $OUT/res7.tgz -C /tmp res7
for f in times env bench-summary-1 before-1 bench-summary-2 before-2 programs; do echo "=== $f"; cat $R/$f.txt; done > $OUT/summary.txt 2>&1
