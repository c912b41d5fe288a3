#!/bin/bash
# Session 21 run 1 (issues 48, 49): fresh destinations of copies back faulted in while the kernel
# runs (FreshDestinations, target.cpp). RSBench and XSBench small and large, `-m event`, three
# rounds alternating fbbb1b1's build (*.ompgpu / *_old) with the new one (*_ready); RSBench's CUDA
# version built with -maxrregcount 64/72/80/96 beside its own (100 registers): does a kernel of
# this shape gain from more resident teams? One OMPGPU_INFO/OMPGPU_PROFILE run of each new build.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s21r1.tar.xz)
B=.devbuild/s21r1
export OMP_TARGET_OFFLOAD=MANDATORY
for r in 1 2 3; do
  for s in small large; do
    for b in rsbench.ompgpu rsbench.ompgpu_ready rsbench.cuda rsbench.cuda_r64 rsbench.cuda_r72 rsbench.cuda_r80 rsbench.cuda_r96 XSBench.ompgpu_old XSBench.ompgpu_ready; do
      echo "== round $r $s $b" >> $R/runs.txt
      timeout 60 $B/$b -m event -s $s 2>&1 | grep -E "Runtime|Lookups/s|Verification|checksum|valid" >> $R/runs.txt
    done
  done
done
for b in rsbench.ompgpu_ready XSBench.ompgpu_ready rsbench.ompgpu XSBench.ompgpu_old; do
  echo "== profile $b" >> $R/profile.txt
  OMPGPU_INFO=1 OMPGPU_PROFILE=1 timeout 60 $B/$b -m event -s small 2>&1 | grep -E "Runtime|Lookups/s|fresh|ms|transfer rates|Verification|valid" >> $R/profile.txt
done
OMPGPU_PROFILE=$R/trace.json timeout 60 $B/rsbench.ompgpu_ready -m event -s small > $R/trace-run.txt 2>&1
cd $R && tar czf all.tgz *.txt *.json && cp runs.txt profile.txt env.txt .. ; rm -f *.txt *.json
