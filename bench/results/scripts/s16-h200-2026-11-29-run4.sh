#!/bin/bash
# Session 16 run 4: what a synchronous target region costs streamcluster beyond its kernel: the
# bench binaries (run 2's: ompgpu at 4936b2e, CUDA) with 64, 1024 and 65536 points (8 candidates
# each: 8 regions, or 8 launches timed by events), medians of 9 reps; OMPGPU_PROFILE at 64
# points; nsys's API and kernel statistics where nsys is installed.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; which nsys; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s16r2.tar.xz)
D=.devbuild/s16r2
med() { grep kernel_ms | awk '{print $6}' | sort -n | sed -n 5p; }
for n in 64 1024 65536; do
  for i in 1 2 3; do
    echo "$n $i ompgpu $(BENCH_REPS=9 OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 $D/base/bin/streamcluster.ompgpu.nested $n 8 2>&1 | med) cuda $(BENCH_REPS=9 taskset -c 0,1 $D/cudab/bin/streamcluster.cuda $n 8 2>&1 | med)" >> $R/small.txt
  done
done
BENCH_REPS=3 OMPGPU_PROFILE=1 OMP_TARGET_OFFLOAD=MANDATORY $D/base/bin/streamcluster.ompgpu.nested 64 8 > $R/profile-64.txt 2>&1
if command -v nsys >/dev/null; then
  cd /tmp && BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY timeout 200 nsys profile -o sc --stats=true --force-overwrite true $OLDPWD/$D/base/bin/streamcluster.ompgpu.nested > $R/nsys-ompgpu.txt 2>&1
  cd - >/dev/null
fi
cd $R && tar czf all.tgz *.txt && rm -f *.txt
