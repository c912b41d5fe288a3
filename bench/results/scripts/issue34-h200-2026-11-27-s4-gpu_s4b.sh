#!/bin/bash
# Session 4 (2026-11-27), second call: issue 34's jobs (b5: every kernel and variant at the new
# commit with clang 19 and CUDA), ompgpu nested at bdf0f61 (b4n) and 5e9bf22 (b4o) in the same
# run; extra runs of the new and the bdf0f61 builds on other inputs (sparserows without long rows,
# particlefilter and haccmk with regions long enough to be published); every program in both
# modes; memcheck of the spread programs; the gpu tests of the device link with nvJitLink.
set -u
R=/tmp/res; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; g++ --version | head -1; nvcc --version | tail -2 | head -1; python3 --version; python3 -m pytest --version; } > $R/env.txt 2>&1
(cd .devbuild && for t in b5 b4n b4o; do tar xJf $t.tar.xz; done)
build_programs() {
  for mode in auto generic; do
    mkdir -p /tmp/p-$mode && cp tests/gpu/programs.py /tmp/p-$mode/
    ls tests/programs/*.c | taskset -c 2-15 xargs -P 13 -I{} sh -c 'b=$(basename {} .c); if python3 -m ompgpu cc --offload=cuda --mode='$mode' {} -o /tmp/p-'$mode'/$b > /tmp/p-'$mode'/$b.buildlog 2>&1; then cp tests/programs/$b.expected /tmp/p-'$mode'/; else echo "BUILD-FAIL $b"; tail -20 /tmp/p-'$mode'/$b.buildlog; fi' > $R/build-$mode.txt 2>&1
  done
}
SECONDS=0
build_programs & BUILD=$!
( . .peers/bin/peer-env.sh
  for b in b5 b4n b4o; do
    bud=60; [ $b = b5 ] && bud=230
    taskset -c 0,1 python3 .devbuild/$b/run.py run .devbuild/$b --reps=5 --budget=$bud --csv=$R/$b.csv --log=$R/$b.log > $R/$b-summary.txt 2>&1
    echo "$b done at $SECONDS s" >> $R/times.txt
  done
  for b in b5 b4n; do
    for run in "sparserows 1048576 64" "sparserows 1048576 1048576" "particlefilter 20000" "haccmk 16384 16384" "haccmk 16384 4096"; do
      set -- $run
      echo "== $b $run" >> $R/extra.txt
      BENCH_REPS=5 taskset -c 0,1 timeout 60 .devbuild/$b/bin/$1.ompgpu.nested ${@:2} >> $R/extra.txt 2>&1
    done
  done )
echo "extras done at $SECONDS s" >> $R/times.txt
wait $BUILD; echo "programs built at $SECONDS s" >> $R/times.txt
for mode in auto generic; do
  { echo "== GPU, built on this machine, --mode=$mode"; cat $R/env.txt; timeout 100 python3 /tmp/p-$mode/programs.py run /tmp/p-$mode; } > $R/gpu-$mode.txt 2>&1
done
for mode in auto generic; do
  mkdir -p /tmp/s-$mode; cp tests/gpu/programs.py /tmp/s-$mode/
  for b in $NEW; do cp /tmp/p-$mode/$b /tmp/p-$mode/$b.expected /tmp/s-$mode/ 2>/dev/null; done
  { echo "== compute-sanitizer memcheck, --mode=$mode"; timeout 80 python3 /tmp/s-$mode/programs.py run /tmp/s-$mode --sanitize=memcheck; } > $R/sanitize-$mode.txt 2>&1
done
echo "programs done at $SECONDS s" >> $R/times.txt
OMPGPU_DEVICE_LINKER=nvjitlink timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu tests/driver/test_device_link.py tests/driver/test_device_image.py > $R/tier3-nvjitlink.txt 2>&1
echo "tier3 at $SECONDS s" >> $R/times.txt
tail -n 2 $R/*summary.txt $R/gpu-*.txt $R/sanitize-*.txt $R/tier3*.txt; cat $R/times.txt; grep -h FAIL $R/build-*.txt | head
