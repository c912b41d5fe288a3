#!/bin/bash
# Session 19 run 7 (issue 48): is NVRTC's split compilation (-split-compile=0, since session 7,
# after 9ac09bb) what makes btree spmd about 5% slower than 9ac09bb's build? btree spmd and
# backprop nested built at the commit below with and without it, against 9ac09bb's builds; five
# rounds alternated, BENCH_REPS=21, median kernel_ms.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s19r7.tar.xz)
D=.devbuild/s19r7
run() {
  local out; out=$(BENCH_REPS=21 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 "$@" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 11p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  echo "$i btree-spmd split $(run $D/btree.SPMD.split) nosplit $(run $D/btree.SPMD.nosplit) 9ac09bb $(run $D/btree.ompgpu.spmd.9ac09bb) backprop-nested split $(run $D/backprop.NESTED.split) nosplit $(run $D/backprop.NESTED.nosplit) 9ac09bb $(run $D/backprop.ompgpu.nested.9ac09bb)" >> $R/alt.txt
done
cd $R && tar czf all.tgz *.txt && rm -f *.txt
