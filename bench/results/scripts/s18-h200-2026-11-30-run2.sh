#!/bin/bash
# Session 18 run 2 (issue 48) at the commit below: the side-by-side bench (ompgpu, clang 19, CUDA;
# every kernel, 5 reps), the run-and-check programs in both modes, and compute-sanitizer's memcheck
# and racecheck on the programs where the new stagings apply (team_segments, broadcast_operands,
# heartwall, matmul: auto mode) and on the bench's gaussjordan and lavamd nested (small inputs);
# backprop's adjustment kernel under ncu at four team counts.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s18r2.tar.xz)
D=.devbuild/s18r2
( . .peers/bin/peer-env.sh
  python3 $D/bench/run.py run $D/bench --reps=5 --budget=330 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1 )
for k in gaussjordan:256 lavamd:3; do
  b=${k%%:*}; a=${k##*:}
  for tool in memcheck racecheck; do
    BENCH_REPS=1 timeout 300 compute-sanitizer --tool=$tool --error-exitcode=99 $D/bench/bin/$b.ompgpu.nested $a > $R/san-$b-$tool.txt 2>&1
    echo "$b $tool rc=$?" >> $R/sanitize.txt
  done
done
# backprop's adjustment kernel (packed teams of 16, 1M distribute iterations): its time against the
# team count (default: the resident teams; OMP_NUM_TEAMS sets it), under ncu
for t in default 33792 131072 1048576; do
  if [ $t = default ]; then E=""; else E="OMP_NUM_TEAMS=$t"; fi
  env $E BENCH_REPS=1 OMP_TARGET_OFFLOAD=MANDATORY OMPGPU_INFO=1 timeout 120 ncu --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size -k regex:main_l49 --csv $D/bench/bin/backprop.ompgpu.nested > $R/ncu-backprop-adjust-$t.csv 2>&1
done
cd $R && tar czf all.tgz *.txt *.log *.csv && rm -f *.txt *.log *.csv
