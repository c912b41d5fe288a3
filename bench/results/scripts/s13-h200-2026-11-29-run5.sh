#!/bin/bash
# Session 13 run 5: the devices started before main (OMPGPU_STARTUP=eager, the new default) against
# beside main (background, the old default): RSBench (-m event, small and large, 3 runs each; its
# CUDA and clang 19 builds of run 3 beside them), and bench/startup (first region after 0 and 500 ms
# of host work, process times; transfers to 1 GB). Outputs packed into one archive.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s13e.tar.xz)
D=.devbuild/s13e
( . .peers/bin/peer-env.sh
for i in 1 2 3; do for s in small large; do
  for mode in eager background; do
    echo "== ompgpu $mode $s" >> $R/rsbench.txt
    OMPGPU_STARTUP=$mode $D/rsbench.ompgpu -m event -s $s 2>&1 | grep -a "Runtime:\|Lookups/s\|Verification" >> $R/rsbench.txt
  done
  for b in cuda clang; do
    echo "== $b $s" >> $R/rsbench.txt
    $D/rsbench.$b -m event -s $s 2>&1 | grep -a "Runtime:\|Lookups/s\|Verification" >> $R/rsbench.txt
  done
done; done
python3 $D/startup/startup.py run $D/startup --csv $R/startup.csv --runs 5 --max-mb 1024 > $R/startup-summary.txt 2>&1 )
(cd $R && tar czf ../all.tgz . ) && rm -rf $R && mkdir -p $R && mv $OUT/all.tgz $R/
