#!/usr/bin/env bash
# The MPI checks and the weak-scaling run on a GPU machine (2 GPUs: one rank per GPU; one GPU:
# the ranks share it) (issue 20), from a
# folder DIR built on the CPU machine (see bench/README.md, "MPI"):
#   DIR/ompi.tar.xz   Debian's Open MPI runtime (the GPU machine has none), unpacked and relocated
#   DIR/jacobi        examples/mpi/jacobi.c built with OMPI_CC=ompgpu mpicc -O2
#   DIR/project/heat  tests/mpi/project built with make CC=mpicc, OMPI_CC=ompgpu
#   DIR/libscale.so, DIR/scale_prog   the -fPIC -shared library test of tests/separate
#   DIR/mpi_scaling.py
#   DIR/jacobi-clang, DIR/project-clang/heat   the same built with clang 19 (OMPI_CC=.peers/bin/clang-offload),
#                     run when PEERS names the folder that holds the peers' bin/ and debs/
# Usage: [PEERS=.peers] bash bench/mpi_gpu_run.sh DIR OUTDIR
set -uo pipefail
DIR=$(cd "$1" && pwd); OUTDIR=$2
mkdir -p "$OUTDIR"
R=/tmp/ompi
rm -rf $R && mkdir -p $R && tar xJf "$DIR/ompi.tar.xz" -C $R
export OPAL_PREFIX=$R/usr OPAL_SYSCONFDIR=$R/etc/openmpi OPAL_LIBDIR=$R/usr/lib/x86_64-linux-gnu/openmpi/lib
export OPAL_PKGLIBDIR=$R/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3 PATH=$R/usr/bin:$PATH
export LD_LIBRARY_PATH=$R/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# PMIx has its own prefix; without this it loads the GPU machine's own (other) PMIx plugins.
export PMIX_MCA_mca_base_component_path=$R/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix PMIX_MCA_pcompress_base_silence_warning=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMP_TARGET_OFFLOAD=MANDATORY
status=0
step() { echo "== $*"; }
check() {  # check NAME EXPECTED-REGEX CMD...: runs CMD, keeps its output, PASS if it matches
  local name=$1 want=$2; shift 2
  "$@" > "$OUTDIR/$name.out" 2> "$OUTDIR/$name.err"; local rc=$?
  if [ $rc -eq 0 ] && grep -Eq "$want" "$OUTDIR/$name.out" "$OUTDIR/$name.err"; then echo "PASS $name"
  else echo "FAIL $name (exit $rc)"; tail -5 "$OUTDIR/$name.out" "$OUTDIR/$name.err"; status=1; fi
}
step "machine"; nvidia-smi -L; date -u; mpirun --version | head -1
NGPU=$(nvidia-smi -L | grep -c '^GPU')
cd "$DIR"
step "jacobi, checked against the serial solution"
check jacobi-np1 '^PASS$' mpirun -np 1 ./jacobi 2048 1024 200 1
check jacobi-np2 '^PASS$' env OMPGPU_INFO=1 mpirun -np 2 ./jacobi 2048 512 200 1
grep -h "ompgpu: rank" "$OUTDIR/jacobi-np2.err" | sort
if [ "$NGPU" -ge 2 ]; then
  check jacobi-np2-devices 'rank 1 \(local rank 1\): default device 1 of '"$NGPU" cat "$OUTDIR/jacobi-np2.err"
  check jacobi-np2-kernels-on-gpu1 'kernel .*device 1' cat "$OUTDIR/jacobi-np2.err"
  check jacobi-np2-default-device 'default device 1 of [0-9]+, from OMP_DEFAULT_DEVICE' env OMPGPU_INFO=1 OMP_DEFAULT_DEVICE=1 mpirun -np 2 ./jacobi 256 64 20 1
else   # one GPU: both ranks share device 0
  check jacobi-np2-devices 'rank 1 \(local rank 1\): default device 0 of 1, from OMPI_COMM_WORLD_LOCAL_RANK=1 modulo 1 device' cat "$OUTDIR/jacobi-np2.err"
fi
check jacobi-np4-two-per-gpu '^PASS$' mpirun -np 4 ./jacobi 1024 256 100 1
step "the Makefile project (static library of declare target functions)"
check heat-np2 '^ranks 2 heat 1000.000000 peak 125.370688 beyond rank 0 437.314656$' mpirun -np 2 project/heat
step "a shared object with a target region, sharing the caller's data environment"
check shared-object '^3 201$' env OMPGPU_INFO=1 ./scale_prog
step "weak scaling: 8192 columns x 4096 rows per rank, 1000 iterations"
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
RANKS=$(seq 1 "$NGPU" | tr '\n' ' ')
[ "$NGPU" -ge 2 ] && how="1 rank per GPU" || { RANKS="1 2"; how="2 ranks share the one GPU"; }
python3 mpi_scaling.py ./jacobi --ranks $RANKS --args 8192 4096 1000 0 --reps 3 --label "$NGPU x $GPU, $how" --csv "$OUTDIR/weak-scaling.csv" || status=1
python3 mpi_scaling.py ./jacobi --ranks $RANKS --args 2048 2048 200 1 --reps 1 --label "$NGPU x $GPU, $how, checked" --csv "$OUTDIR/weak-scaling.csv" || status=1
if [ -x "$DIR/jacobi-clang" ] && [ -n "${PEERS:-}" ]; then
  step "clang 19 on the same sources (peers' run-time libraries from \$PEERS)"
  . "$PEERS/bin/peer-env.sh"
  check heat-np2-clang '^ranks 2 heat 1000.000000 peak 125.370688 beyond rank 0 437.314656$' mpirun -np 2 project-clang/heat
  python3 mpi_scaling.py ./jacobi-clang --ranks $RANKS --args 8192 4096 1000 0 --reps 3 --label "clang 19: $NGPU x $GPU, $how" --csv "$OUTDIR/weak-scaling.csv" || status=1
  python3 mpi_scaling.py ./jacobi-clang --ranks 1 --args 2048 2048 200 1 --reps 1 --label "clang 19: checked" --csv "$OUTDIR/weak-scaling.csv" || status=1
fi
exit $status
