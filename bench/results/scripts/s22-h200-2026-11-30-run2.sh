#!/bin/bash
# Session 22 run 2: grids counted by the host for loops with a reduction or a long body and for
# generic kernels' loops, one wave at most (grid_waves; a 62-iteration reduction had 1,056 teams).
# Every run-and-check program on the GPU in both modes, built by this tree; then every bench
# kernel's ompgpu builds of this tree (bnew) and of 7bdcdfd (bold), alternated over two rounds, 5
# reps each; RSBench and XSBench small and large, this tree against 7bdcdfd, three rounds.
# Two device calls (each command's time limit): `run2.sh programs,proxy` and `run2.sh bench`.
set -u
PARTS=${1:-programs,proxy,bench}
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s22r2.tar.xz)
D=.devbuild/s22r2
pack() { (cd $R && tar czf $1.tgz $(ls | grep -v '\.tgz$') && find . -maxdepth 1 -type f ! -name '*.tgz' -delete); }
if [[ $PARTS == *programs* ]]; then
python3 $D/pa/programs.py run $D/pa --timeout=60 --log=$R/programs-auto.log > $R/programs-auto.txt 2>&1
python3 $D/pg/programs.py run $D/pg --timeout=60 --log=$R/programs-generic.log > $R/programs-generic.txt 2>&1
tail -3 $R/programs-auto.txt $R/programs-generic.txt
grep -v "^PASS" $R/programs-auto.txt $R/programs-generic.txt | head -20
cp $R/programs-auto.txt $R/programs-generic.txt $OUT/
pack programs
fi
if [[ $PARTS == *bench* ]]; then
for r in 1 2; do
  for b in bnew bold; do
    python3 $D/$b/run.py run $D/$b --reps=5 --budget=100 --csv=$R/bench-$b-$r.csv --log=$R/bench-$b-$r.log > $R/bench-$b-$r.txt 2>&1
  done
done
cp $R/bench-*.csv $OUT/
pack bench
fi
if [[ $PARTS == *proxy* ]]; then
export OMP_TARGET_OFFLOAD=MANDATORY
for r in 1 2 3; do
  for s in small large; do
    for b in rsbench.new rsbench.old XSBench.new XSBench.old; do
      echo "== round $r $s $b" >> $R/proxy.txt
      timeout 60 $D/px/$b -m event -s $s 2>&1 | grep -E "Runtime|Lookups/s|Verification|valid" >> $R/proxy.txt
    done
  done
done
OMPGPU_INFO=1 timeout 60 $D/px/XSBench.new -m event -s small 2>&1 | grep -E "teams x" >> $R/proxy.txt
OMPGPU_INFO=1 timeout 60 $D/px/rsbench.new -m event -s small 2>&1 | grep -E "teams x" >> $R/proxy.txt
cp $R/proxy.txt $OUT/
pack proxy
fi
