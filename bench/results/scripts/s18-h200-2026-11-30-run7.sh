#!/bin/bash
# Session 18 run 7 (issue 48), an experiment at 30c605a: imghisto's nested kernel keeps the team's
# state for omp_get_thread_num / omp_get_num_threads in its region. Hand edits of its generated code
# (built with results/scripts/s18-variants/edit_build.py): ih-a as generated; ih-b the two calls
# replaced by threadIdx.x and 256 (the team is the block); ih-c that, and no team state (the lean
# kernel's form: no kernel_init_spmd, the region closed by a block barrier). Five rounds alternated
# with CUDA's bench binary.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s18r7.tar.xz)
B=.devbuild/s18r7/exp
run() {  # run BIN: "median-kernel-ms passes"
  local out; out=$(BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 "$1" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  echo "$i imghisto a $(run $B/ih-a) b $(run $B/ih-b) c $(run $B/ih-c) cuda $(run $B/imghisto.cuda)" >> $R/alt.txt
done
cd $R && tar czf all.tgz *.txt && rm -f *.txt
