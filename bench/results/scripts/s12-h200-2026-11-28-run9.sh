#!/bin/bash
# Session 12 run 9, at $COMMIT: every run-and-check program built here in both modes (NVRTC,
# this machine's g++ 13 and Python 3.12) and run on the GPU: the stencils' team tiles
# (tests/programs/stencil_tiles.c) among them.
set -u
R=$OUT/r; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache12
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version; g++ --version | head -1; } > $R/env.txt 2>&1
SECONDS=0
python3 -m ompgpu cc --offload=cuda tests/programs/vec_add.c -o /tmp/warm > /dev/null 2>&1
for mode in auto generic; do
  mkdir -p /tmp/s-$mode && cp tests/gpu/programs.py /tmp/s-$mode/
  ls tests/programs/*.c | xargs -P 15 -I{} sh -c 'b=$(basename {} .c); if python3 -m ompgpu cc --offload=cuda --mode='$mode' {} -o /tmp/s-'$mode'/$b > /tmp/s-'$mode'/$b.buildlog 2>&1; then cp tests/programs/$b.expected /tmp/s-'$mode'/; else echo "BUILD-FAIL $b"; tail -20 /tmp/s-'$mode'/$b.buildlog; fi' > $R/build-$mode.txt 2>&1
done
echo "programs built at $SECONDS s" >> $R/times.txt
for mode in auto generic; do
  { echo "== GPU, --mode=$mode"; python3 /tmp/s-$mode/programs.py run /tmp/s-$mode; } > $R/programs-$mode.txt 2>&1
done
echo "programs ran at $SECONDS s" >> $R/times.txt
for mode in auto generic; do (cd /tmp/s-$mode && OMPGPU_INFO=1 OMP_TARGET_OFFLOAD=MANDATORY ./stencil_tiles 2>&1) > $R/stencil_tiles-$mode.txt; done
