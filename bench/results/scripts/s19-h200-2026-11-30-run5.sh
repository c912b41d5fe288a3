#!/bin/bash
# Session 19 run 5 (issue 48): btree's SPMD kernel, about 5% slower at 453ab2a than 9ac09bb's build
# in run 4 with the same device code and launch: where the time goes, under OMPGPU_PROFILE (the
# kernel's own time from events, the construct's, the wait), three runs of each alternated, and
# the same binaries run with BENCH_REPS=21 alternated five times. Binaries: run 3's.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s19r4.tar.xz)
D=.devbuild/s19r4
for i in 1 2 3; do
  for v in now 9ac09bb; do
    OMPGPU_PROFILE=$R/trace-$v-$i.json BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 $D/btree.ompgpu.spmd.$v > $R/out-$v-$i.txt 2> $R/profile-$v-$i.txt
  done
done
run() {
  local out; out=$(BENCH_REPS=21 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 "$1" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 11p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do echo "$i now $(run $D/btree.ompgpu.spmd.now) 9ac09bb $(run $D/btree.ompgpu.spmd.9ac09bb)" >> $R/alt.txt; done
cd $R && tar czf all.tgz *.txt *.json && rm -f *.txt *.json
