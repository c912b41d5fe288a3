#!/bin/bash
# Session 17 run 2 (issue 49): where a 16 MB staged copy's time goes. bench/startup/transfer.c
# built by ompgpu (sizes 4 KB-64 MB): three runs with the defaults; one under OMPGPU_PROFILE
# (the trace now has each staged chunk's DMA and host side); then one setting changed at a time.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s17r2.tar.xz)
T=.devbuild/s17r2/transfer
for i in 1 2 3; do echo "== default $i"; $T 64; done > $R/default.txt 2>&1
OMPGPU_PROFILE=$R/trace.json $T 64 > $R/profiled.txt 2>&1
for setting in OMPGPU_COPY_THREADS=3 OMPGPU_COPY_THREADS=7 OMPGPU_COPY_THREADS=11 \
               OMPGPU_STAGING_BUFFERS=2 OMPGPU_STAGING_BUFFERS=8 \
               OMPGPU_STAGING_CHUNK_BYTES=1048576 OMPGPU_STAGING_CHUNK_BYTES=4194304 OMPGPU_FRESH_PAGES=none; do
  for i in 1 2; do echo "== $setting $i"; env $setting $T 64; done
done > $R/settings.txt 2>&1
grep -h "bytes 16777216\|bytes 67108864\|==" $R/default.txt $R/settings.txt | head -80
