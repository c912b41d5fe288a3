#!/bin/bash
# Session 21 run 3 (issues 48, 49): the closing check of the fresh destinations readied while kernels
# run (target regions from their launch, target data regions from their start).
# 1. Every run-and-check program built by this tree (auto mode: the change is in the host runtime,
#    which both modes share) on the GPU.
# 2. RSBench and XSBench (`-m event`, small and large, five rounds alternating the builds): this
#    tree's ompgpu, fbbb1b1's (session 20's final), 9ac09bb's, and each application's CUDA version.
# 3. OMPGPU_INFO / OMPGPU_PROFILE of this tree's builds (where the region's time goes).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s21r3.tar.xz)
P=.devbuild/s21r3/progs; A=.devbuild/s21r3
python3 $P/programs.py run $P --timeout=60 > $R/programs.txt 2>&1; echo "programs rc $?" >> $R/programs.txt
export OMP_TARGET_OFFLOAD=MANDATORY
for r in 1 2 3 4 5; do
  for s in small large; do
    for b in pa_rs/bin/rsbench.ompgpu pa_rs/bin/rsbench.ompgpu_fbbb1b1 pa_rs/bin/rsbench.ompgpu_9ac09bb pa_rs/bin/rsbench.cuda \
             pa_xs/bin/XSBench.ompgpu pa_xs/bin/XSBench.ompgpu_fbbb1b1 pa_xs/bin/XSBench.ompgpu_9ac09bb pa_xs/bin/XSBench.cuda; do
      echo "== round $r $s $(basename $b)" >> $R/runs.txt
      timeout 120 $A/$b -m event -s $s 2>&1 | grep -E "Runtime|Lookups/s|Verification|checksum|valid" >> $R/runs.txt
    done
  done
done
for b in pa_rs/bin/rsbench.ompgpu pa_xs/bin/XSBench.ompgpu; do for s in small large; do
  echo "== profile $s $(basename $b)" >> $R/profile.txt
  OMPGPU_INFO=1 OMPGPU_PROFILE=1 timeout 120 $A/$b -m event -s $s 2>&1 | grep -E "teams x|fresh|spmd  |transfer rates|Runtime|Lookups/s|valid" >> $R/profile.txt
done; done
cd $R && cp runs.txt profile.txt env.txt .. && grep -E "PASS|FAIL|TIMEOUT|passed|failed|rc" programs.txt | tail -5 > ../programs-tail.txt; tar czf all.tgz *.txt && rm -f *.txt
