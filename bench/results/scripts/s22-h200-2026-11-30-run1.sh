#!/bin/bash
# Session 22 run 1 (issue 48, RSBench small at 0.9x CUDA): where the ~10 ms of RSBench's timed
# region outside its kernel go. An instrumented copy of RSBench's openmp-offload version (outside
# the repository: omp_get_wtime around the malloc, the target region and the host's sum over the
# 82 MB result array, plus a second sum to tell cache from DRAM) built by this tree; five runs with
# the defaults, three with OMPGPU_FRESH_PAGES=none, three with no copy helpers; CUDA beside.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; lscpu | grep -E "Model name|NUMA|L2|L3|Socket|Thread"; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf rsbi.tar.xz)
B=.devbuild/rsbi/bin
export OMP_TARGET_OFFLOAD=MANDATORY
for r in 1 2 3 4 5; do
  echo "== default $r" >> $R/runs.txt; timeout 60 $B/rsbench.ompgpu -m event -s small 2>&1 | grep -E "TIMING|Runtime|Lookups/s|Verification|valid" >> $R/runs.txt
done
for r in 1 2 3; do
  echo "== fresh_none $r" >> $R/runs.txt; OMPGPU_FRESH_PAGES=none timeout 60 $B/rsbench.ompgpu -m event -s small 2>&1 | grep -E "TIMING|Runtime|Lookups/s|valid" >> $R/runs.txt
  echo "== nohelpers $r" >> $R/runs.txt; OMPGPU_COPY_THREADS=0 timeout 60 $B/rsbench.ompgpu -m event -s small 2>&1 | grep -E "TIMING|Runtime|Lookups/s|valid" >> $R/runs.txt
  echo "== cuda $r" >> $R/runs.txt; timeout 60 $B/rsbench.cuda -m event -s small 2>&1 | grep -E "Runtime|Lookups/s|valid" >> $R/runs.txt
done
OMPGPU_INFO=1 OMPGPU_PROFILE=$R/trace.json timeout 60 $B/rsbench.ompgpu -m event -s small > $R/profile.txt 2>&1
cd $R && tar czf all.tgz *.txt *.json && rm -f trace.json
