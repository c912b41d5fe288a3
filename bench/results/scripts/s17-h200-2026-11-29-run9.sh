#!/bin/bash
# Session 17 run 9, the session's closing check (1dd8958's compiler and runtime): every
# run-and-check program on the GPU in both modes (the templates now mark each kernel-scope shared
# variable for the emulator; nothing on a GPU), 60 s each; then the copies: transfer.c (4 KB-64 MB)
# under taskset -c 0,1 (the driver's path a candidate from the device only) against 5be3645,
# alternated twice, and on all processors once; the four bench programs' end to end (BENCH_REPS=8)
# on two processors and on all, with the staging off beside them.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s17r9.tar.xz)
D=.devbuild/s17r9
for m in auto generic; do
  python3 $D/$m/programs.py run $D/$m --timeout=60 --log=$R/programs-$m.log > $R/programs-$m.txt 2>&1
  tail -n 1 $R/programs-$m.txt
done
grep -hv "^PASS" $R/programs-*.txt
for i in 1 2; do
  echo "== cpus 0,1 old $i"; taskset -c 0,1 $D/transfer.5be3645 64
  echo "== cpus 0,1 new $i"; OMPGPU_INFO=1 taskset -c 0,1 $D/transfer 64 2>&1 | grep -v "ompgpu: .*target\|copy to device '\|copy from device '\|alloc '\|free '"
done > $R/transfer-2cpus.txt 2>&1
{ echo "== all new"; $D/transfer 64; } > $R/transfer-all.txt 2>&1
export BENCH_REPS=8
for cpus in 0,1 0-15; do
  for b in transpose.ompgpu.nested backprop.ompgpu.nested gaussjordan.ompgpu.nested tiledtranspose.ompgpu.flat; do
    echo "== cpus $cpus $b"; taskset -c $cpus $D/bin/$b
    echo "== cpus $cpus $b staging off"; OMPGPU_STAGING_MIN_BYTES=0 taskset -c $cpus $D/bin/$b
  done
done > $R/bench.txt 2>&1
grep -h "==\|bytes 16777216\|bytes 67108864\|FAIL" $R/transfer-*.txt
grep -h "==\|rep 7\|FAIL" $R/bench.txt
(cd $R && tar czf ../all.tgz .) && rm -rf $R && mkdir -p $R && mv $OUT/all.tgz $R/
