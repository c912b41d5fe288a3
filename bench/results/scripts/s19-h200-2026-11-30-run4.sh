#!/bin/bash
# Session 19 run 4 (issue 48): the kernels run 3 found slower at 453ab2a than 9ac09bb's builds of the
# same sources (lud nested, btree spmd, backprop nested; kmeans nested beside them): what each
# launch looks like (OMPGPU_INFO=1: teams, threads, mode, instance) and five alternated timings
# (BENCH_REPS=5, median kernel_ms). Binaries: run 3's.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s19r4.tar.xz)
D=.devbuild/s19r4
for k in lud.ompgpu.nested btree.ompgpu.spmd backprop.ompgpu.nested kmeans.ompgpu.nested; do
  for v in now 9ac09bb; do
    echo "== $k.$v" >> $R/info.txt
    OMPGPU_INFO=1 BENCH_REPS=1 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 $D/$k.$v 2>&1 | grep -v "^ompgpu: .*copy\|^ompgpu: .*map" | sort | uniq -c | sort -rn | head -12 >> $R/info.txt
  done
done
run() {
  local out; out=$(BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 "$1" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  line="$i"
  for k in lud.ompgpu.nested btree.ompgpu.spmd backprop.ompgpu.nested kmeans.ompgpu.nested; do
    line="$line $k now $(run $D/$k.now) 9ac09bb $(run $D/$k.9ac09bb)"
  done
  echo "$line" >> $R/alt.txt
done
cd $R && tar czf all.tgz *.txt && rm -f *.txt
