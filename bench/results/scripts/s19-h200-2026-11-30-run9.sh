#!/bin/bash
# Session 19 run 9 at the commit below: the count's barrier as inline PTX (barrier.red.popc; it was
# __syncthreads_count in runs 1-8): the programs it applies to and their neighbours in both modes,
# memcheck and racecheck on counting_loops; btree's nested kernel now, at 35f93e3 and CUDA's, five
# rounds alternated (BENCH_REPS=11, median kernel_ms).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s19r9.tar.xz)
D=.devbuild/s19r9
python3 $D/programs.py run $D/pa --timeout=60 > $R/programs-auto.txt 2>&1
python3 $D/programs.py run $D/pg --timeout=60 > $R/programs-generic.txt 2>&1
mkdir -p $D/san && cp $D/pa/counting_loops $D/pa/counting_loops.expected $D/san/
python3 $D/programs.py run $D/san --sanitize=memcheck,racecheck --timeout=200 > $R/sanitize.txt 2>&1
run() {
  local out; out=$(BENCH_REPS=11 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 "$1" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 6p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do echo "$i now $(run $D/btree.nested) 35f93e3 $(run $D/btree.nested.35f93e3) cuda $(run $D/btree.cuda)" >> $R/alt.txt; done
cd $R && tar czf all.tgz *.txt && rm -f *.txt
