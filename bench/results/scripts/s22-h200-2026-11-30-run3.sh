#!/bin/bash
# Session 22 run 3: the grid rule as kept (a trip count for short-bodied loops only; grid_waves 1
# for those with a reduction and for generic kernels' loops; long bodies keep the one-wave launch
# without a trip count, which run 2 showed kmeans, gaussjordan and heartwall's SPMD kernels need).
# The bench kernels that run 2 found slower (kmeans, gaussjordan, heartwall, haccmk, backprop) and
# jacobi (the one bench kernel whose grid the kept rule changes), this tree (bnew) against
# 7bdcdfd (bold), three rounds alternated, 5 reps each.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s22r3.tar.xz)
D=.devbuild/s22r3
for r in 1 2 3; do
  for b in bnew bold; do
    python3 $D/$b/run.py run $D/$b --reps=5 --budget=100 --csv=$R/bench-$b-$r.csv --log=$R/bench-$b-$r.log > $R/bench-$b-$r.txt 2>&1
  done
done
cp $R/bench-*.csv $OUT/
cd $R && tar czf all.tgz *.txt *.log *.csv && rm -f *.txt *.log *.csv
