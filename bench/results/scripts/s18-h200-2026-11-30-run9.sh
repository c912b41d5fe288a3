#!/bin/bash
# Session 18 run 9 (issue 48) at the commit below: the run-and-check programs whose translation
# changed since run 3 (a94d840): those that call omp_get_thread_num or omp_get_num_threads, and the
# ones the stagings apply to, in auto mode, memcheck and racecheck on team_positions; imghisto's
# nested kernel at this commit against a94d840's and CUDA's, five rounds alternated.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s18r8p.tar.xz)
D=.devbuild/s18r8p
python3 $D/programs.py run $D/auto --timeout=60 --log=$R/programs-auto.log > $R/programs-auto.txt 2>&1
mkdir -p $D/san && cp $D/auto/team_positions $D/auto/team_positions.expected $D/san/
python3 $D/programs.py run $D/san --sanitize=memcheck,racecheck --timeout=300 --log=$R/sanitize.log > $R/sanitize.txt 2>&1
run() {  # run BIN: "median-kernel-ms passes"
  local out; out=$(BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 "$1" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  echo "$i imghisto new $(run $D/bin/imghisto.ompgpu.nested) a94d840 $(run $D/bin/imghisto.ompgpu.nested.a94d840) cuda $(run $D/bin/imghisto.cuda)" >> $R/alt.txt
done
cd $R && tar czf all.tgz *.txt *.log && rm -f *.txt *.log
