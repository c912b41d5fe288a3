#!/bin/bash
# Session 8 (2026-11-28), run 12: issue 49 at $COMMIT: huge pages only for fresh destinations
# (mincore); transfer.c (ompgpu -O3, to 1 GB) with the default and with OMPGPU_FRESH_PAGES=none,
# alternating, two rounds.
set -u
R=/tmp/res12; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf tr3.tar.xz)
for round in 1 2; do for mode in huge none; do
  OMPGPU_FRESH_PAGES=$mode timeout 60 .devbuild/tr3/bin/transfer.ompgpu 1024 > $R/ompgpu-$mode-$round.txt 2>&1
done; done
cp $R/* $OUT/
