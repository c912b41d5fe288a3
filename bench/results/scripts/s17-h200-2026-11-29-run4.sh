#!/bin/bash
# Session 17 run 4 (issue 49): why the end-to-end times of transpose, tiledtranspose, backprop and
# gaussjordan were above clang's in session 16's run 8 (e.g. transpose nested 23.6 ms against
# clang 15.8 for 64 MB each way). Each ompgpu binary with BENCH_REPS=5: as run.py runs it; under
# OMPGPU_PROFILE=1 (the table: copy and allocation time per construct); with the staging off
# (OMPGPU_STAGING_MIN_BYTES=0); with OMPGPU_INFO=1 (start-up lines). The CUDA versions as run.py runs them.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; cat /proc/cpuinfo | grep "model name" | head -1; free -g | head -2; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s17r4.tar.xz)
B=.devbuild/s17r4/bin
export BENCH_REPS=5
for b in transpose.ompgpu.nested tiledtranspose.ompgpu.flat backprop.ompgpu.nested gaussjordan.ompgpu.nested; do
  { echo "== $b default"; $B/$b
    echo "== $b profiled"; OMPGPU_PROFILE=1 $B/$b
    echo "== $b staging off"; OMPGPU_STAGING_MIN_BYTES=0 $B/$b
    echo "== $b info"; OMPGPU_INFO=1 $B/$b 2>&1 | head -40; } > $R/$b.txt 2>&1
done
for b in transpose.cuda tiledtranspose.cuda.flat backprop.cuda gaussjordan.cuda; do
  { echo "== $b"; $B/$b; } > $R/$b.txt 2>&1
done
grep -h "==\|e2e\|PASS\|FAIL" $R/*.txt | head -120
