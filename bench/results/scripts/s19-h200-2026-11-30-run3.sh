#!/bin/bash
# Session 19 run 3 (issue 48) at the commit below: every run-and-check program on the GPU in both
# modes (built at 453ab2a..a15d667: counting loops, generic teams' thread limit); then every bench
# kernel built by ompgpu at 453ab2a against the same kernels built by 9ac09bb's compiler (the
# issue's baseline, from the same sources), one pass each, 5 reps each (run 2 is a second sample of
# the first).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s19r3.tar.xz)
D=.devbuild
python3 $D/pa/programs.py run $D/pa --timeout=60 --log=$R/programs-auto.log > $R/programs-auto.txt 2>&1
python3 $D/pg/programs.py run $D/pg --timeout=60 --log=$R/programs-generic.log > $R/programs-generic.txt 2>&1
python3 $D/s19bo/run.py run $D/s19bo --reps=5 --budget=120 --csv=$R/now.csv --log=$R/now.log > $R/now.txt 2>&1
python3 $D/s19b9/run.py run $D/s19b9 --reps=5 --budget=120 --csv=$R/9ac09bb.csv --log=$R/9ac09bb.log > $R/9ac09bb.txt 2>&1
# btree's nested kernel: 453ab2a's (the count's barrier, then the region's closing one), the final
# form (the count's barrier closes the region: bin/btree.ompgpu.nested.final, the commit below) and
# 9ac09bb's, alternated five times
run() {  # run BIN: "median-kernel-ms passes"
  local out; out=$(BENCH_REPS=11 OMP_TARGET_OFFLOAD=MANDATORY timeout 60 "$1" 2>&1)
  echo "$(echo "$out" | grep kernel_ms | awk '{print $6}' | sort -n | sed -n 6p) $(echo "$out" | grep -c -x PASS)"
}
for i in 1 2 3 4 5; do
  echo "$i 453ab2a $(run $D/s19bo/bin/btree.ompgpu.nested) final $(run $D/s19bo/bin/btree.ompgpu.nested.final) 9ac09bb $(run $D/s19b9/bin/btree.ompgpu.nested)" >> $R/btree-alt.txt
done
cd $R && tar czf all.tgz *.txt *.log *.csv && rm -f *.txt *.log *.csv
