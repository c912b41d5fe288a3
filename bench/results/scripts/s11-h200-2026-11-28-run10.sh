#!/bin/bash
# Session 11 (2026-11-28), run 10 (issue 49), at e95dbfd (the session's last runtime code):
# bench/startup side by side (first region and transfers: ompgpu, ompgpu without staging,
# clang 19, CUDA pageable and pinned; 3 runs, up to 1 GB).
set -u
R=/tmp/res10; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; uname -r; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s11i.tar.xz)
. .peers/bin/peer-env.sh
python3 .devbuild/s11i/startup.py run .devbuild/s11i --csv $R/startup.csv --runs 3 --max-mb 1024 > $R/startup-summary.txt 2>&1
tar czf $OUT/res10.tgz -C /tmp res10
cat $R/env.txt $R/startup-summary.txt > $OUT/summary.txt
