#!/bin/bash
# Session 8 (2026-11-28), run 10: issue 49, the staging's shape chosen by measurement: transfer.c
# (ompgpu -O3 at $COMMIT, up to 256 MB, touched and fresh memory) under staging buffers x chunk
# sizes x copy threads; one line a size, GB/s to / from / from into fresh memory.
set -u
R=/tmp/res10; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf tr2.tar.xz)
B=.devbuild/tr2/bin/transfer.ompgpu
SECONDS=0
run() {   # buffers chunk_mb threads
  echo "== buffers $1 chunk ${2}MB threads $3" >> $R/sweep.txt
  OMPGPU_STAGING_BUFFERS=$1 OMPGPU_STAGING_CHUNK_BYTES=$(($2 << 20)) OMPGPU_COPY_THREADS=$3 timeout 60 $B 256 \
    | grep -E "bytes (4194304|16777216|67108864|268435456)|FAIL" >> $R/sweep.txt 2>&1
}
for b in 3 4 6 8; do for c in 2 4 8 16; do run $b $c 7; done; done
for t in 3 11 15; do run 4 8 $t; run 6 4 $t; done
run 3 8 7
echo "done at $SECONDS s" >> $R/sweep.txt
cp $R/* $OUT/
