#!/bin/bash
# Session 18 run 1, experiments (issue 48) at 4d974c4: hand edits of generated device code
# (results/scripts/s18-variants: gj-a.cu and lm-a.cu as generated, the edits as patches of them),
# built with results/scripts/s18-variants/edit_build.py (the translation's device code replaced,
# the rest of ompgpu cc as usual), five rounds alternated with CUDA's bench binary:
#   lavamd nested: lm-a as generated; lm-b the neighbour box's particles staged through shared
#   memory before the j loop; lm-c those loads through __ldg (the read-only path).
#   gaussjordan nested: gj-a as generated; gj-b the team's matrix staged through shared memory for
#   the team's whole iteration (in at its start, out at its end); gj-c gj-b without the barrier
#   before regions 2 and 3 (each follows region 1's or 2's closing barrier with no serial code
#   between); gj-d that alone.
# Then ncu's kernel durations: backprop (ompgpu nested, CUDA), lud (ompgpu nested, CUDA; 40 launches).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s18r1.tar.xz)
B=.devbuild/s18r1
run() {  # run BIN: "median-kernel-ms passes"
  local out; out=$(BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 "$1" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  echo "$i lavamd a $(run $B/lm-a) b $(run $B/lm-b) c $(run $B/lm-c) cuda $(run $B/bench/bin/lavamd.cuda)" >> $R/alt.txt
  echo "$i gaussjordan a $(run $B/gj-a) b $(run $B/gj-b) c $(run $B/gj-c) d $(run $B/gj-d) cuda $(run $B/bench/bin/gaussjordan.cuda)" >> $R/alt.txt
done
BENCH_REPS=1 OMP_TARGET_OFFLOAD=MANDATORY $B/lm-a > $R/sample-lm-a.txt 2>&1
M=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
BENCH_REPS=1 OMP_TARGET_OFFLOAD=MANDATORY timeout 120 ncu --metrics $M -k regex:main_l --csv $B/bench/bin/backprop.ompgpu.nested > $R/ncu-backprop-ompgpu.csv 2>&1
BENCH_REPS=1 timeout 120 ncu --metrics $M --csv $B/bench/bin/backprop.cuda > $R/ncu-backprop-cuda.csv 2>&1
BENCH_REPS=1 OMP_TARGET_OFFLOAD=MANDATORY timeout 120 ncu --metrics $M -k regex:main_l -c 40 --csv $B/bench/bin/lud.ompgpu.nested > $R/ncu-lud-ompgpu.csv 2>&1
BENCH_REPS=1 timeout 120 ncu --metrics $M -c 80 --csv $B/bench/bin/lud.cuda > $R/ncu-lud-cuda.csv 2>&1
BENCH_REPS=1 OMP_TARGET_OFFLOAD=MANDATORY timeout 120 ncu --metrics $M -k regex:main_l --csv $B/bench/bin/gaussjordan.ompgpu.nested > $R/ncu-gj-ompgpu.csv 2>&1
cd $R && tar czf all.tgz *.txt *.csv && rm -f *.txt *.csv
