#!/bin/bash
# Session 8 (2026-11-28), run 6: issue 47 at $COMMIT: each function of a module a Python callable
# written in C (templates/pycall.c.j2; no ctypes on the common path). The GPU tests of the Python
# API, the breakdown and the timing; and saxpy's kernels at 2^24 (s8-saxpy-kernels-harness.cu,
# built on the CPU machine with nvcc 13.0 -O2 -arch=sm_90 beside the generated sx.device.cu):
# why ompgpu's saxpy takes 74 us where CuPy's RawKernel takes 62.
set -u
R=/tmp/res6; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf kx.tar.xz) && .devbuild/kx/saxpy_kernels > $R/kernels.txt 2>&1
timeout 300 python3 -m pytest -q -p no:cacheprovider tests/python_api/test_pyapi_gpu.py > $R/gpu-tests.txt 2>&1
timeout 120 python3 bench/python_api_overhead.py 5000 > $R/overhead.txt 2>&1
timeout 150 python3 bench/python_api_timing.py --csv $R/python-api.csv > $R/python-api.txt 2>&1
cp $R/* $OUT/
