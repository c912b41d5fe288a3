#!/bin/bash
# Session 5 (2026-11-27): every run-and-check program, built on the GPU machine at $COMMIT in both
# modes, run under compute-sanitizer memcheck, eight shards at a time (four per mode).
set -u
R=/tmp/res; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
finish() { tar czf $OUT/res.tgz -C /tmp res; }
trap finish EXIT
SECONDS=0
for mode in auto generic; do
  mkdir -p /tmp/p-$mode
  ls tests/programs/*.c | xargs -P 14 -I{} sh -c 'b=$(basename {} .c); if python3 -m ompgpu cc --offload=cuda --mode='$mode' {} -o /tmp/p-'$mode'/$b > /tmp/p-'$mode'/$b.buildlog 2>&1; then cp tests/programs/$b.expected /tmp/p-'$mode'/; else echo "BUILD-FAIL $b"; fi' > $R/build-$mode.txt 2>&1
  i=0
  for e in /tmp/p-$mode/*.expected; do
    s=/tmp/s-$mode-$((i % 4)); mkdir -p $s; cp tests/gpu/programs.py $s/
    b=${e%.expected}; cp $b $e $s/; i=$((i + 1))
  done
done
echo "built at $SECONDS s" >> $R/times.txt
for mode in auto generic; do
  for k in 0 1 2 3; do
    ( timeout 420 python3 /tmp/s-$mode-$k/programs.py run /tmp/s-$mode-$k --sanitize=memcheck > $R/memcheck-$mode-$k.txt 2>&1 ) &
  done
done
wait
echo "memcheck done at $SECONDS s" >> $R/times.txt
tail -qn 1 $R/memcheck-*.txt; grep -h "FAIL" $R/memcheck-*.txt $R/build-*.txt | head; cat $R/times.txt
