#!/bin/bash
# Session 17 run 6 (issue 49): the driver's path as a measured candidate where the staging has few
# helpers (34bdd51) against 5be3645. Under taskset -c 0,1 and with all processors: transfer.c
# (4 KB-64 MB) new and old, alternated twice; the four bench programs (BENCH_REPS=5) new with the
# defaults and with the staging off, and their CUDA versions. Results tarred (one file back).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s17r6.tar.xz)
D=.devbuild/s17r6
export BENCH_REPS=5
for cpus in 0,1 0-15; do
  for i in 1 2; do
    echo "== cpus $cpus old $i"; taskset -c $cpus $D/transfer.5be3645 64
    echo "== cpus $cpus new $i"; taskset -c $cpus $D/transfer 64
  done > $R/transfer-$cpus.txt 2>&1
  for b in transpose.ompgpu.nested backprop.ompgpu.nested gaussjordan.ompgpu.nested tiledtranspose.ompgpu.flat; do
    echo "== cpus $cpus $b"; taskset -c $cpus $D/bin/$b
    echo "== cpus $cpus $b staging off"; OMPGPU_STAGING_MIN_BYTES=0 taskset -c $cpus $D/bin/$b
  done > $R/bench-$cpus.txt 2>&1
  for b in transpose.cuda backprop.cuda gaussjordan.cuda tiledtranspose.cuda.flat; do
    echo "== cpus $cpus $b"; taskset -c $cpus $D/bin/$b
  done > $R/cuda-$cpus.txt 2>&1
done
grep -h "==\|bytes 1048576 \|bytes 4194304 \|bytes 16777216\|bytes 67108864\|FAIL" $R/transfer-*.txt
grep -h "==\|rep 4\|FAIL" $R/bench-*.txt $R/cuda-*.txt
(cd $R && tar czf ../all.tgz .) && rm -rf $R && mkdir -p $R && mv $OUT/all.tgz $R/
