#!/bin/bash
# Session 12 run 7: the nested kernels furthest behind CUDA (streamcluster, btree): ompgpu at
# d5ed612 (old/) and with SPMD serial code's needless barriers gone (new/, 57cac5e), CUDA;
# launch shapes (OMPGPU_INFO), kernel times (OMPGPU_PROFILE), and ncu's kernel durations.
set -u
R=$OUT/r; mkdir -p $R
cd /tmp && tar xJf $OLDPWD/.devbuild/s12r7.tar.xz && cd /tmp/s12r7
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt
python3 new/run.py run new --reps=9 --budget=60 --csv=$R/new.csv --log=$R/new.log > $R/new-summary.txt 2>&1
python3 new/run.py run old --reps=9 --budget=60 --csv=$R/old.csv --log=$R/old.log > $R/old-summary.txt 2>&1
for b in streamcluster.ompgpu.nested streamcluster.ompgpu.spmd btree.ompgpu.nested btree.ompgpu.spmd; do
  echo "== $b" >> $R/info.txt
  BENCH_REPS=1 OMPGPU_INFO=1 new/bin/$b 2>&1 | grep -E "teams x" | sort | uniq -c | head -5 >> $R/info.txt
  BENCH_REPS=3 OMPGPU_PROFILE=1 new/bin/$b 2>&1 | grep -E "^(streamcluster|btree).c|location" >> $R/info.txt
done
M=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread,lts__t_bytes.sum,dram__bytes_read.sum
for b in streamcluster.ompgpu.nested streamcluster.cuda btree.ompgpu.nested btree.ompgpu.spmd btree.cuda; do
  echo "== $b" >> $R/ncu.txt
  BENCH_REPS=1 timeout 120 ncu --clock-control none --metrics $M -k regex:'main_l|pgain|lookup' -c 4 new/bin/$b 2>&1 | grep -E "main_l|pgain|lookup|duration|warps_active|grid_size|block_size|registers|bytes" >> $R/ncu.txt
done
