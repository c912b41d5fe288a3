#!/bin/bash
# Session 8 (2026-11-28), run 4: issue 47, where a Python API call's host time goes
# (bench/python_api_overhead.py) at $COMMIT, after run 3 measured 13.9 us for the entry of
# saxpy with its arguments ready (CuPy RawKernel's whole call: 9.5 us).
set -u
R=/tmp/res4; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
timeout 300 python3 bench/python_api_overhead.py 5000 > $R/overhead.txt 2>&1
timeout 120 python3 bench/python_api_overhead.py 5000 > $R/overhead-again.txt 2>&1
cp $R/* $OUT/
