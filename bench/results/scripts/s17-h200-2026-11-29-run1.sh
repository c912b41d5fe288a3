#!/bin/bash
# Session 17 run 1: the run-and-check programs on the GPU in both modes, at the code that fixed
# session 16's hang (a lean kernel's sized team on an unzeroed counting barrier). 60 s a program.
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s17p.tar.xz)
for m in auto generic; do
  python3 .devbuild/s17p/$m/programs.py run .devbuild/s17p/$m --timeout=60 --log=$R/programs-$m.log > $R/programs-$m.txt 2>&1
  tail -n 1 $R/programs-$m.txt
done
grep -v "^PASS" $R/programs-*.txt
