#!/bin/bash
# Session 7 (2026-11-28), run 3: issue 48's stencil tiles and static-1 staging, issue 46's
# conformance fixes. The stencils, transposes and matmul (ompgpu at $COMMIT, clang 19, CUDA; built on
# the CPU machine: .devbuild/s7c), the stencils of ompgpu at b12fda1 (before the tiles of rows:
# s7c/old) beside them, PRK's transpose-target (ompgpu at $COMMIT, clang 19); the OpenMP validation
# suite (SOLLVE/sollve_vv d978684 in .sollve, outside the project) built here by ompgpu and run
# (bench/sollve.py, its env tests with their variable set); every run-and-check program built
# here in both modes and run.
set -u
R=/tmp/res3; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version; g++ --version | head -1; nvcc --version | tail -2 | head -1; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s7c.tar.xz)
SECONDS=0
python3 -m ompgpu cc --offload=cuda tests/programs/vec_add.c -o /tmp/warm > /dev/null 2>&1
build_all() {
  python3 bench/sollve.py build .sollve /tmp/sollve --jobs 13 > $R/sollve-build.txt 2>&1
  echo "sollve built at $SECONDS s" >> $R/times.txt
  for mode in auto generic; do
    mkdir -p /tmp/r-$mode && cp tests/gpu/programs.py /tmp/r-$mode/
    ls tests/programs/*.c | taskset -c 2-15 xargs -P 13 -I{} sh -c 'b=$(basename {} .c); if python3 -m ompgpu cc --offload=cuda --mode='$mode' {} -o /tmp/r-'$mode'/$b > /tmp/r-'$mode'/$b.buildlog 2>&1; then cp tests/programs/$b.expected /tmp/r-'$mode'/; else echo "BUILD-FAIL $b"; tail -20 /tmp/r-'$mode'/$b.buildlog; fi' > $R/build-$mode.txt 2>&1
  done
  echo "programs built at $SECONDS s" >> $R/times.txt
}
build_all & BUILD=$!
( . .peers/bin/peer-env.sh
  taskset -c 0,1 python3 .devbuild/s7c/run.py run .devbuild/s7c --reps=5 --budget=300 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1
  for r in 1 2 3 4; do for b in old/stencil.ompgpu.r$r bin/stencil.ompgpu.r$r; do
    echo "== $b" >> $R/stencil-old-new.txt
    BENCH_REPS=5 taskset -c 0,1 timeout 60 .devbuild/s7c/$b >> $R/stencil-old-new.txt 2>&1
  done; done
  for c in ompgpu clang; do for args in "10 4096" "10 4096 4096" "10 8192" "10 8192 8192"; do
    echo "== transpose-target.$c $args" >> $R/prk.txt
    taskset -c 0,1 timeout 120 .devbuild/s7c/prk/transpose-target.$c $args >> $R/prk.txt 2>&1
  done; done
  echo "bench done at $SECONDS s" >> $R/times.txt )
wait $BUILD
taskset -c 0,1 python3 /tmp/sollve/sollve.py run /tmp/sollve --timeout 30 --csv $R/sollve.csv > $R/sollve-run.txt 2>&1
cp /tmp/sollve/builds.csv $R/sollve-builds.csv
echo "sollve ran at $SECONDS s" >> $R/times.txt
for mode in auto generic; do
  { echo "== GPU, --mode=$mode"; python3 /tmp/r-$mode/programs.py run /tmp/r-$mode; } > $R/programs-$mode.txt 2>&1
done
echo "all done at $SECONDS s" >> $R/times.txt
tar czf $OUT/res3.tgz -C /tmp res3
for f in times env bench-summary prk programs-auto programs-generic; do echo "=== $f"; tail -n 40 $R/$f.txt; done > $OUT/summary.txt 2>&1
grep -v "^PASS" $R/sollve-run.txt >> $OUT/summary.txt
