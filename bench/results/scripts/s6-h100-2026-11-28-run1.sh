#!/bin/bash
# Session 6 (2026-11-28), run 1: issues 46 and 47 on the GPU. Every run-and-check program built
# there (NVRTC or nvcc, both modes) and run, the new ones (task_sharing_in_parallel, section_rows,
# default_none_around_target, struct_member_arrays) also under memcheck; the Python API's gpu
# tests and its default-backend test (issue 47 item 1) on the GPU.
set -u
R=/tmp/res; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version; g++ --version | head -1; nvcc --version | tail -2 | head -1; } > $R/env.txt 2>&1
finish() { cp $R/*.txt $OUT/ 2>/dev/null; tar czf $OUT/res.tgz -C /tmp res; }
trap finish EXIT
SECONDS=0
python3 -m ompgpu cc --offload=cuda tests/programs/matmul.c -o /tmp/warm > /dev/null 2>&1   # the runtime library, once
for mode in auto generic; do
  mkdir -p /tmp/p-$mode && cp tests/gpu/programs.py /tmp/p-$mode/
  ls tests/programs/*.c | xargs -P 14 -I{} sh -c 'b=$(basename {} .c); if python3 -m ompgpu cc --offload=cuda --mode='$mode' {} -o /tmp/p-'$mode'/$b > /tmp/p-'$mode'/$b.buildlog 2>&1; then cp tests/programs/$b.expected /tmp/p-'$mode'/; else echo "BUILD-FAIL $b"; tail -20 /tmp/p-'$mode'/$b.buildlog; fi' > $R/build-$mode.txt 2>&1
  echo "built $mode at $SECONDS s" >> $R/times.txt
  { echo "== GPU, --mode=$mode"; python3 /tmp/p-$mode/programs.py run /tmp/p-$mode; } > $R/programs-$mode.txt 2>&1
  echo "ran $mode at $SECONDS s" >> $R/times.txt
  for b in task_sharing_in_parallel section_rows default_none_around_target struct_member_arrays; do
    echo "== memcheck $mode $b" >> $R/memcheck.txt
    (cd /tmp/p-$mode && OMP_TARGET_OFFLOAD=MANDATORY timeout 120 compute-sanitizer --tool memcheck ./$b) >> $R/memcheck.txt 2>&1
  done
done
echo "== Python API on the GPU" > $R/python-api.txt
timeout 400 python3 -m pytest -q -p no:cacheprovider -rA tests/python_api/test_pyapi_default_backend.py tests/python_api/test_pyapi_gpu.py >> $R/python-api.txt 2>&1
echo "python api at $SECONDS s" >> $R/times.txt
