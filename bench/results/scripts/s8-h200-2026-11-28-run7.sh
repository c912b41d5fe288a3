#!/bin/bash
# Session 8 (2026-11-28), run 7: OMPGPU_GRID_WAVES (a loop dealt out over the grid in at most
# that many waves of resident teams) across the whole bench: ompgpu at $COMMIT, clang 19 and
# CUDA (built on the CPU machine: .devbuild/s8), run with OMPGPU_GRID_WAVES=0 (one iteration per
# thread, as before) and with the default (4), alternating, in one call; then the Python API's
# timing at the default.
set -u
R=/tmp/res7; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s8.tar.xz)
SECONDS=0
( . .peers/bin/peer-env.sh
  for round in 1 2; do for w in 0 4; do
    OMPGPU_GRID_WAVES=$w taskset -c 0,1 python3 .devbuild/s8/run.py run .devbuild/s8 --reps=5 --budget=80 --csv=$R/waves$w-$round.csv > $R/waves$w-$round.txt 2>&1
    echo "waves $w round $round at $SECONDS s" >> $R/times.txt
  done; done )
timeout 150 python3 bench/python_api_timing.py --csv $R/python-api.csv > $R/python-api.txt 2>&1
tar czf $OUT/res7.tgz -C /tmp res7
{ cat $R/times.txt; grep -v -i warn $R/python-api.txt; } > $OUT/summary.txt
