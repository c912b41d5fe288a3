#!/bin/bash
# Session 8 (2026-11-28), run 8: issue 49, copies from the device into fresh memory. transfer.c
# (bench/startup, now also into freshly malloc'd buffers) built by ompgpu at $COMMIT with -O3,
# run with OMPGPU_FRESH_PAGES=none, huge, populate and both, two rounds; transfer.cu from
# pageable and pinned memory; the machine's kernel and transparent huge page settings.
set -u
R=/tmp/res8; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; uname -r;
  cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf tr.tar.xz)
B=.devbuild/tr/bin
for round in 1 2; do
  for mode in none huge populate both; do
    OMPGPU_FRESH_PAGES=$mode timeout 120 $B/transfer.ompgpu 1024 > $R/ompgpu-$mode-$round.txt 2>&1
  done
done
timeout 120 $B/transfer.cuda pageable 1024 > $R/cuda-pageable.txt 2>&1
timeout 120 $B/transfer.cuda pinned 1024 > $R/cuda-pinned.txt 2>&1
cp $R/* $OUT/ 2>/dev/null
cd $R && for f in ompgpu-*-1.txt ompgpu-*-2.txt cuda-*.txt; do echo "== $f"; grep -E "bytes (16777216|67108864|268435456|1073741824)|PASS|FAIL" $f; done > $OUT/summary.txt
