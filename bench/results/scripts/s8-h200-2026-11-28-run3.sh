#!/bin/bash
# Session 8 (2026-11-28), run 3: issue 47, the Python API. The GPU tests of the Python API
# Run 3: after run 2 (all 7 GPU tests passed; 17 us a call at n=1024, RawKernel 7.2): CuPy and
# PyTorch arrays read by their attributes, extents described only for errors, events of
# kernels left running reused; the timing script adds a breakdown of a call.
# (tests/python_api/test_pyapi_gpu.py: CuPy, PyTorch, DLPack, Numba arrays; calls that return
# before their kernels end), then bench/python_api_timing.py (ompgpu beside CuPy RawKernel and
# ElementwiseKernel, Numba-CUDA and PyTorch; compile latency), at $COMMIT.
set -u
R=/tmp/res3; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version;
  python3 -c "import cupy, numpy; print('cupy', cupy.__version__, 'numpy', numpy.__version__)";
  python3 -c "import torch; print('torch', torch.__version__)"; python3 -c "import numba; print('numba', numba.__version__)";
  python3 -c "import numba.cuda; print('numba.cuda ok')"; g++ --version | head -1; } > $R/env.txt 2>&1
SECONDS=0
timeout 400 python3 -m pytest -q -p no:cacheprovider tests/python_api/test_pyapi_gpu.py > $R/gpu-tests.txt 2>&1
echo "gpu tests done at $SECONDS s" >> $R/times.txt
timeout 150 python3 bench/python_api_timing.py --csv $R/python-api.csv > $R/python-api.txt 2>&1
echo "timing done at $SECONDS s" >> $R/times.txt
tar czf $OUT/res3.tgz -C /tmp res3
{ cat $R/env.txt; tail -5 $R/gpu-tests.txt; cat $R/python-api.txt; cat $R/times.txt; } > $OUT/summary.txt
