#!/bin/bash
# Session 18 run 5 (issue 48) at the commit below: the programs where the stagings apply (a `for`
# inside a `parallel` region no longer staged; broadcast_operands.c holds a pointer each thread sets
# apart), in both modes, memcheck and racecheck in auto mode.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s18r5.tar.xz)
D=.devbuild/s18r5
python3 $D/programs.py run $D/auto --sanitize=memcheck,racecheck --timeout=300 --log=$R/programs-auto.log > $R/programs-auto.txt 2>&1
python3 $D/programs.py run $D/generic --timeout=60 --log=$R/programs-generic.log > $R/programs-generic.txt 2>&1
cd $R && tar czf all.tgz *.txt *.log && rm -f *.txt *.log
