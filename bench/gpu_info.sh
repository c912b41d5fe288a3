#!/bin/bash
# Launch geometry and execution mode of each OpenMP build, one repetition each: ompgpu's
# OMPGPU_INFO=1 launch log and clang's LIBOMPTARGET_INFO=1 (device side of bench/run.py;
# same carry as gpu_run.sh):   bash .devbuild/appbench/gpu_info.sh   (writes into $OUT)
set -u
here="$(cd "$(dirname "$0")" && pwd)"
work=/tmp/appbench
[ -d "$work/out/bin" ] || { mkdir -p "$work" && tar xJf "$here/bench.tar.xz" -C "$work"; }
. .peers/bin/peer-env.sh
cd "$work/out"
for k in heartwall imghisto lud kmeans backprop bfs transpose gaussjordan haccmk lavamd particlefilter btree streamcluster; do
  for v in nested spmd; do
    echo "=== $k ompgpu $v"
    OMPGPU_INFO=1 timeout 60 "bin/$k.ompgpu.$v" 2>&1 | grep -v ' rep \|transfer\|map\|copy' | sort | uniq -c | sort -rn | head -6
    echo "=== $k clang $v"
    LIBOMPTARGET_INFO=1 timeout 60 "bin/$k.clang.$v" 2>&1 | grep -i 'launching kernel' | sed 's/0x[0-9a-f]*//g' | sort | uniq -c | sort -rn | head -6
  done
done > "$OUT/launch-info.txt" 2>&1
echo done
