#!/bin/bash
# Session 9 (2026-11-28), run 3: issue 48's irregular-rows regression measured (bench/rowmix, four
# mixes: ompgpu at $COMMIT, ompgpu at 5427e40 (before issue 34's irregular teams; the same source),
# clang 19, CUDA; built on the CPU machine: .devbuild/s9r), the stencils of run 2's ompgpu binaries
# under OMPGPU_GRID_WAVES 0 (none), 1, 2, 4 (the default), 8 and 16; the new run-and-check
# programs in both modes (run 2's script compared them in the wrong folder).
set -u
R=/tmp/res3; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache3
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version; g++ --version | head -1; nvcc --version | tail -2 | head -1; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s9r.tar.xz)
SECONDS=0
build_here() {
  python3 -m ompgpu cc --offload=cuda tests/programs/vec_add.c -o /tmp/warm > /dev/null 2>&1
  for mode in auto generic; do
    mkdir -p /tmp/p-$mode
    for b in tile_walks usm_managed_heap construct_variants transpose_tiles; do
      python3 -m ompgpu cc --offload=cuda --mode=$mode tests/programs/$b.c -o /tmp/p-$mode/$b > /tmp/p-$mode/$b.log 2>&1 || echo "BUILD-FAIL $mode $b" >> $R/programs.txt
    done
  done
}
build_here & BUILD=$!
( . .peers/bin/peer-env.sh
  taskset -c 0,1 python3 .devbuild/s9r/run.py run .devbuild/s9r --reps=7 --budget=100 --csv=$R/rowmix.csv --log=$R/rowmix.log > $R/rowmix-summary.txt 2>&1 )
for v in every512 every64 every4096 uniform; do
  echo "== old (5427e40) rowmix.ompgpu.$v" >> $R/rowmix-old.txt
  BENCH_REPS=7 taskset -c 0,1 timeout 60 .devbuild/s9r/old/rowmix.ompgpu.$v >> $R/rowmix-old.txt 2>&1
  echo "== shapes $v" >> $R/shapes.txt
  for b in old/rowmix.ompgpu.$v bin/rowmix.ompgpu.$v; do
    BENCH_REPS=1 OMPGPU_INFO=1 timeout 60 .devbuild/s9r/$b 2>&1 | grep "kernel __omp_offloading_main" | head -1 >> $R/shapes.txt
  done
done
for w in 0 1 2 4 8 16; do for r in 1 4; do
  echo "== waves $w stencil r$r $(OMPGPU_GRID_WAVES=$w BENCH_REPS=5 taskset -c 0,1 timeout 60 .devbuild/s9r/stencil/stencil.ompgpu.r$r | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p)" >> $R/waves.txt
done; done
wait $BUILD
for mode in auto generic; do for b in tile_walks usm_managed_heap construct_variants transpose_tiles; do
  if OMP_TARGET_OFFLOAD=MANDATORY /tmp/p-$mode/$b | diff -q - tests/programs/$b.expected > /dev/null; then
    echo "PASS $mode $b" >> $R/programs.txt; else echo "FAIL $mode $b" >> $R/programs.txt; fi
done; done
echo "all done at $SECONDS s" >> $R/times.txt
tar czf $OUT/res3.tgz -C /tmp res3
for f in times env rowmix-summary rowmix-old shapes waves programs; do echo "=== $f"; cat $R/$f.txt | grep -v "^stencil\|^rowmix:" | tail -n 60; done > $OUT/summary.txt 2>&1
