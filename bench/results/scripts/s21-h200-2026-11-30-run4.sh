#!/bin/bash
# Session 21 run 4 (issue 49): can a staged copy's buffers stay in the processor's cache? A scratch
# build of this tree's bench/startup/transfer.c (HEAD plus OMPGPU_X_CACHED_IN: cached stores into
# the staging buffers instead of streaming ones; not in the tree) run up to 64 MB with small chunks
# and few buffers, so that the buffers in flight (1-4 MB) may stay in the last-level cache, where
# the DMA would read them without a trip to memory; against the defaults (16 MB copies: 2 MB
# chunks, 4 buffers, streaming stores). Two rounds, configurations alternated.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; lscpu | grep -E "Model name|L2|L3"; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s21r4.tar.xz)
T=.devbuild/s21r4/transfer_x
export OMP_TARGET_OFFLOAD=MANDATORY
for r in 1 2; do
  for chunk in default 262144 524288 1048576; do for bufs in 4 8; do for stores in stream cached; do
    [ $chunk = default ] && [ $bufs = 8 ] && continue
    envs=""; [ $chunk != default ] && envs="OMPGPU_STAGING_CHUNK_BYTES=$chunk"
    envs="$envs OMPGPU_STAGING_BUFFERS=$bufs"; [ $stores = cached ] && envs="$envs OMPGPU_X_CACHED_IN=1"
    echo "== round $r chunk=$chunk buffers=$bufs stores=$stores" >> $R/transfer.txt
    env $envs timeout 120 $T 64 >> $R/transfer.txt 2>&1
  done; done; done
done
cd $R && cp transfer.txt env.txt .. && tar czf all.tgz *.txt && rm -f *.txt
