#!/bin/bash
# Session 19 run 1 at the commit below: every run-and-check program on the GPU in both modes (generic
# kernels now take the team's thread limit as a parameter, through the device image's launch too);
# btree's nested kernel in four forms of its level loop's region (bench/results/scripts/s19-variants):
#   a  as generated;  b  the region inlined, no closing barrier, all-reduce slots alternating by level;
#   c  b with __syncthreads_count for one key a thread;  d  the outlined region, no closing barrier,
#   slots alternating by level. Five rounds alternated, BENCH_REPS=11, median kernel_ms; a profile each.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s19r1.tar.xz)
D=.devbuild
python3 $D/pa/programs.py run $D/pa --timeout=60 --log=$R/programs-auto.log > $R/programs-auto.txt 2>&1
python3 $D/pg/programs.py run $D/pg --timeout=60 --log=$R/programs-generic.log > $R/programs-generic.txt 2>&1
run() {  # run BIN: "median-kernel-ms passes"
  local out; out=$(BENCH_REPS=11 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 "$1" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 6p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  line="$i"
  for v in a b c d cuda; do line="$line $v $(run $D/exp/btree_$v)"; done
  echo "$line" >> $R/alt.txt
done
for v in a b c d; do OMPGPU_PROFILE=1 BENCH_REPS=3 $D/exp/btree_$v > /dev/null 2> $R/profile-$v.txt; done
cd $R && tar czf all.tgz *.txt *.log && rm -f *.txt *.log
