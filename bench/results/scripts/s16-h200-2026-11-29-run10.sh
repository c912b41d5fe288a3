#!/bin/bash
# Session 16 run 10: run 9 stopped at tests/programs/lastprivate_conditional.c in auto mode (no
# output within programs.py's 600 s). That program three times in each mode (20 s each, with
# OMPGPU_INFO), then the auto-mode programs after it in the alphabet (10 s each), results
# written as they come.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s16r9.tar.xz)
for m in auto generic; do
  for i in 1 2 3; do
    (cd .devbuild/s16r9/$m && OMPGPU_INFO=1 OMP_TARGET_OFFLOAD=MANDATORY timeout 20 ./lastprivate_conditional > /tmp/o.txt 2> /tmp/e.txt
     rc=$?; echo "$m $i exit $rc $(cmp -s /tmp/o.txt lastprivate_conditional.expected && echo match || echo differ)" >> $R/lc.txt
     [ $rc = 0 ] || { tail -5 /tmp/e.txt >> $R/lc.txt; tail -3 /tmp/o.txt >> $R/lc.txt; })
  done
done
cd .devbuild/s16r9/auto
for p in $(ls *.expected | sed 's/\.expected$//' | awk '$0 > "lastprivate_conditional"'); do
  OMP_TARGET_OFFLOAD=MANDATORY timeout 10 ./$p > /tmp/o.txt 2>/dev/null; rc=$?
  echo "$p exit $rc $(cmp -s /tmp/o.txt $p.expected && echo match || echo differ)" >> $R/rest-auto.txt
done
