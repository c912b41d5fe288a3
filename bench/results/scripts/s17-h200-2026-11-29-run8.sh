#!/bin/bash
# Session 17 run 8 (issue 49): what each size class's trials measure (OMPGPU_INFO now prints each
# way's rate when a class's trials end). transfer.c (4 KB-64 MB) under taskset -c 0,1, the new
# binary with OMPGPU_INFO=1 and 5be3645's (no driver candidate), alternated three times; then the
# new binary on all processors with OMPGPU_INFO=1 once.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s17r8.tar.xz)
D=.devbuild/s17r8
for i in 1 2 3; do
  echo "== cpus 0,1 old $i"; taskset -c 0,1 $D/transfer.5be3645 64
  echo "== cpus 0,1 new $i"; OMPGPU_INFO=1 taskset -c 0,1 $D/transfer 64 2>&1 | grep -v "ompgpu: .*target\|copy to device '\|copy from device '\|alloc '\|free '"
done > $R/transfer-2cpus.txt 2>&1
{ echo "== all new"; OMPGPU_INFO=1 $D/transfer 64 2>&1 | grep -v "ompgpu: .*target\|copy to device '\|copy from device '\|alloc '\|free '"; } > $R/transfer-all.txt 2>&1
grep -h "==\|copies \|bytes 1048576 \|bytes 4194304 \|bytes 16777216\|bytes 67108864\|FAIL" $R/transfer-*.txt
