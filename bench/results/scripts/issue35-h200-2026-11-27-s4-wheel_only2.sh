#!/bin/bash
# Issue 35 on the GPU machine, NVIDIA's pip wheels alone (the CUDA toolkit hidden by a private
# mount namespace): doctor; the programs the wheel-only run of a3f1f92 could not build
# (relocatable device code, declare target indirect, a flexible array member) and the spread
# programs, built there in both modes and run; the gpu tests of the device link (nvJitLink).
set -u
rm -rf /tmp/site /tmp/w-auto /tmp/w-generic
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl .devbuild/wheels/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache-$$
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version; g++ --version | head -1; } > $OUT/env.txt
cat > /tmp/inner.sh <<'INNER'
set -u
for d in /usr/local/cuda*; do real=$(readlink -f "$d"); [ -d "$real" ] && mount -t tmpfs none "$real"; done
export PATH=$(echo "$PATH" | tr ':' '\n' | grep -v cuda | paste -sd:)
unset CUDA_HOME CUDA_PATH
echo "== nvcc on PATH: $(command -v nvcc || echo none); /usr/local/cuda/bin: $(ls /usr/local/cuda/bin 2>/dev/null | wc -l) files"
python3 -m ompgpu doctor
for mode in auto generic; do
  mkdir -p /tmp/w-$mode && cp tests/gpu/programs.py /tmp/w-$mode/
  for b in $PROGS; do
    if python3 -m ompgpu cc -v --offload=cuda --mode=$mode tests/programs/$b.c -o /tmp/w-$mode/$b > /tmp/w-$mode/$b.buildlog 2>&1; then cp tests/programs/$b.expected /tmp/w-$mode/; else echo "BUILD-FAIL $mode $b: $(grep -m3 -i "error" /tmp/w-$mode/$b.buildlog | tr "\n" " " | cut -c1-400)"; fi &
  done
  wait
  echo "== device compilers used ($mode):"; grep -h -o "^ompgpu: NVRTC [0-9.]*\|^ompgpu: nvJitLink[^:]*\|/nvcc " /tmp/w-$mode/*.buildlog | sort | uniq -c
  { echo "== GPU, built here with the NVIDIA wheels alone (no CUDA toolkit), --mode=$mode"; python3 /tmp/w-$mode/programs.py run /tmp/w-$mode; } 2>&1
done
echo "== gpu tests of the device link, toolkit hidden"
timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu tests/driver/test_device_link.py 2>&1 | tail -5
INNER
unshare -m bash /tmp/inner.sh > $OUT/wheel-only.txt 2>&1
tail -n 40 $OUT/wheel-only.txt
