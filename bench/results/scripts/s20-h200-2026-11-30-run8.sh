#!/bin/bash
# Session 20 run 8 (issue 49), an experiment not in the tree: copy helpers' pieces of at least 2 MB
# (.piece2m: transfer.cpp cut_for's smallest piece 2 MB instead of 64 KB, built from a scratch
# worktree of 4b02e08) against the tree's (.head), alternated: RSBench small (its 82 MB copy back
# into fresh, huge-page-advised memory, where 512 KB pieces put four helpers on each 2 MB page's
# first touch) under OMPGPU_PROFILE=1, four rounds; bench/startup's transfer to 64 MB, two rounds.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s20ab8.tar.xz)
D=.devbuild/ab8
export OMP_TARGET_OFFLOAD=MANDATORY
for r in 1 2 3 4; do for v in head piece2m; do
  echo "== round $r $v" >> $R/rsbench.txt
  OMPGPU_PROFILE=1 timeout 60 $D/rsbench.$v -m event -s small 2>&1 | grep -E "Runtime|Lookups/s|simulation.c:24 target|transfer rates|Verification" >> $R/rsbench.txt
done; done
for r in 1 2; do for v in head piece2m; do
  echo "== round $r $v" >> $R/transfer.txt; timeout 120 $D/transfer.$v 64 >> $R/transfer.txt 2>&1
done; done
cd $R && tar czf all.tgz *.txt && rm -f *.txt
