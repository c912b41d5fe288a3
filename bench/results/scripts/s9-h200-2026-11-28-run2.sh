#!/bin/bash
# Session 9 (2026-11-28), run 2: issue 48's tile walks run as flat nests, issue 46's unified shared
# memory. Every bench kernel (ompgpu at $COMMIT, clang 19, CUDA; built on the CPU machine:
# .devbuild/s9), PRK's transpose-target (ParRes/Kernels C1z, built outside the project with
# -DPRKVERSION=2020 by ompgpu -O3 and clang 19 -O3; 10 iterations, orders 4096 and 8192, tiles of 32
# and untiled); SOLLVE's unified-shared-memory tests (5.0/requires, built here by ompgpu); the new
# run-and-check programs in both modes, memcheck and racecheck of tile_walks.
set -u
R=/tmp/res2; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache2
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version; g++ --version | head -1; nvcc --version | tail -2 | head -1; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s9.tar.xz)
SECONDS=0
build_here() {
  python3 -m ompgpu cc --offload=cuda tests/programs/vec_add.c -o /tmp/warm > /dev/null 2>&1
  mkdir -p /tmp/usm
  ls .sollve/tests/5.0/requires/test_requires_unified_shared_memory*.c | taskset -c 2-15 xargs -P 12 -I{} sh -c 'b=$(basename {} .c); python3 -m ompgpu cc -I.sollve/ompvv {} .sollve/ompvv/libompvv.c -o /tmp/usm/$b > /tmp/usm/$b.log 2>&1 || echo "BUILD-FAIL $b"' > $R/usm-build.txt 2>&1
  for mode in auto generic; do
    mkdir -p /tmp/p-$mode
    for b in tile_walks usm_managed_heap construct_variants transpose_tiles; do
      python3 -m ompgpu cc --offload=cuda --mode=$mode tests/programs/$b.c -o /tmp/p-$mode/$b > /tmp/p-$mode/$b.log 2>&1 || echo "BUILD-FAIL $mode $b" >> $R/usm-build.txt
    done
  done
  echo "built at $SECONDS s" >> $R/times.txt
}
build_here & BUILD=$!
( . .peers/bin/peer-env.sh
  taskset -c 0,1 python3 .devbuild/s9/run.py run .devbuild/s9 --reps=5 --budget=200 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1
  for c in ompgpu clang; do for args in "10 4096" "10 4096 -1" "10 8192" "10 8192 -1"; do
    echo "== transpose-target.$c $args" >> $R/prk.txt
    taskset -c 0,1 timeout 120 .devbuild/s9/prk/transpose-target.$c $args >> $R/prk.txt 2>&1
  done; done
  echo "bench done at $SECONDS s" >> $R/times.txt )
wait $BUILD
for t in /tmp/usm/test_*; do case $t in *.log) continue;; esac
  echo "$(basename $t): $(OMP_TARGET_OFFLOAD=MANDATORY timeout 60 $t 2>&1 | tail -1)" >> $R/usm-run.txt
done
for mode in auto generic; do for b in tile_walks usm_managed_heap construct_variants transpose_tiles; do
  if (cd /tmp/p-$mode && OMP_TARGET_OFFLOAD=MANDATORY ./$b | diff -q - $PWD/tests/programs/$b.expected > /dev/null); then
    echo "PASS $mode $b" >> $R/programs.txt; else echo "FAIL $mode $b" >> $R/programs.txt; fi
done; done
for tool in memcheck racecheck; do
  echo "== $tool tile_walks" >> $R/sanitizers.txt
  (cd /tmp/p-auto && OMP_TARGET_OFFLOAD=MANDATORY timeout 120 compute-sanitizer --tool $tool ./tile_walks) 2>&1 | tail -2 >> $R/sanitizers.txt
done
echo "all done at $SECONDS s" >> $R/times.txt
tar czf $OUT/res2.tgz -C /tmp res2
for f in times env bench-summary prk usm-build usm-run programs sanitizers; do echo "=== $f"; tail -n 60 $R/$f.txt; done > $OUT/summary.txt 2>&1
