#!/bin/bash
# Session 12 run 6: the probe harness on G (d5ed612: the tiled path apart, no loop where the launch has a team per tile) and the stencils and jacobi built with it.
set -u
R=$OUT/r; mkdir -p $R
cd /tmp && tar xJf $OLDPWD/.devbuild/s12r6.tar.xz && cd /tmp/s12r6
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt
for v in G; do for r in 1 2 3 4; do echo "== $v" >> $R/harness.txt; h$v/harness_r$r | grep -E "sms|cuda2d|waves=0|tile1d" >> $R/harness.txt 2>&1; done; done
python3 new/run.py run new --reps=7 --budget=120 --csv=$R/new.csv --log=$R/new.log > $R/new-summary.txt 2>&1
