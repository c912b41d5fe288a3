#!/bin/bash
# Session 18 run 4 (issue 48) at the commit below: heartwall, gaussjordan and lavamd nested at this
# commit (heartwall's template now staged: a nest of two inner loops, a 10 KB copy) against run 2's
# binaries (a94d840) and CUDA's, five rounds alternated; the programs where the stagings apply in
# both modes, and under memcheck and racecheck in auto mode; heartwall's bench binary under both
# tools (2 frames).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s18r4.tar.xz)
D=.devbuild/s18r4
run() {  # run BIN: "median-kernel-ms passes"
  local out; out=$(BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 "$1" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  for k in heartwall gaussjordan lavamd; do
    echo "$i $k new $(run $D/bin/$k.ompgpu.nested) a94d840 $(run $D/bin/$k.ompgpu.nested.a94d840) cuda $(run $D/bin/$k.cuda)" >> $R/alt.txt
  done
done
python3 $D/programs.py run $D/auto --sanitize=memcheck,racecheck --timeout=300 --log=$R/programs-auto.log > $R/programs-auto.txt 2>&1
python3 $D/programs.py run $D/generic --timeout=60 --log=$R/programs-generic.log > $R/programs-generic.txt 2>&1
for tool in memcheck racecheck; do
  BENCH_REPS=1 OMP_TARGET_OFFLOAD=MANDATORY timeout 300 compute-sanitizer --tool=$tool --error-exitcode=99 $D/bin/heartwall.ompgpu.nested 2 > $R/san-heartwall-$tool.txt 2>&1
  echo "heartwall $tool rc=$?" >> $R/sanitize.txt
done
cd $R && tar czf all.tgz *.txt *.log && rm -f *.txt *.log
