#!/bin/bash
# Session 18 run 3 (issue 48) at the commit below: the run-and-check programs on the GPU in auto mode
# (generic mode's translations are unchanged by this session's stagings, which apply to SPMD
# kernels only), and compute-sanitizer's memcheck and racecheck on the programs where the new
# stagings apply (team_segments, broadcast_operands, heartwall, matmul). Built with
# `python tests/gpu/programs.py build .devbuild/s18r2p/auto` (the binaries of run 2's build).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s18r2p.tar.xz)
D=.devbuild/s18r2p
python3 $D/auto/programs.py run $D/auto --timeout=60 --log=$R/programs-auto.log > $R/programs-auto.txt 2>&1
mkdir -p $D/san && for p in team_segments broadcast_operands heartwall matmul; do cp $D/auto/$p $D/auto/$p.expected $D/san/; done
python3 $D/auto/programs.py run $D/san --sanitize=memcheck,racecheck --timeout=300 --log=$R/sanitize.log > $R/sanitize.txt 2>&1
cd $R && tar czf all.tgz *.txt *.log && rm -f *.txt *.log
