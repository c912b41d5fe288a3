#!/bin/bash
# Session 21 run 2 (issue 48): do RSBench's and XSBench's lookup kernels gain from an instance for
# 3 or 4 resident teams per SM (ptxas keeping 80 or 64 registers)? Run 1 had RSBench's CUDA
# version 9% faster at -maxrregcount=80 (3 blocks of 256 per SM) than at its own 100 registers.
# Builds (run 1's tree, FreshDestinations in): *_ready as is (RSBench: its 5-team instance refused
# for spilling, 2 teams; XSBench: 5 teams); *_d768 / *_d1024: DENSE_THREADS 768 / 1024 and
# kDenseSpillBytes 1024, so the 3- or 4-team instance is launched. Three rounds, small and large.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s21r2.tar.xz)
B=.devbuild/s21r2
export OMP_TARGET_OFFLOAD=MANDATORY
for r in 1 2 3; do
  for s in small large; do
    for b in rsbench.ompgpu_ready rsbench.ompgpu_d768 rsbench.ompgpu_d1024 rsbench.cuda rsbench.cuda_r80 XSBench.ompgpu_ready XSBench.ompgpu_d768 XSBench.ompgpu_d1024; do
      echo "== round $r $s $b" >> $R/runs.txt
      timeout 60 $B/$b -m event -s $s 2>&1 | grep -E "Runtime|Lookups/s|Verification|checksum|valid" >> $R/runs.txt
    done
  done
done
for b in rsbench.ompgpu_ready rsbench.ompgpu_d768 rsbench.ompgpu_d1024 XSBench.ompgpu_ready XSBench.ompgpu_d768 XSBench.ompgpu_d1024; do
  for s in small large; do
  echo "== profile $s $b" >> $R/profile.txt
  OMPGPU_INFO=1 OMPGPU_PROFILE=1 timeout 60 $B/$b -m event -s $s 2>&1 | grep -E "teams x|spmd  |Lookups/s|valid" >> $R/profile.txt
  done
done
cd $R && cp runs.txt profile.txt env.txt .. && tar czf all.tgz *.txt && rm -f *.txt
