#!/bin/bash
# Session 11 (2026-11-28), run 8 (issue 49): run 7's v2 (cached stores for the copy out of the
# buffers) was faster both ways; two variants of 7ea677d to choose from: cached stores out of
# the buffers only (v5), and cached stores into them too (v4). Transfer test to 256 MB, three
# times each, interleaved.
set -u
R=/tmp/res8; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; uname -r; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s11g.tar.xz)
for i in 1 2 3; do
  for v in v5 v4; do echo "== $v $i"; timeout 100 .devbuild/s11g/transfer.$v 256; done
done > $R/transfer.txt 2>&1
tar czf $OUT/res8.tgz -C /tmp res8
{ cat $R/env.txt; grep -v "bytes 4096 \|bytes 16384 \|bytes 65536 " $R/transfer.txt; } > $OUT/summary.txt
