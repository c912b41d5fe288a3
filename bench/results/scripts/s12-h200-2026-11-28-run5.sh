#!/bin/bash
# Session 12 run 5: the probe harness on D (the body once a path, 0a? see commit) and the stencils and jacobi built with it.
set -u
R=$OUT/r; mkdir -p $R
cd /tmp && tar xJf $OLDPWD/.devbuild/s12r5.tar.xz && cd /tmp/s12r5
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt
for v in D; do for r in 1 2 3 4; do echo "== $v" >> $R/harness.txt; h$v/harness_r$r | grep -E "sms|cuda2d|waves=0|tile1d" >> $R/harness.txt 2>&1; done; done
python3 new/run.py run new --reps=7 --budget=120 --csv=$R/new.csv --log=$R/new.log > $R/new-summary.txt 2>&1
