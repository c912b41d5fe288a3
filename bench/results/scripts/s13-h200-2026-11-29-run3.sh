#!/bin/bash
# Session 13 run 3: RSBench (ANL-CESAR/RSBench 34b6447, built outside the repository by
# bench/proxy_apps.py: ompgpu at $COMMIT, clang 19, nvcc), -m event small and large, 3 reps, ompgpu
# also under OMPGPU_PROFILE and OMPGPU_INFO (start-up). Then the transfer test to 256 MB (ompgpu twice,
# CUDA pageable and pinned). Outputs packed into one archive (the device tool returns few files).
set -u
R=$OUT/r; mkdir -p $R
{ date; echo "commit $COMMIT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $R/env.txt 2>&1
(cd .devbuild && tar xJf s13c.tar.xz)
( . .peers/bin/peer-env.sh
  python3 .devbuild/s13c/rs/proxy_apps.py run .devbuild/s13c/rs --csv $R/rsbench.csv --reps 3 > $R/rsbench-summary.txt 2>&1 )
for s in small large; do OMPGPU_INFO=1 .devbuild/s13c/rs/bin/rsbench.ompgpu -m event -s $s > $R/rsbench-info-$s.txt 2>&1; done
T=.devbuild/s13c/tr
for i in 1 2; do $T/transfer.ompgpu 256 > $R/transfer-ompgpu-$i.txt 2>&1; done
$T/transfer.cuda pageable 256 > $R/transfer-cuda-pageable.txt 2>&1
$T/transfer.cuda pinned 256 > $R/transfer-cuda-pinned.txt 2>&1
(cd $R && tar czf ../all.tgz . ) && rm -rf $R && mkdir -p $R && mv $OUT/all.tgz $R/
