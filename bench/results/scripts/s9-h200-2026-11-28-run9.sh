#!/bin/bash
# Session 9 (2026-11-28), run 9: RSBench (ANL-CESAR/RSBench, kept outside the project, built on the
# CPU machine by bench/proxy_apps.py: ompgpu at $COMMIT, clang 19, CUDA; .devbuild/rsb), one rep per
# size and build (the session's device time was nearly spent).
set -u
R=/tmp/res9; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .devbuild/rsb/app.txt; } > $R/env.txt 2>&1 || true
(cd .devbuild && tar xJf rsb.tar.xz)
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .devbuild/rsb/app.txt; } > $R/env.txt 2>&1
( . .peers/bin/peer-env.sh
  timeout 170 python3 .devbuild/rsb/proxy_apps.py run .devbuild/rsb --reps 1 --csv $R/rsbench.csv > $R/rsbench.txt 2>&1 )
tar czf $OUT/res9.tgz -C /tmp res9
{ cat $R/env.txt; grep -v "^==\|^ompgpu:" $R/rsbench.txt | tail -20; } > $OUT/summary.txt
