#!/bin/bash
# Session 20 run 2 (issue 48): A/B of this session's two changes and of btree's SPMD kernel against
# 9ac09bb, alternated five rounds, BENCH_REPS=11, the median kernel ms of each binary.
#   transpose nested: .tile (984e0fe: a team's own transposing nest staged through shared memory),
#     .notile (4dc1666, the commit before), .9ac (9ac09bb); with OMP_NUM_TEAMS unset, 1024 and 768
#   bfs nested: .persist (984e0fe: the host loop of packed regions as one persistent kernel),
#     .nopersist (aaf7d5d), .9ac; the persistent one with OMPGPU_LOOP_TEAMS unset (1056), 2112, 528
#   btree spmd: .now (984e0fe), .9ac
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s20ab.tar.xz)
D=.devbuild/ab
med() {  # med [ENV=V ...] BIN: "median-kernel-ms passes"
  local out; out=$(env BENCH_REPS=11 OMP_TARGET_OFFLOAD=MANDATORY "$@" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 6p)/$(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  echo "$i transpose tile $(med $D/transpose.tile) notile $(med $D/transpose.notile) 9ac $(med $D/transpose.9ac)" \
       "tile@1024 $(med OMP_NUM_TEAMS=1024 $D/transpose.tile) notile@1024 $(med OMP_NUM_TEAMS=1024 $D/transpose.notile)" \
       "tile@768 $(med OMP_NUM_TEAMS=768 $D/transpose.tile) notile@768 $(med OMP_NUM_TEAMS=768 $D/transpose.notile)" >> $R/ab.txt
  echo "$i bfs persist $(med $D/bfs.persist) nopersist $(med $D/bfs.nopersist) 9ac $(med $D/bfs.9ac)" \
       "persist@2112 $(med OMPGPU_LOOP_TEAMS=2112 $D/bfs.persist) persist@528 $(med OMPGPU_LOOP_TEAMS=528 $D/bfs.persist)" >> $R/ab.txt
  echo "$i btree-spmd now $(med $D/btree.spmd.now) 9ac $(med $D/btree.spmd.9ac)" >> $R/ab.txt
done
OMPGPU_INFO=1 BENCH_REPS=1 OMP_NUM_TEAMS=1024 $D/transpose.tile > $R/info-transpose-1024.txt 2>&1
cd $R && tar czf all.tgz *.txt && rm -f *.txt
