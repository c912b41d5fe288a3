#!/bin/bash
# Session 12 run 4: the stencil probe harness (scripts/s12-stencil-probe-harness.cu) on three
# forms of the generated kernel at radius 1-4: A as committed at 0f4eda9, B with the tile counts
# in 32 bits, C = B with the tiled path forced (no general path); the stencils as built with B.
set -u
R=$OUT/r; mkdir -p $R
cd /tmp && tar xJf $OLDPWD/.devbuild/s12r4.tar.xz && cd /tmp/s12r4
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt
for v in A B C; do for r in 1 2 3 4; do echo "== $v" >> $R/harness.txt; h$v/harness_r$r | grep -E "sms|cuda2d|waves=0|tile1d" >> $R/harness.txt 2>&1; done; done
python3 new/run.py run new --reps=7 --budget=120 --csv=$R/new.csv --log=$R/new.log > $R/new-summary.txt 2>&1
