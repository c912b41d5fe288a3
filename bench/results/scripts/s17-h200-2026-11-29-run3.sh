#!/bin/bash
# Session 17 run 3 (issue 49): staged copies with ramped chunks, helpers tuned per size class and
# the first DMAs from the device queued before the helpers wake (f797ef9), against run 2's
# binary (b197f2a), alternated three times at 4 KB-64 MB; the ramp off (OMPGPU_STAGING_RAMP=0)
# twice; both at 4 KB-1 GB once; one profiled run of the new binary (trace.json).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s17r3.tar.xz)
D=.devbuild/s17r3
for i in 1 2 3; do
  echo "== old $i"; $D/transfer.b197f2a 64
  echo "== new $i"; $D/transfer 64
done > $R/alternated.txt 2>&1
for i in 1 2; do echo "== new ramp off $i"; OMPGPU_STAGING_RAMP=0 $D/transfer 64; done > $R/ramp-off.txt 2>&1
{ echo "== old 1 GB"; $D/transfer.b197f2a 1024; echo "== new 1 GB"; $D/transfer 1024; } > $R/large.txt 2>&1
OMPGPU_PROFILE=$R/trace.json $D/transfer 64 > $R/profiled.txt 2>&1
grep -h "==\|bytes 1048576 \|bytes 4194304 \|bytes 16777216\|bytes 67108864\|bytes 268435456\|bytes 1073741824\|PASS\|FAIL" $R/alternated.txt $R/ramp-off.txt $R/large.txt
