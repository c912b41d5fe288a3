#!/bin/bash
# Session 11 (2026-11-28), run 7 (issue 49): the staging at 7ea677d (v0) against three variants
# built from it with one change each (not committed as code): helpers look for work 2 ms before
# sleeping (v1); v1 with cached stores for the copy out of the buffers (v2); v1 with chunks of
# a quarter of the size over the buffers instead of a half (v3). Transfer test to 256 MB, each
# variant three times, interleaved.
set -u
R=/tmp/res7; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; uname -r; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s11f.tar.xz)
for i in 1 2 3; do
  for v in v0 v1 v2 v3; do echo "== $v $i"; timeout 100 .devbuild/s11f/transfer.$v 256; done
done > $R/transfer.txt 2>&1
tar czf $OUT/res7.tgz -C /tmp res7
{ cat $R/env.txt; grep -v "bytes 4096 \|bytes 16384 " $R/transfer.txt; } > $OUT/summary.txt
