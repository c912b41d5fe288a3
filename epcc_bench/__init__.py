"""EPCC-style overhead benchmark for OpenMP offload (syncbench + schedbench, J. M. Bull 1999).

`python -m epcc_bench build OUT` compiles the benchmark programs on a CPU machine (ompgpu in
two modes, clang 19, gcc 12, a hand-written CUDA floor); `python3 OUT/run.py` runs them on a
GPU machine with nothing but the Python standard library; `python -m epcc_bench plot CSV...`
draws overhead against threads. See epcc_bench/README.md.

The modules `method`, `executor`, `runner` and `report` use only the standard library: they
are copied next to the built programs and run there.
"""
