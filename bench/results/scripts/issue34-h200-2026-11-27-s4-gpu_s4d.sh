#!/bin/bash
# Session 4, fourth call: why the spread kernels' short iterations got slower. ncu of sparserows
# (short rows only) and particlefilter, ompgpu at 5e9bf22 (b4o), 165791d (b6n) and with the loop
# restructured (b7, working tree after 165791d); then the six spread candidates' benchmarks.
set -u
R=/tmp/res; mkdir -p $R
{ date; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt
(cd .devbuild && for t in b6n b4o b7; do tar xJf $t.tar.xz; done)
for b in b4o b6n b7; do
  BENCH_REPS=1 timeout 90 ncu --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section SpeedOfLight -k regex:main_l .devbuild/$b/bin/sparserows.ompgpu.nested 1048576 64 > $R/ncu-sparserows-$b.txt 2>&1
  BENCH_REPS=1 timeout 60 ncu --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section SpeedOfLight -k regex:main_l .devbuild/$b/bin/particlefilter.ompgpu.nested > $R/ncu-particlefilter-$b.txt 2>&1
  echo "$b ncu done at $SECONDS" >> $R/times.txt
done
for b in b7 b4o b6n b7 b4o; do
  n=1; [ -f $R/$b-1.csv ] && n=2
  python3 .devbuild/$b/run.py run .devbuild/$b --reps=5 --budget=40 --csv=$R/$b-$n.csv --log=$R/$b-$n.log > $R/$b-$n-summary.txt 2>&1
  echo "== $b sparserows 1048576 64" >> $R/extra.txt; BENCH_REPS=5 timeout 30 .devbuild/$b/bin/sparserows.ompgpu.nested 1048576 64 >> $R/extra.txt 2>&1
done
echo "done at $SECONDS" >> $R/times.txt
cat $R/times.txt; grep -h "sparserows\|particlefilter" $R/*-summary.txt
