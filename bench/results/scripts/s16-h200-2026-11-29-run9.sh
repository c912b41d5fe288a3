#!/bin/bash
# Session 16 run 9: every run-and-check program (tests/programs, built at $COMMIT: f67f37c's code
# generation) on the GPU in auto and generic mode; one_round_loops.c, skip_guards.c and
# btree_search.c under compute-sanitizer's memcheck and racecheck in both modes.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s16r9.tar.xz)
for m in auto generic; do
  python3 .devbuild/s16r9/$m/programs.py run .devbuild/s16r9/$m --log $R/programs-$m.log > $R/programs-$m.txt 2>&1
done
for m in auto generic; do
  for p in one_round_loops skip_guards btree_search; do
    for tool in memcheck racecheck; do
      echo "== $m $p $tool" >> $R/sanitize.txt
      (cd .devbuild/s16r9/$m && OMP_TARGET_OFFLOAD=MANDATORY timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 --log-file /tmp/san.txt ./$p > /tmp/out.txt 2>/dev/null; echo "exit $?" >> $R/sanitize.txt; tail -2 /tmp/san.txt >> $R/sanitize.txt; cmp -s /tmp/out.txt $p.expected && echo "output matches" >> $R/sanitize.txt)
    done
  done
done
cd $R && tar czf all.tgz *.txt *.log && rm -f *.txt *.log
