#!/bin/bash
# Session 12 run 3: stencils a team per tile, indices in 32 bits and CUDA, jacobi and
# labelprop (fused loops over team-tiled regions), and the probe harness on the new generated
# kernel. Built on the CPU machine: .devbuild/s12r3.tar.xz (new/, old/, h/).
set -u
R=$OUT/r; mkdir -p $R
cd /tmp && tar xJf $OLDPWD/.devbuild/s12r3.tar.xz && cd /tmp/s12r3
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt
for r in 1 4; do h/harness_r$r > $R/harness_r$r.txt 2>&1; done
python3 new/run.py run new --reps=7 --budget=300 --csv=$R/new.csv --log=$R/new.log > $R/new-summary.txt 2>&1
python3 new/run.py run old --reps=7 --budget=120 --csv=$R/old.csv --log=$R/old.log > $R/old-summary.txt 2>&1
for r in 1 4; do BENCH_REPS=1 OMPGPU_INFO=1 new/bin/stencil.ompgpu.r$r 2>&1 | grep "main_l27" | head -2 >> $R/info.txt; done
