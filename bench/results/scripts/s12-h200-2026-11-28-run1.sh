#!/bin/bash
# Session 12 run 1: stencil probe (generated kernel vs CUDA vs index-arithmetic variants), real binaries with profile, ncu durations
set -u
cd $(dirname $0)
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt
for r in 1 4; do ./harness_r$r > $R/harness_r$r.txt 2>&1; done
for r in 1 4; do
  BENCH_REPS=5 ./omp_r$r > $R/omp_r$r.txt 2>&1
  BENCH_REPS=5 ./cu_r$r > $R/cu_r$r.txt 2>&1
  BENCH_REPS=2 OMPGPU_PROFILE=1 ./omp_r$r > $R/omp_prof_r$r.txt 2>&1
  BENCH_REPS=1 OMPGPU_INFO=1 ./omp_r$r 2>&1 | grep -i "teams" | head -5 > $R/omp_info_r$r.txt
done
timeout 200 ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size -k regex:'main_l27|star' -c 6 ./omp_r1 > $R/ncu_omp_r1.txt 2>&1
timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size -k regex:'star' -c 6 ./cu_r1 > $R/ncu_cu_r1.txt 2>&1
