#!/bin/bash
# Session 20 run 3 (issue 48: btree's SPMD kernel slower than at 9ac09bb; issue 49: copies), A/B
# alternated: .now / .old = before the change (984e0fe / 4dc1666: copy helpers that find no work
# yield in a loop for 100 us before sleeping, also after a construct's last copy), .fix = the
# helpers spin only while a staged copy is in flight (sleep at once otherwise), .9ac = 9ac09bb.
# btree SPMD five rounds (BENCH_REPS=11, median kernel ms; .now also with OMPGPU_COPY_THREADS=0:
# no helpers); bench/startup's transfer (to 64 MB) and region_cost three rounds each.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s20ab2.tar.xz)
D=.devbuild/ab2
export OMP_TARGET_OFFLOAD=MANDATORY
med() {  # med [ENV=V ...] BIN: "median-kernel-ms/passes"
  local out; out=$(env BENCH_REPS=11 "$@" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 6p)/$(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  echo "$i btree-spmd now $(med $D/btree.spmd.now) fix $(med $D/btree.spmd.fix) 9ac $(med $D/btree.spmd.9ac)" \
       "now-nohelpers $(med OMPGPU_COPY_THREADS=0 $D/btree.spmd.now) bfs-persist $(med $D/bfs.persist)" >> $R/ab.txt
done
for i in 1 2 3; do
  for v in old fix; do
    echo "== round $i $v" >> $R/transfer.txt; timeout 120 $D/transfer.$v 64 >> $R/transfer.txt 2>&1
    echo "== round $i $v" >> $R/region_cost.txt; timeout 60 $D/region_cost.$v >> $R/region_cost.txt 2>&1
  done
done
cd $R && tar czf all.tgz *.txt && rm -f *.txt
