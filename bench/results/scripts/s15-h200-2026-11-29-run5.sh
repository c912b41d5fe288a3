#!/bin/bash
# Session 15 run 5, an experiment: '#pragma unroll 1' on the cyclic worksharing loops of regions
# with a known team (loop.j2, schedule static, team_size; "exp", built from d03eb51 plus that line)
# against d03eb51's code ("base": run 3's ompgpu binaries, .devbuild/s15r3). Every ompgpu bench
# binary, base then exp, three rounds (median kernel time of 5 reps each, and PASS count).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s15r5.tar.xz && tar xJf s15r3.tar.xz)
run() {  # run BIN ARGS...: "median-kernel-ms status"
  local out; out=$(BENCH_REPS=5 OMP_TARGET_OFFLOAD=MANDATORY taskset -c 0,1 timeout 60 "$@" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 3p) $(echo "$out" | grep -c -x PASS)"
}
SECONDS=0
for i in 1 2 3; do
  for b in .devbuild/s15r5/exp/bin/*.ompgpu.*; do
    n=$(basename $b)
    echo "$i $n base $(run .devbuild/s15r3/bin/$n) exp $(run $b)" >> $R/alt.txt
  done
  echo "round $i done at $SECONDS s" >> $R/times.txt
  [ $SECONDS -gt 420 ] && break
done
cd $R && tar czf all.tgz *.txt && rm -f *.txt
