#!/bin/bash
# Session 4 (2026-11-27), sixth call: spread jobs by launch epoch (b9: ompgpu nested at the new
# commit), clang 19 nested and CUDA (b5c, built at 6a7f421 from the same sources), ompgpu nested
# at 5e9bf22 (b4o); each twice, interleaved. Extras on other inputs, ncu of
# particlefilter's two kernels (new vs 5e9bf22), every program in both modes, memcheck of the
# spread programs.
set -u
R=/tmp/res; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; g++ --version | head -1; nvcc --version | tail -2 | head -1; } > $R/env.txt 2>&1
(cd .devbuild && for t in b9 b5c b4o; do tar xJf $t.tar.xz; done)
build_programs() {
  for mode in auto generic; do
    mkdir -p /tmp/p-$mode && cp tests/gpu/programs.py /tmp/p-$mode/
    ls tests/programs/*.c | taskset -c 2-15 xargs -P 13 -I{} sh -c 'b=$(basename {} .c); if python3 -m ompgpu cc --offload=cuda --mode='$mode' {} -o /tmp/p-'$mode'/$b > /tmp/p-'$mode'/$b.buildlog 2>&1; then cp tests/programs/$b.expected /tmp/p-'$mode'/; else echo "BUILD-FAIL $b"; tail -20 /tmp/p-'$mode'/$b.buildlog; fi' > $R/build-$mode.txt 2>&1
  done
}
SECONDS=0
build_programs & BUILD=$!
( . .peers/bin/peer-env.sh
  for b in b9 b5c b4o b9; do
    n=1; [ -f $R/$b.csv ] && n=2
    taskset -c 0,1 python3 .devbuild/$b/run.py run .devbuild/$b --reps=5 --budget=60 --csv=$R/$b-$n.csv --log=$R/$b-$n.log > $R/$b-$n-summary.txt 2>&1
    cp $R/$b-$n.csv $R/$b.csv
    echo "$b ($n) done at $SECONDS s" >> $R/times.txt
  done
  for b in b9; do
    for run in "sparserows 1048576 64" "sparserows 1048576 1048576" "particlefilter 20000" "haccmk 16384 16384"; do
      set -- $run
      echo "== $b $run" >> $R/extra.txt
      BENCH_REPS=5 taskset -c 0,1 timeout 60 .devbuild/$b/bin/$1.ompgpu.nested ${@:2} >> $R/extra.txt 2>&1
    done
    BENCH_REPS=1 timeout 60 ncu --metrics gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active -k regex:main_l --csv .devbuild/$b/bin/particlefilter.ompgpu.nested > $R/ncu-particlefilter-$b.csv 2> $R/ncu-particlefilter-$b.err
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
tail -n 2 $R/*summary.txt $R/gpu-*.txt $R/sanitize-*.txt; cat $R/times.txt; grep -h FAIL $R/build-*.txt | head
