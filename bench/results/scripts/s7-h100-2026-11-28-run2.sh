#!/bin/bash
# Session 7 (2026-11-28), run 2: issue 48, transposing nests staged through shared memory. The
# transposes, matmul and stencils (ompgpu at $COMMIT, clang 19, CUDA; built on the CPU machine:
# .devbuild/s7b), PRK's transpose-target (ParRes/Kernels C1z, built outside the project with
# -DPRKVERSION=2020 by ompgpu -O3 and clang 19 -O3; 10 iterations, order 4096 and 8192, tiles of 32
# and untiled), memcheck and racecheck where the staging applies, then every run-and-check program
# built here in both modes and run.
set -u
R=/tmp/res2; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version; g++ --version | head -1; nvcc --version | tail -2 | head -1; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s7b.tar.xz)
SECONDS=0
build_programs() {
  python3 -m ompgpu cc --offload=cuda tests/programs/vec_add.c -o /tmp/warm > /dev/null 2>&1
  for mode in auto generic; do
    mkdir -p /tmp/q-$mode && cp tests/gpu/programs.py /tmp/q-$mode/
    ls tests/programs/*.c | taskset -c 2-15 xargs -P 13 -I{} sh -c 'b=$(basename {} .c); if python3 -m ompgpu cc --offload=cuda --mode='$mode' {} -o /tmp/q-'$mode'/$b > /tmp/q-'$mode'/$b.buildlog 2>&1; then cp tests/programs/$b.expected /tmp/q-'$mode'/; else echo "BUILD-FAIL $b"; tail -20 /tmp/q-'$mode'/$b.buildlog; fi' > $R/build-$mode.txt 2>&1
  done
}
build_programs & BUILD=$!
( . .peers/bin/peer-env.sh
  taskset -c 0,1 python3 .devbuild/s7b/run.py run .devbuild/s7b --reps=5 --budget=300 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1
  echo "bench done at $SECONDS s" >> $R/times.txt
  for c in ompgpu clang; do for args in "10 4096" "10 4096 4096" "10 8192" "10 8192 8192"; do
    echo "== transpose-target.$c $args" >> $R/prk.txt
    taskset -c 0,1 timeout 120 .devbuild/s7b/prk/transpose-target.$c $args >> $R/prk.txt 2>&1
  done; done
  BENCH_REPS=1 timeout 120 compute-sanitizer --tool memcheck .devbuild/s7b/bin/tiledtranspose.ompgpu.flat 100 > $R/memcheck-tiledtranspose.txt 2>&1
  BENCH_REPS=1 timeout 120 compute-sanitizer --tool racecheck .devbuild/s7b/bin/tiledtranspose.ompgpu.flat 100 > $R/racecheck-tiledtranspose.txt 2>&1
  echo "extras done at $SECONDS s" >> $R/times.txt )
wait $BUILD
for mode in auto generic; do
  { echo "== GPU, --mode=$mode"; python3 /tmp/q-$mode/programs.py run /tmp/q-$mode; } > $R/programs-$mode.txt 2>&1
done
for t in memcheck racecheck; do
  (cd /tmp/q-auto && OMP_TARGET_OFFLOAD=MANDATORY timeout 120 compute-sanitizer --tool $t ./transpose_tiles) > $R/$t-transpose_tiles.txt 2>&1
done
echo "all done at $SECONDS s" >> $R/times.txt
# two files come back (a run returns at most a few): every result packed, and the headlines
tar czf $OUT/res2.tgz -C /tmp res2
for f in times env bench-summary prk programs-auto programs-generic; do echo "=== $f"; tail -n 40 $R/$f.txt; done > $OUT/summary.txt 2>&1
