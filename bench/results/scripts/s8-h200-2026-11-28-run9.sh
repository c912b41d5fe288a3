#!/bin/bash
# Session 8 (2026-11-28), run 9: issue 47 at $COMMIT, the closing run: the GPU tests of the
# Python API, then bench/python_api_timing.py twice (ompgpu beside CuPy RawKernel and
# ElementwiseKernel, PyTorch; compile latency) and the breakdown.
set -u
R=/tmp/res9; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
timeout 300 python3 -m pytest -q -p no:cacheprovider tests/python_api/test_pyapi_gpu.py > $R/gpu-tests.txt 2>&1
for i in 1 2; do timeout 150 python3 bench/python_api_timing.py --csv $R/python-api-$i.csv > $R/python-api-$i.txt 2>&1; done
timeout 120 python3 bench/python_api_overhead.py 5000 > $R/overhead.txt 2>&1
cp $R/* $OUT/ 2>/dev/null
{ tail -2 $R/gpu-tests.txt; for i in 1 2; do grep -v -i warn $R/python-api-$i.txt; done; } > $OUT/summary.txt
