"""What each compiler makes of OpenMP 5.x and C forms of issue 32: one small program per
row, compiled by gcc (host only, as this machine has it), by clang 19 for nvptx64
(-fsyntax-only, no CUDA library needed) and built by ompgpu for the emulator and run.

    python bench/peer_probes.py OUT_DIR [--peers .peers]   (prints a Markdown table; docs/STATUS.md has it)

A compile-level probe for the peers: "ok" is accepted, "ignored" accepted with a warning that
the directive was ignored, "error" rejected. With --peers (what ../shared/peers/setup.sh
installs), a column for clang 19's whole offload build (host and device code, as a user's
`clang -fopenmp --offload-arch=sm_90` does): "builds", "error" or "crash" (the compiler itself
failed), which -fsyntax-only does not see. ompgpu's column says whether it builds and runs.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

probes = {
 "latin1 bytes in a string": 'int main(void){ const char *s = "caf\xe9"; return s[0]; }',
 "array parameter with parallel for in declare target": '#pragma omp declare target\nint f(int a[8]){int s=0;\n#pragma omp parallel for reduction(+:s)\nfor(int i=0;i<8;i++) s+=a[i]; return s;}\n#pragma omp end declare target\nint main(void){int a[8]={0},r=0;\n#pragma omp target map(to:a) map(from:r)\nr=f(a);\nreturn r;}',
 "pointer to VLA parameter in declare target": '#pragma omp declare target\nvoid f(int n, double (*restrict p)[n]){\n#pragma omp parallel for\nfor(int i=0;i<n;i++) p[i][0]=1;}\n#pragma omp end declare target\nint main(void){return 0;}',
 "linear(val:2) with val a variable": 'int main(void){int val=0;\n#pragma omp parallel for linear(val:2)\nfor(int i=0;i<8;i++) val+=2;\nreturn val;}',
 "map(always, close) with variables of those names": 'int main(void){int always=0, close=1;\n#pragma omp target map(always, close)\n{always=close;}\nreturn always;}',
 "loop bind(thread) in a parallel region": 'int main(void){int s[4]={0};\n#pragma omp target map(tofrom:s)\n#pragma omp parallel num_threads(4)\n{int m=0;\n#pragma omp loop bind(thread)\nfor(int i=0;i<4;i++) m++;\ns[0]=m;}\nreturn s[0];}',
 "defaultmap(present)": 'int main(void){int a[4]={0};\n#pragma omp target data map(a)\n{\n#pragma omp target defaultmap(present)\na[0]=1;}\nreturn a[0];}',
 "defaultmap(firstprivate) covering a pointer": 'int main(void){int a[4]; int *p=a; long v=0;\n#pragma omp target defaultmap(firstprivate) map(from:v)\nv=(long)p;\nreturn v!=0;}',
 "the same item in two map clauses": 'int main(void){int a[4]={0};\n#pragma omp target map(alloc:a) map(to:a)\na[0]=1;\nreturn 0;}',
 "omp_target_memcpy_async": '#include <omp.h>\nint main(void){int a=1,b=0; return omp_target_memcpy_async(&b,&a,4,0,0,omp_get_initial_device(),omp_get_initial_device(),0,0);}',
 "omp_get_mapped_ptr": '#include <omp.h>\nint main(void){int a; return omp_get_mapped_ptr(&a, omp_get_initial_device())!=0;}',
 "depend on omp_all_memory": 'int main(void){int a=0;\n#pragma omp task depend(inout: omp_all_memory) shared(a)\na=1;\n#pragma omp taskwait\nreturn a;}',
 "task_reduction/in_reduction in a target region": 'int main(void){int s=0;\n#pragma omp target map(tofrom:s)\n{\n#pragma omp taskgroup task_reduction(+:s)\n{\n#pragma omp task in_reduction(+:s)\ns+=1;}}\nreturn s;}',
 "default(firstprivate) on a task in a target region": 'int main(void){int y=0;\n#pragma omp target map(tofrom:y)\n{int v=1; int *p=&y;\n#pragma omp task default(firstprivate)\n*p=v;}\nreturn y;}',
 "has_device_addr of an array": 'int main(void){int a[4]={0};\n#pragma omp target data map(a) use_device_addr(a)\n{\n#pragma omp target has_device_addr(a)\na[0]=1;}\nreturn a[0];}',
 "tile construct": 'int main(void){int t[8][8];\n#pragma omp parallel for\n#pragma omp tile sizes(4,4)\nfor(int i=0;i<8;i++) for(int j=0;j<8;j++) t[i][j]=i;\nreturn t[1][1];}',
 "map iterator (5.1)": 'int main(void){int a[4][4]; int *r[4]={a[0],a[1],a[2],a[3]};\n#pragma omp target map(iterator(it=0:4), to: r[it][0:4])\n{}\nreturn 0;}',
 "uses_allocators with traits": '#include <omp.h>\nint main(void){omp_alloctrait_t t[1]={{omp_atk_alignment,64}}; omp_allocator_handle_t al;\n#pragma omp target uses_allocators(al(t))\n{ void *p=omp_alloc(8,al); omp_free(p,al);}\nreturn 0;}',
 "declare target indirect": 'int f(void){return 1;}\n#pragma omp declare target to(f) indirect\nint main(void){int (*fp)(void)=f; int r=0;\n#pragma omp target map(from:r)\nr=fp();\nreturn r;}',
 "dispatch with adjust_args(need_device_ptr)": 'void fd(int *p){\n#pragma omp target is_device_ptr(p)\np[0]=1;}\n#pragma omp declare variant(fd) match(construct={dispatch}) adjust_args(need_device_ptr: p)\nvoid f(int *p){p[0]=2;}\nint main(void){int a[1]={0};\n#pragma omp target data map(tofrom:a)\n{\n#pragma omp dispatch\nf(a);}\nreturn a[0];}',
 "interop construct and append_args": '#include <omp.h>\nint fv(int x, omp_interop_t o){return o!=omp_interop_none;}\n#pragma omp declare variant(fv) match(construct={dispatch}) append_args(interop(targetsync))\nint f(int x){return 0;}\nint main(void){omp_interop_t o=omp_interop_none; int r=0;\n#pragma omp interop init(targetsync: o)\n#pragma omp interop destroy(o)\n#pragma omp dispatch\nr=f(1);\nreturn r;}',
 "allocate directive with align and a traits allocator": '#include <omp.h>\n#include <stdint.h>\nint main(void){omp_alloctrait_t t[1]={{omp_atk_alignment,512}}; omp_allocator_handle_t al=omp_init_allocator(omp_default_mem_space,1,t); int r;\n{double x[64];\n#pragma omp allocate(x) align(256)\nint y[8];\n#pragma omp allocate(y) allocator(al)\nr=((uintptr_t)x%256==0)+((uintptr_t)y%512==0);}\nreturn r;}',
 "error directive at execution in a target region": '#include <stdio.h>\nint main(void){int r=0;\n#pragma omp target map(tofrom:r)\n{r=1;\n#pragma omp error at(execution) severity(warning) message("w")\n}\nreturn r;}',
 "nothing and assume in a target region": 'int main(void){int r=0,x=1;\n#pragma omp target map(tofrom:r)\n{\n#pragma omp nothing\n#pragma omp assume holds(x > 0)\n{r=x;}}\nreturn r;}',
 "begin/end assumes": '#pragma omp begin assumes no_parallelism\nint f(void){return 1;}\n#pragma omp end assumes\nint main(void){return f();}',
 "requires reverse_offload": '#pragma omp requires reverse_offload\nint main(void){return 0;}',
}


def _status(cmd: list[str]) -> str:
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=300)
    except (OSError, subprocess.TimeoutExpired):
        return "n/a"
    if r.returncode != 0:
        return "crash" if "PLEASE submit a bug report" in r.stderr else "error"
    return "ignored" if "ignor" in r.stderr or "unknown" in r.stderr.lower() else "ok"


def main(out: Path, peers: Path | None = None) -> int:
    out.mkdir(parents=True, exist_ok=True)
    clang_offload = peers / "bin" / "clang-offload" if peers is not None else None
    build_column = " clang 19 offload build |" if clang_offload else ""
    print(f"| program | gcc (host) | clang 19 (nvptx64) |{build_column} ompgpu (emulator) |")
    print("| --- | --- | --- |" + (" --- |" if clang_offload else "") + " --- |")
    for i, (name, text) in enumerate(probes.items()):
        src = out / f"p{i:02d}.c"
        src.write_bytes(text.encode("latin-1"))
        gcc = _status(["gcc", "-fopenmp", "-Wall", "-c", str(src), "-o", "/dev/null"])
        clang = _status(["clang-19", "-fopenmp", "-fopenmp-targets=nvptx64-nvidia-cuda", "--offload-arch=sm_90",
                         "-nocudalib", "-fsyntax-only", str(src)])
        exe = out / f"p{i:02d}"
        b = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", str(src), "-o", str(exe)],
                           capture_output=True, text=True, errors="replace")
        if b.returncode == 0:
            r = subprocess.run([str(exe)], capture_output=True, timeout=60, env={"OMP_TARGET_OFFLOAD": "MANDATORY"})
            ours = f"builds, runs (exit {r.returncode})"
        else:
            first = (b.stderr.strip().splitlines() or ["?"])[0]
            ours = "error: " + first.split("error: ", 1)[-1][:100]
        build = ""
        if clang_offload:
            built = _status([str(clang_offload), "-O2", str(src), "-o", str(out / f"p{i:02d}.clang")])
            build = " " + {"ok": "builds", "ignored": "builds"}.get(built, built) + " |"
        print(f"| {name} | {gcc} | {clang} |{build} {ours} |")
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    peers_dir = None
    if "--peers" in args:
        k = args.index("--peers")
        peers_dir = Path(args[k + 1]).resolve()
        del args[k:k + 2]
    raise SystemExit(main(Path(args[0] if args else "peer-probes"), peers_dir))
