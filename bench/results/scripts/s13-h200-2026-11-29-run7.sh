#!/bin/bash
# Session 13 run 7: transfer.ompgpu before (run 5's build) and after (run 6's) the small copies through
# the pinned buffers, alternated three times on one machine, to 64 MB.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s13e.tar.xz && tar xJf s13f.tar.xz)
for i in 1 2 3; do
  echo "== before $i" >> $R/alt.txt; .devbuild/s13e/startup/bin/transfer.ompgpu 64 >> $R/alt.txt 2>&1
  echo "== after $i" >> $R/alt.txt; .devbuild/s13f/startup/bin/transfer.ompgpu 64 >> $R/alt.txt 2>&1
done
