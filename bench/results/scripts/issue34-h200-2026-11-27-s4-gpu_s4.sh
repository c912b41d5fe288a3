#!/bin/bash
# Session 4 (2026-11-27), one call: issue 34's benchmarks (new ompgpu, clang 19, CUDA, and ompgpu
# at 5e9bf22 as the baseline) on cores 0-1 while every run-and-check program is built in both
# modes on cores 2-15; then the programs on the GPU, memcheck of the new ones, and the gpu-marked
# tests of the device link with nvJitLink. Everything lands in /tmp/res, tarred to $OUT.
set -u
R=/tmp/res; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; g++ --version | head -1; nvcc --version | tail -2 | head -1; python3 --version; } > $R/env.txt
(cd .devbuild && tar xJf b4.tar.xz && tar xJf b4o.tar.xz)
finish() { cp $R/*summary* $OUT/ 2>/dev/null; tar czf $OUT/res.tgz -C /tmp res; }
trap finish EXIT
build_programs() {
  for mode in auto generic; do
    mkdir -p /tmp/p-$mode && cp tests/gpu/programs.py /tmp/p-$mode/
    ls tests/programs/*.c | taskset -c 2-15 xargs -P 13 -I{} sh -c 'b=$(basename {} .c); if python3 -m ompgpu cc --offload=cuda --mode='$mode' {} -o /tmp/p-'$mode'/$b > /tmp/p-'$mode'/$b.buildlog 2>&1; then cp tests/programs/$b.expected /tmp/p-'$mode'/; else echo "BUILD-FAIL $b"; tail -20 /tmp/p-'$mode'/$b.buildlog; fi' > $R/build-$mode.txt 2>&1
  done
}
SECONDS=0
build_programs & BUILD=$!
( . .peers/bin/peer-env.sh
  taskset -c 0,1 python3 .devbuild/b4/run.py run .devbuild/b4 --reps=5 --budget=230 --csv=$R/b4.csv --log=$R/b4.log > $R/b4-summary.txt 2>&1
  echo "bench done at $SECONDS s" >> $R/times.txt
  taskset -c 0,1 python3 .devbuild/b4o/run.py run .devbuild/b4o --reps=5 --budget=60 --csv=$R/b4o.csv --log=$R/b4o.log > $R/b4o-summary.txt 2>&1 )
echo "baseline done at $SECONDS s" >> $R/times.txt
wait $BUILD; echo "programs built at $SECONDS s" >> $R/times.txt
for mode in auto generic; do
  { echo "== GPU, built on this machine, --mode=$mode"; cat $R/env.txt; timeout 100 python3 /tmp/p-$mode/programs.py run /tmp/p-$mode; } > $R/gpu-$mode.txt 2>&1
done
echo "programs run at $SECONDS s" >> $R/times.txt
for mode in auto generic; do
  mkdir -p /tmp/s-$mode; cp tests/gpu/programs.py /tmp/s-$mode/
  for b in $NEW; do cp /tmp/p-$mode/$b /tmp/p-$mode/$b.expected /tmp/s-$mode/ 2>/dev/null; done
  { echo "== compute-sanitizer memcheck, --mode=$mode"; timeout 60 python3 /tmp/s-$mode/programs.py run /tmp/s-$mode --sanitize=memcheck; } > $R/sanitize-$mode.txt 2>&1
done
echo "sanitized at $SECONDS s" >> $R/times.txt
OMPGPU_DEVICE_LINKER=nvjitlink timeout 120 python3 -m pytest -q -p no:cacheprovider -m gpu tests/driver/test_device_link.py tests/driver/test_device_image.py > $R/tier3-nvjitlink.txt 2>&1
echo "tier3 at $SECONDS s" >> $R/times.txt
tail -n 2 $R/*summary.txt $R/gpu-*.txt $R/sanitize-*.txt $R/tier3*.txt; cat $R/times.txt; grep -h FAIL $R/build-*.txt | head
