#!/bin/bash
# Session 20 run 7 (issue 49): RSBench small (ompgpu, 4b02e08's build of run 6) under OMPGPU_INFO=1
# and OMPGPU_PROFILE=1, three runs with each OMPGPU_FRESH_PAGES setting (huge, the default; none;
# populate; both): where its 82 MB copy back into fresh memory (14 GB/s in run 6, against 20-23 for
# bench/startup's 64 MB fresh copies) loses; one Chrome trace of the default.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s20r6.tar.xz)
B=.devbuild/rsbb/bin/rsbench.ompgpu
export OMP_TARGET_OFFLOAD=MANDATORY
for r in 1 2 3; do for f in huge none populate both; do
  echo "== round $r OMPGPU_FRESH_PAGES=$f" >> $R/fresh.txt
  OMPGPU_FRESH_PAGES=$f OMPGPU_INFO=1 OMPGPU_PROFILE=1 timeout 60 $B -m event -s small 2>&1 | grep -E "Runtime|Lookups/s|from dev|transfer rates|copies|Verification|checksum|valid" >> $R/fresh.txt
done; done
OMPGPU_PROFILE=$R/trace.json timeout 60 $B -m event -s small > $R/trace-run.txt 2>&1
cd $R && tar czf all.tgz *.txt *.json && rm -f *.txt *.json
