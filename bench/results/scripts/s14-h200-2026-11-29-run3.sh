#!/bin/bash
# Session 14 run 3, side-by-side at ab740d6: every bench kernel (ompgpu, clang 19, CUDA and its
# cooperative kernels; built on the CPU machine into .devbuild/s14r3/full), then btree and
# streamcluster nested alternated three times between 20a1c06 (old) and ab740d6 (new), CUDA beside.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s14r3.tar.xz)
F=.devbuild/s14r3/full
SECONDS=0
( . .peers/bin/peer-env.sh
  taskset -c 0,1 python3 $F/run.py run $F --reps=5 --budget=330 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
echo "bench done at $SECONDS s" >> $R/times.txt
med() { BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 timeout 60 "$@" 2>/dev/null | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p; }
for i in 1 2 3; do
  for k in btree streamcluster; do
    echo "$i $k nested old $(med .devbuild/s14r3/old/$k.ompgpu.nested) new $(med $F/bin/$k.ompgpu.nested) cuda $(med $F/bin/$k.cuda)" >> $R/alt.txt
  done
done
echo "all done at $SECONDS s" >> $R/times.txt
(cd $R && tar czf ../all.tgz . ) && rm -rf $R && mkdir -p $R && mv $OUT/all.tgz $R/
