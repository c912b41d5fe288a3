#!/bin/bash
# Session 8 (2026-11-28), run 5: issue 47 at $COMMIT, after run 4's breakdown: the call's
# conversion written per signature, device arrays entered under one lock. The GPU tests of
# the Python API, the breakdown (bench/python_api_overhead.py) and the timing
# (bench/python_api_timing.py); whether perf and Python's headers are on the machine.
set -u
R=/tmp/res5; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader;
  which perf ltrace valgrind; python3 -c "import sysconfig, os; p = sysconfig.get_paths()['include']; print(p, os.path.exists(p + '/Python.h'))"; } > $R/env.txt 2>&1
timeout 300 python3 -m pytest -q -p no:cacheprovider tests/python_api/test_pyapi_gpu.py > $R/gpu-tests.txt 2>&1
timeout 120 python3 bench/python_api_overhead.py 5000 > $R/overhead.txt 2>&1
timeout 150 python3 bench/python_api_timing.py --csv $R/python-api.csv > $R/python-api.txt 2>&1
cp $R/* $OUT/
