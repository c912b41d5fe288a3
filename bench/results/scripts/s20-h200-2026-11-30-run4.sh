#!/bin/bash
# Session 20 run 4 (issue 48), alternated five rounds, BENCH_REPS=11, median kernel ms and median
# end-to-end ms of each binary:
#   btree SPMD at 984e0fe (.now) and 9ac09bb (.9ac), each with small copies deferred (the default
#     since 8d6a4a8: a copy under the staging threshold returns once the driver holds the data, and
#     the next kernel on the stream waits for it) and with OMPGPU_DEFERRED_COPIES=0
#   lud and streamcluster nested (984e0fe) with the default team count (one wave) and with
#     OMP_NUM_TEAMS=1023, 512, 256 (lud's distribute loops run n - k - 1 <= 1023 iterations)
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s20ab3.tar.xz)
D=.devbuild/ab3
export OMP_TARGET_OFFLOAD=MANDATORY
med() {  # med [ENV=V ...] BIN: "median-kernel-ms/median-e2e-ms/passes"
  local out; out=$(env BENCH_REPS=11 "$@" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 6p)/$(echo "$out" | grep kernel_ms | awk '{print $8}' | sort -n | sed -n 6p)/$(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  echo "$i btree-spmd now $(med $D/btree.spmd.now) 9ac $(med $D/btree.spmd.9ac)" \
       "now-sync $(med OMPGPU_DEFERRED_COPIES=0 $D/btree.spmd.now) 9ac-sync $(med OMPGPU_DEFERRED_COPIES=0 $D/btree.spmd.9ac)" >> $R/ab.txt
  echo "$i lud default $(med $D/lud.nested) t1023 $(med OMP_NUM_TEAMS=1023 $D/lud.nested)" \
       "t512 $(med OMP_NUM_TEAMS=512 $D/lud.nested) t256 $(med OMP_NUM_TEAMS=256 $D/lud.nested)" >> $R/ab.txt
  echo "$i streamcluster default $(med $D/streamcluster.nested) t2640 $(med OMP_NUM_TEAMS=2640 $D/streamcluster.nested)" \
       "t1320 $(med OMP_NUM_TEAMS=1320 $D/streamcluster.nested)" >> $R/ab.txt
done
OMPGPU_INFO=1 BENCH_REPS=1 $D/lud.nested 2>&1 | grep -m3 "teams x" > $R/info.txt
OMPGPU_INFO=1 BENCH_REPS=1 $D/streamcluster.nested 2>&1 | grep -m3 "teams x" >> $R/info.txt
cd $R && tar czf all.tgz *.txt && rm -f *.txt
