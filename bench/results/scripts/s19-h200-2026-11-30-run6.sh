#!/bin/bash
# Session 19 run 6 (issue 48): btree spmd's 5 us a region against 9ac09bb's build lie outside its
# kernel (run 5). The same binary (453ab2a) under each OMPGPU_STARTUP (eager, the default since
# session 13; background, 9ac09bb's way; lazy) against 9ac09bb's, five rounds alternated,
# BENCH_REPS=21, median kernel_ms. Binaries: run 3's.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s19r4.tar.xz)
D=.devbuild/s19r4
run() {
  local out; out=$(BENCH_REPS=21 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 "$@" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 11p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  echo "$i eager $(OMPGPU_STARTUP=eager run $D/btree.ompgpu.spmd.now) background $(OMPGPU_STARTUP=background run $D/btree.ompgpu.spmd.now) lazy $(OMPGPU_STARTUP=lazy run $D/btree.ompgpu.spmd.now) 9ac09bb $(run $D/btree.ompgpu.spmd.9ac09bb)" >> $R/alt.txt
  echo "$i lud eager $(OMPGPU_STARTUP=eager run $D/lud.ompgpu.nested.now) lazy $(OMPGPU_STARTUP=lazy run $D/lud.ompgpu.nested.now) 9ac09bb $(run $D/lud.ompgpu.nested.9ac09bb)" >> $R/alt.txt
done
cd $R && tar czf all.tgz *.txt && rm -f *.txt
