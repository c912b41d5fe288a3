#!/bin/bash
# Session 7 (2026-11-28), run 1: issue 48 on the GPU. The benchmarks (every kernel, ompgpu at
# $COMMIT, clang 19, gcc 12 and CUDA from the same sources, built on the CPU machine: .devbuild/s7);
# the constant-order matrix product of the issue (bench/results/scripts/s7-matmul-fixed.c, ompgpu and
# clang 19); memcheck and racecheck where the dot product is staged through shared memory; a program
# linked with separately compiled device code (gold links it where installed); then every
# run-and-check program built here in both modes and run.
set -u
R=/tmp/res; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version; g++ --version | head -1; nvcc --version | tail -2 | head -1; ld.gold --version | head -1; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s7.tar.xz)
finish() { cp $R/*.txt $R/*.csv $OUT/ 2>/dev/null; tar czf $OUT/res.tgz -C /tmp res; }
trap finish EXIT
SECONDS=0
build_programs() {
  python3 -m ompgpu cc --offload=cuda tests/programs/vec_add.c -o /tmp/warm > /dev/null 2>&1   # the runtime library, once
  for mode in auto generic; do
    mkdir -p /tmp/p-$mode && cp tests/gpu/programs.py /tmp/p-$mode/
    ls tests/programs/*.c | taskset -c 2-15 xargs -P 13 -I{} sh -c 'b=$(basename {} .c); if python3 -m ompgpu cc --offload=cuda --mode='$mode' {} -o /tmp/p-'$mode'/$b > /tmp/p-'$mode'/$b.buildlog 2>&1; then cp tests/programs/$b.expected /tmp/p-'$mode'/; else echo "BUILD-FAIL $b"; tail -20 /tmp/p-'$mode'/$b.buildlog; fi' > $R/build-$mode.txt 2>&1
  done
  echo "programs built at $SECONDS s" >> $R/times.txt
}
build_programs & BUILD=$!
( . .peers/bin/peer-env.sh
  taskset -c 0,1 python3 .devbuild/s7/run.py run .devbuild/s7 --reps=5 --budget=90 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1
  echo "bench done at $SECONDS s" >> $R/times.txt
  for c in ompgpu clang; do for run in 1 2; do taskset -c 0,1 timeout 120 .devbuild/s7/fixed/matmul-fixed.$c >> $R/matmul-fixed.txt 2>&1 || echo "matmul-fixed.$c rc=$?" >> $R/matmul-fixed.txt; done; done
  BENCH_REPS=1 timeout 120 compute-sanitizer --tool memcheck .devbuild/s7/bin/matmul.ompgpu.naive 100 > $R/memcheck-matmul.txt 2>&1
  BENCH_REPS=1 timeout 120 compute-sanitizer --tool racecheck .devbuild/s7/bin/matmul.ompgpu.naive 100 > $R/racecheck-matmul.txt 2>&1
  echo "extras done at $SECONDS s" >> $R/times.txt )
wait $BUILD
for mode in auto generic; do
  { echo "== GPU, --mode=$mode"; python3 /tmp/p-$mode/programs.py run /tmp/p-$mode; } > $R/programs-$mode.txt 2>&1
done
for t in memcheck racecheck; do
  (cd /tmp/p-auto && OMP_TARGET_OFFLOAD=MANDATORY timeout 120 compute-sanitizer --tool $t ./dot_product_tiles) > $R/$t-dot_product_tiles.txt 2>&1
done
# separately compiled device code, linked (gold where installed)
mkdir -p /tmp/sep && cd /tmp/sep && {
  python3 -m ompgpu cc -v -c $OLDPWD/tests/separate/vecmath.c -o vecmath.o && ar rcs libvecmath.a vecmath.o &&
  python3 -m ompgpu cc -v $OLDPWD/tests/separate/main.c -L. -lvecmath -o prog && ./prog; echo "rc=$?"; } > $R/separate.txt 2>&1
echo "all done at $SECONDS s" >> $R/times.txt
