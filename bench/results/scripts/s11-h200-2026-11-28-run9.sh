#!/bin/bash
# Session 11 (2026-11-28), run 9 (issue 49), at 8d6a4a8: every run-and-check program built here
# in both modes and run on the GPU (deferred small copies, cached stores out of the staging
# buffers, the device cache's large classes); deferred_copies_threads 20 times each mode, and
# with OMPGPU_DEFERRED_COPIES=0; the transfer test (twice, and once without deferred copies)
# beside CUDA pageable; XSBench (ompgpu now and at 9ac09bb, clang 19, CUDA; 3 each).
set -u
R=/tmp/res9; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache9
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version; g++ --version | head -1; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s11h.tar.xz)
B=.devbuild/s11h/bin
. .peers/bin/peer-env.sh
SECONDS=0
python3 -m ompgpu cc --offload=cuda tests/programs/vec_add.c -o /tmp/warm > /dev/null 2>&1
for mode in auto generic; do
  mkdir -p /tmp/s-$mode && cp tests/gpu/programs.py /tmp/s-$mode/
  ls tests/programs/*.c | taskset -c 2-15 xargs -P 13 -I{} sh -c 'b=$(basename {} .c); if python3 -m ompgpu cc --offload=cuda --mode='$mode' {} -o /tmp/s-'$mode'/$b > /tmp/s-'$mode'/$b.buildlog 2>&1; then cp tests/programs/$b.expected /tmp/s-'$mode'/; else echo "BUILD-FAIL $b"; tail -20 /tmp/s-'$mode'/$b.buildlog; fi' > $R/build-$mode.txt 2>&1
done
echo "programs built at $SECONDS s" >> $R/times.txt
for mode in auto generic; do
  { echo "== GPU, --mode=$mode"; python3 /tmp/s-$mode/programs.py run /tmp/s-$mode; } > $R/programs-$mode.txt 2>&1
  for i in $(seq 20); do (cd /tmp/s-$mode && OMP_TARGET_OFFLOAD=MANDATORY ./deferred_copies_threads | tr '\n' ' '; echo); done > $R/deferred-$mode.txt 2>&1
  for i in $(seq 5); do (cd /tmp/s-$mode && OMPGPU_DEFERRED_COPIES=0 OMP_TARGET_OFFLOAD=MANDATORY ./deferred_copies_threads | tr '\n' ' '; echo); done >> $R/deferred-$mode.txt 2>&1
done
echo "programs ran at $SECONDS s" >> $R/times.txt
{
  echo "== ompgpu 1"; timeout 150 $B/transfer.ompgpu 1024
  echo "== ompgpu 2"; timeout 150 $B/transfer.ompgpu 1024
  echo "== ompgpu no-deferred"; OMPGPU_DEFERRED_COPIES=0 timeout 150 $B/transfer.ompgpu 1024
  echo "== cuda pageable"; timeout 150 $B/transfer.cuda pageable 1024
} > $R/transfer.txt 2>&1
cd $B
for b in ompgpu ompgpu9ac clang cuda; do
  for s in small large; do
    for r in 1 2 3; do
      echo "== $b $s $r"; timeout 120 ./XSBench.$b -m event -s $s 2>&1 | grep -i "runtime\|lookups/s\|verif\|error"
    done
  done
done > $R/xsbench.txt 2>&1
OMPGPU_PROFILE=1 timeout 60 ./XSBench.ompgpu -m event -s small > $R/xsbench-profile.txt 2>&1
cd - > /dev/null
echo "all done at $SECONDS s" >> $R/times.txt
tar czf $OUT/res9.tgz -C /tmp res9
{ cat $R/env.txt $R/times.txt; cat $R/build-*.txt | head; tail -n 1 $R/programs-*.txt; grep -v "^PASS" $R/programs-*.txt | head; sort $R/deferred-*.txt | uniq -c; cat $R/transfer.txt; grep "==\|Lookups/s" $R/xsbench.txt; } > $OUT/summary.txt 2>&1
