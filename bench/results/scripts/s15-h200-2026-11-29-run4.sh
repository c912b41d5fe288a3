#!/bin/bash
# Session 15 run 4, an experiment on btree's nested kernel (where do its 2x against CUDA go?):
# btree's generated device code at c9dee67 (results/scripts/s15-btree-variants/v-a.cu) and three
# hand edits of it, each built into the program with nvcc -O3 as ompgpu's nvcc path does:
# b: the level region's closing barrier dropped (racy on the all-reduce slots: timing only),
# c: `#pragma unroll 1` on the worksharing loops, d: both. Five rounds alternated with CUDA's.
# The edits, on the CPU machine:
#   sed '235s/ompgpu::block_barrier();/\/\* closing barrier dropped \*\//' v-a.cu > v-b.cu
#   sed 's/^  for (long long __c = __first;/  _Pragma("unroll 1") for (long long __c = __first;/' v-a.cu > v-c.cu
#   (and the same on v-b.cu for v-d.cu); then nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr
#   -DOMPGPU_DEVICE_IMAGE -fatbin, device_image.image_assembly, and the link ompgpu cc -v prints.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s15r4.tar.xz)
B=.devbuild/s15r4
run() {  # run BIN: "median-kernel-ms status"
  local out; out=$(BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 timeout 60 "$1" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  echo "$i btree a $(run $B/bt-a) b $(run $B/bt-b) c $(run $B/bt-c) d $(run $B/bt-d) cuda $(run $B/btree.cuda)" >> $R/alt.txt
done
cd $R && tar czf all.tgz *.txt && rm -f *.txt
