#!/bin/bash
# Session 9 (2026-11-28), run 1: issue 46 on the GPU: declare variant with construct selectors, unified shared memory through managed memory. The OpenMP
# validation suite (SOLLVE/sollve_vv d978684 in .sollve, outside the project) built here by ompgpu
# and run (bench/sollve.py: env tests with their variable set); every run-and-check program built
# here in both modes and run; memcheck of the new and changed programs.
set -u
R=/tmp/res1; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD OMPGPU_CACHE=/tmp/ompgpu-cache1
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version; g++ --version | head -1; nvcc --version | tail -2 | head -1; } > $R/env.txt 2>&1
SECONDS=0
python3 -m ompgpu cc --offload=cuda tests/programs/vec_add.c -o /tmp/warm > /dev/null 2>&1
python3 bench/sollve.py build .sollve /tmp/sollve1 --jobs 15 > $R/sollve-build.txt 2>&1
echo "sollve built at $SECONDS s" >> $R/times.txt
for mode in auto generic; do
  mkdir -p /tmp/s-$mode && cp tests/gpu/programs.py /tmp/s-$mode/
  ls tests/programs/*.c | taskset -c 2-15 xargs -P 13 -I{} sh -c 'b=$(basename {} .c); if python3 -m ompgpu cc --offload=cuda --mode='$mode' {} -o /tmp/s-'$mode'/$b > /tmp/s-'$mode'/$b.buildlog 2>&1; then cp tests/programs/$b.expected /tmp/s-'$mode'/; else echo "BUILD-FAIL $b"; tail -20 /tmp/s-'$mode'/$b.buildlog; fi' > $R/build-$mode.txt 2>&1
done
echo "programs built at $SECONDS s" >> $R/times.txt
# the suite alone on the machine (its taskloop_if test measures libgomp's scheduling)
python3 /tmp/sollve1/sollve.py run /tmp/sollve1 --timeout 30 --csv $R/sollve.csv > $R/sollve-run.txt 2>&1
cp /tmp/sollve1/builds.csv $R/sollve-builds.csv; echo "sollve ran at $SECONDS s" >> $R/times.txt
for mode in auto generic; do
  { echo "== GPU, --mode=$mode"; python3 /tmp/s-$mode/programs.py run /tmp/s-$mode; } > $R/programs-$mode.txt 2>&1
done
for b in construct_variants usm_managed_heap; do
  echo "== $b" >> $R/memcheck.txt
  (cd /tmp/s-auto && OMP_TARGET_OFFLOAD=MANDATORY timeout 120 compute-sanitizer --tool memcheck ./$b) 2>&1 | tail -3 >> $R/memcheck.txt
done
echo "== usm_managed_heap with OMPGPU_INFO" >> $R/memcheck.txt
(cd /tmp/s-auto && OMP_TARGET_OFFLOAD=MANDATORY OMPGPU_INFO=1 ./usm_managed_heap 2>&1 | grep -v "copy\|map " | head -20) >> $R/memcheck.txt
echo "all done at $SECONDS s" >> $R/times.txt
tar czf $OUT/res1.tgz -C /tmp res1
{ cat $R/times.txt; tail -n 3 $R/sollve-run.txt; grep -v "^PASS" $R/sollve-run.txt | head -20; tail -n 1 $R/programs-*.txt; grep -v "^PASS" $R/programs-*.txt | head; cat $R/memcheck.txt; } > $OUT/summary.txt 2>&1
