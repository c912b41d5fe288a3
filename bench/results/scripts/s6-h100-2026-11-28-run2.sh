#!/bin/bash
# Session 6 (2026-11-28), runs 2 and 3: issue 46 on the GPU (run 3: the suite's libompvv.a linked, as its Makefile does). The OpenMP validation suite (SOLLVE/sollve_vv
# d978684, its tests/4.5, 5.0, 5.1 and ompvv carried in .sollve, outside the project) built there
# by ompgpu (bench/sollve.py, -O3, 14 at a time) and run; every run-and-check program built there
# in both modes and run (the new ones: pointer_variable_maps, directive_macros).
set -u
R=/tmp/res; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version; g++ --version | head -1; nvcc --version | tail -2 | head -1; } > $R/env.txt 2>&1
finish() { cp $R/*.txt $R/*.csv $OUT/ 2>/dev/null; }
trap finish EXIT
SECONDS=0
python3 -m ompgpu cc --offload=cuda tests/programs/matmul.c -o /tmp/warm > /dev/null 2>&1   # the runtime library, once
python3 bench/sollve.py build .sollve /tmp/sollve --jobs 14 > $R/sollve-build.txt 2>&1
echo "sollve built at $SECONDS s" >> $R/times.txt
python3 /tmp/sollve/sollve.py run /tmp/sollve --timeout 30 --csv $R/sollve.csv > $R/sollve-run.txt 2>&1
cp /tmp/sollve/builds.csv $R/sollve-builds.csv
echo "sollve ran at $SECONDS s" >> $R/times.txt
for mode in auto generic; do
  mkdir -p /tmp/p-$mode && cp tests/gpu/programs.py /tmp/p-$mode/
  ls tests/programs/*.c | xargs -P 14 -I{} sh -c 'b=$(basename {} .c); if python3 -m ompgpu cc --offload=cuda --mode='$mode' {} -o /tmp/p-'$mode'/$b > /tmp/p-'$mode'/$b.buildlog 2>&1; then cp tests/programs/$b.expected /tmp/p-'$mode'/; else echo "BUILD-FAIL $b"; tail -20 /tmp/p-'$mode'/$b.buildlog; fi' > $R/build-$mode.txt 2>&1
  { echo "== GPU, --mode=$mode"; python3 /tmp/p-$mode/programs.py run /tmp/p-$mode; } > $R/programs-$mode.txt 2>&1
  echo "programs $mode at $SECONDS s" >> $R/times.txt
done
