#!/bin/bash
# Session 17 run 5 (issue 49): copies when the process may use only one or two processors.
# Session 16's run 8 ran the bench under `taskset -c 0,1`: the staging then has no helper threads,
# and run 4 showed ompgpu's end-to-end times there 6x those of a process with all 16 processors.
# transfer.c (4 KB-64 MB) and three bench programs (BENCH_REPS=3) under taskset -c 0,1 and -c 0:
# the defaults, the staging off (OMPGPU_STAGING_MIN_BYTES=0: the driver's pageable path), one
# helper (OMPGPU_COPY_THREADS=1); their CUDA versions under the same affinity.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s17r5.tar.xz)
D=.devbuild/s17r5
export BENCH_REPS=3
for cpus in 0,1 0; do
  for setting in NONE=1 OMPGPU_STAGING_MIN_BYTES=0 OMPGPU_COPY_THREADS=1; do
    echo "== cpus $cpus $setting"; env $setting taskset -c $cpus $D/transfer 64
    for b in transpose.ompgpu.nested backprop.ompgpu.nested tiledtranspose.ompgpu.flat; do
      echo "== cpus $cpus $setting $b"; env $setting taskset -c $cpus $D/bin/$b
    done
  done
  for b in transpose.cuda backprop.cuda tiledtranspose.cuda.flat; do echo "== cpus $cpus $b"; taskset -c $cpus $D/bin/$b; done
done > $R/affinity.txt 2>&1
grep -h "==\|bytes 1048576 \|bytes 4194304 \|bytes 16777216\|bytes 67108864\|rep 2\|FAIL" $R/affinity.txt
