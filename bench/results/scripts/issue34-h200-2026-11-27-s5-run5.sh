#!/bin/bash
# Session 5 (2026-11-27), run 5: issue 34, the session's last code (32-bit counters for searches only).
# Benchmarks: ompgpu nested at the last commit (new5) twice, clang 19 nested and CUDA (peer, built at
# fc7e5c5 from the same sources), ompgpu nested at d52c69a (new4, run 4's binaries); extras:
# sparserows without long rows, ncu of particlefilter's kernels (new5, new4), memcheck of
# sparserows and particlefilter, memcheck/racecheck of streamcluster. Then every run-and-check
# program built here in both modes and run; memcheck and racecheck of the programs in $NEW.
set -u
R=/tmp/res; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; g++ --version | head -1; nvcc --version | tail -2 | head -1; } > $R/env.txt 2>&1
(cd .devbuild && for t in new5 peer new4; do tar xJf $t.tar.xz; done)
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
  for b in new5 peer new4 new5; do
    n=1; [ -f $R/$b.csv ] && n=2
    taskset -c 0,1 python3 .devbuild/$b/run.py run .devbuild/$b --reps=5 --budget=60 --csv=$R/$b-$n.csv --log=$R/$b-$n.log > $R/$b-$n-summary.txt 2>&1
    cp $R/$b-$n.csv $R/$b.csv
    echo "$b ($n) done at $SECONDS s" >> $R/times.txt
  done
  for b in new5; do
    echo "== $b sparserows 1048576 64" >> $R/extra.txt
    BENCH_REPS=5 taskset -c 0,1 timeout 60 .devbuild/$b/bin/sparserows.ompgpu.nested 1048576 64 >> $R/extra.txt 2>&1
  done
  timeout 120 compute-sanitizer --tool memcheck .devbuild/new5/bin/sparserows.ompgpu.nested 65536 65536 > $R/memcheck-sparserows.txt 2>&1
  BENCH_REPS=1 timeout 120 compute-sanitizer --tool memcheck .devbuild/new5/bin/streamcluster.ompgpu.nested 8192 2 > $R/memcheck-streamcluster.txt 2>&1
  BENCH_REPS=1 timeout 120 compute-sanitizer --tool racecheck .devbuild/new5/bin/streamcluster.ompgpu.nested 8192 2 > $R/racecheck-streamcluster.txt 2>&1
  BENCH_REPS=1 timeout 120 compute-sanitizer --tool memcheck .devbuild/new5/bin/particlefilter.ompgpu.nested > $R/memcheck-particlefilter.txt 2>&1
  for b in new5 new4; do BENCH_REPS=2 timeout 60 ncu --metrics gpu__time_duration.sum -k regex:main_l --csv .devbuild/$b/bin/particlefilter.ompgpu.nested > $R/ncu-particlefilter-$b.csv 2>&1; done )
echo "bench done at $SECONDS s" >> $R/times.txt
wait $BUILD; echo "programs built at $SECONDS s" >> $R/times.txt
for mode in auto generic; do
  { echo "== GPU, built on this machine, --mode=$mode"; cat $R/env.txt; timeout 100 python3 /tmp/p-$mode/programs.py run /tmp/p-$mode; } > $R/gpu-$mode.txt 2>&1
done
for mode in auto generic; do
  mkdir -p /tmp/s-$mode; cp tests/gpu/programs.py /tmp/s-$mode/
  for b in $NEW; do cp /tmp/p-$mode/$b /tmp/p-$mode/$b.expected /tmp/s-$mode/ 2>/dev/null; done
  { echo "== compute-sanitizer memcheck, --mode=$mode"; timeout 80 python3 /tmp/s-$mode/programs.py run /tmp/s-$mode --sanitize=memcheck; } > $R/sanitize-$mode.txt 2>&1
  { echo "== compute-sanitizer racecheck, --mode=$mode"; timeout 80 python3 /tmp/s-$mode/programs.py run /tmp/s-$mode --sanitize=racecheck; } > $R/racecheck-$mode.txt 2>&1
done
echo "programs done at $SECONDS s" >> $R/times.txt
tail -n 2 $R/*summary.txt $R/gpu-*.txt $R/sanitize-*.txt $R/racecheck-*.txt; tail -3 $R/memcheck-sparserows.txt $R/memcheck-particlefilter.txt $R/memcheck-streamcluster.txt $R/racecheck-streamcluster.txt; cat $R/extra.txt | grep -v "^ompgpu"; cat $R/times.txt; grep -h FAIL $R/build-*.txt | head
