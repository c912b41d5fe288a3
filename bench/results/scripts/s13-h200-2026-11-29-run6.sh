#!/bin/bash
# Session 13 run 6: small copies through the pinned buffers (to the device deferred, in turn through
# the buffers; from the device through the first). tests/programs/staged_transfers.c on the GPU under
# the settings its CI test uses, then bench/startup (first region; transfers 4 KB to 1 GB against
# CUDA pageable and pinned, clang 19), 5 runs. Outputs packed into one archive.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s13f.tar.xz)
D=.devbuild/s13f
for e in "X=1" "OMPGPU_COPY_THREADS=3 OMPGPU_STAGING_MIN_BYTES=4096" "OMPGPU_COPY_THREADS=0 OMPGPU_STAGING_MIN_BYTES=1" \
         "OMPGPU_STAGING_MIN_BYTES=0" "OMPGPU_FRESH_PAGES=none OMPGPU_STAGING_BUFFERS=2" \
         "OMPGPU_COPY_THREADS=15 OMPGPU_STAGING_CHUNK_BYTES=262144" "OMPGPU_STAGING_BUFFERS=2 OMPGPU_STAGING_CHUNK_BYTES=262144"; do
  out=$(env $e OMP_TARGET_OFFLOAD=MANDATORY $D/staged_transfers 2>&1)
  if [ "$out" = "$(cat $D/staged_transfers.expected)" ]; then echo "PASS $e" >> $R/staged.txt; else echo "FAIL $e: $out" >> $R/staged.txt; fi
done
( . .peers/bin/peer-env.sh
  python3 $D/startup/startup.py run $D/startup --csv $R/startup.csv --runs 5 --max-mb 1024 > $R/startup-summary.txt 2>&1 )
(cd $R && tar czf ../all.tgz . ) && rm -rf $R && mkdir -p $R && mv $OUT/all.tgz $R/
