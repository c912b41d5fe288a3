#!/bin/bash
# Session 20 run 5, the closing check at the commit below: every run-and-check program on the GPU
# in both modes (built at 0d7c6f6: host loops of packed regions run as one persistent kernel);
# tests/programs/persistent_packed_loops.c under compute-sanitizer memcheck and racecheck; then
# every bench kernel built by ompgpu at 0d7c6f6 beside CUDA's binaries from the same sources
# (4dc1666's build; no peers this run: clang 19's side is run 1's), 5 reps each. Each step's
# results packed as it ends (the command's time limit).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s20r5.tar.xz)
D=.devbuild
pack() { (cd $R && tar czf $1.tgz $(ls | grep -v '\.tgz$') && find . -maxdepth 1 -type f ! -name '*.tgz' -delete); }
python3 $D/pa/programs.py run $D/pa --timeout=60 --log=$R/programs-auto.log > $R/programs-auto.txt 2>&1
python3 $D/pg/programs.py run $D/pg --timeout=60 --log=$R/programs-generic.log > $R/programs-generic.txt 2>&1
pack programs
mkdir -p $D/ps && cp $D/pa/persistent_packed_loops $D/pa/persistent_packed_loops.expected $D/pa/programs.py $D/ps/
timeout 150 python3 $D/ps/programs.py run $D/ps --sanitize=memcheck,racecheck --timeout=120 --log=$R/sanitize.log > $R/sanitize.txt 2>&1
pack sanitize
python3 $D/s20c/run.py run $D/s20c --reps=5 --budget=150 --csv=$R/bench.csv --log=$R/bench.log > $R/bench-summary.txt 2>&1
pack bench
