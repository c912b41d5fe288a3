#!/bin/bash
# Session 7 (2026-11-28), run 5: NVRTC's -split-compile=0 (issue 45: a quarter of NVRTC's time on
# two cores) against NVRTC without it: every benchmark's ompgpu builds, both ways, from the same
# sources at $COMMIT (built on the CPU machine: .devbuild/sp/{split,nosplit}), run in one call,
# alternating, two rounds.
set -u
R=/tmp/res5; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf sp.tar.xz)
SECONDS=0
for round in 1 2; do for v in nosplit split; do
  taskset -c 0,1 python3 .devbuild/sp/$v/run.py run .devbuild/sp/$v --reps=5 --budget=90 --csv=$R/$v-$round.csv > $R/$v-$round.txt 2>&1
  echo "$v round $round at $SECONDS s" >> $R/times.txt
done; done
tar czf $OUT/res5.tgz -C /tmp res5
cat $R/times.txt > $OUT/summary.txt
