"""Options of `ompgpu cc`: the gcc/clang-style command line parsed into `Options`.

Below both the command line (`cli`) and the driver, which take their options from here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ompgpu.errors import OmpgpuError

USAGE = """usage: ompgpu cc [options] file...
       ompgpu [options] file...   (the same: how compiler wrappers call it, OMPI_CC=ompgpu mpicc)
       ompgpu doctor
       ompgpu --version

Options of `ompgpu cc` (gcc/clang conventions):
  -o FILE                 write the output to FILE
  -c                      compile to an object file, do not link
  -fsyntax-only           check the input, write nothing
  -I DIR, -D NAME[=V], -U NAME   preprocessor options
  -isystem DIR, -idirafter DIR, -iquote DIR, -include FILE
  -O0 .. -O3, -g, -w, -std=STD   passed on to the host and device compilers
  -l LIB, -L DIR, -Wl,ARGS, -Xlinker ARG   linker options
  -shared                 link a shared object (its objects compiled with -fPIC)
  -fPIC, -fpic            position-independent code (host and device objects)
  -MD, -MMD, -MF FILE, -MT T, -MQ T, -MP   make dependency files, as gcc writes them
  -v                      print each sub-command
  -ftime-report           print the time of each phase of the build
  -fopenmp                accepted (OpenMP is always on)
  -fopenmp-targets=nvptx64-nvidia-cuda   accepted (the only target)
  --offload-arch=sm_XX    GPU architecture (default sm_90); clang's
                          -Xopenmp-target[=nvptx64-nvidia-cuda] -march=sm_XX says the same
  -foffload=nvptx-none    accepted (gcc's name for the only target); -foffload=disable: --offload=none
  --offload=cuda|emu|none cuda: run on the GPU (default); emu: run device code on the CPU
                          emulator; none: host code only (target regions run on the host)
  --mode=auto|generic|spmd  kernel execution mode (auto: SPMD where legal; spmd where not legal is an error)
  --emit-cuda             write the generated device code to -o FILE (or stdout)
  -save-temps             keep the intermediate files in the current folder
  -Rpass=ompgpu           remarks: the mode of each kernel and why
  -Rpass-analysis=ompgpu  remarks: the inputs of the decisions (cache lines a loop's iterations touch)
  -Rpass-missed=ompgpu    remarks: what was not done and why (host loops left as a launch per region)
  --version               print the version
"""


@dataclass
class Options:
    inputs: list[str] = field(default_factory=list)
    output: str | None = None
    compile_only: bool = False
    syntax_only: bool = False
    emit_cuda: bool = False
    save_temps: bool = False
    verbose: bool = False
    time_report: bool = False  # -ftime-report
    remarks: bool = False
    analysis_remarks: bool = False
    missed_remarks: bool = False
    no_warnings: bool = False
    debug: bool = False
    opt_level: str = "-O2"
    std: str | None = None
    cpp_args: list[str] = field(default_factory=list)
    link_args: list[str] = field(default_factory=list)
    offload: str = "cuda"
    offload_arch: str = "sm_90"
    mode: str = "auto"
    pic: bool = False                 # -fPIC/-fpic: position-independent host and device objects
    shared: bool = False              # -shared: link a shared object
    # -MD/-MMD (+ -MF/-MT/-MQ/-MP): a make dependency file, written while preprocessing each
    # C file, as gcc writes it beside a -c compile.
    dep_kind: str | None = None
    dep_file: str | None = None
    dep_targets: list[str] = field(default_factory=list)
    dep_phony: bool = False

    def dependency_args(self, c_file: str) -> list[str]:
        """Preprocessor arguments that write `c_file`'s dependency file (none unless -MD/-MMD)."""
        if not self.dep_kind:
            return []
        obj = self.output if self.output and self.compile_only else Path(c_file).with_suffix(".o").name
        dep = self.dep_file or str(Path(obj).with_suffix(".d"))
        targets = self.dep_targets or [obj]
        return [self.dep_kind, "-MF", dep, *[a for t in targets for a in ("-MT", t)], *(["-MP"] if self.dep_phony else [])]


class UsageError(OmpgpuError):
    pass


def _offload_arch(arch: str, flag: str = "--offload-arch") -> str:
    if not (arch.startswith("sm_") and arch[3:].rstrip("a").isdigit()):
        raise UsageError(f"invalid {flag} '{arch}' (expected sm_XX, e.g. sm_90)")
    return arch


def parse_cc_args(argv: list[str]) -> Options:
    o = Options()
    i = 0

    def value(flag: str) -> str:
        nonlocal i
        arg = argv[i]
        if arg != flag:
            return arg[len(flag):]
        i += 1
        if i >= len(argv):
            raise UsageError(f"argument to '{flag}' is missing")
        return argv[i]

    while i < len(argv):
        a = argv[i]
        if a == "-o" or (a.startswith("-o") and len(a) > 2 and not a.startswith("-offload")):
            o.output = value("-o")
        elif a == "-c":
            o.compile_only = True
        elif a == "-fsyntax-only":
            o.syntax_only = True
        elif a.startswith("-I") or a.startswith("-D") or a.startswith("-U"):
            flag = a[:2]
            o.cpp_args.append(flag + value(flag))
        elif a.startswith(("-isystem", "-idirafter", "-iquote")):
            flag = next(f for f in ("-isystem", "-idirafter", "-iquote") if a.startswith(f))
            o.cpp_args += [flag, value(flag)]
        elif a.startswith("-include"):
            o.cpp_args += ["-include", value("-include")]
        elif a in ("-O0", "-O1", "-O2", "-O3", "-Os", "-O", "-Ofast"):
            o.opt_level = "-O1" if a == "-O" else ("-O3" if a == "-Ofast" else a)
        elif a in ("-g", "-g0", "-g1", "-g2", "-g3", "-ggdb"):
            o.debug = a != "-g0"
        elif a == "-w":
            o.no_warnings = True
        elif a.startswith("-std="):
            o.std = a
        elif a.startswith("-Wl,"):
            o.link_args.append(a)
        elif a == "-Xlinker":
            o.link_args += ["-Xlinker", value("-Xlinker")]
        elif a == "-shared":
            o.shared = True
        elif a in ("-fPIC", "-fpic"):
            o.pic = True
        elif a in ("-MD", "-MMD"):
            o.dep_kind = a
        elif a == "-MP":
            o.dep_phony = True
        elif a.startswith("-MF"):
            o.dep_file = value("-MF")
        elif a.startswith("-MT") or a.startswith("-MQ"):
            o.dep_targets.append(value(a[:3]))
        elif a == "-Xopenmp-target" or a.startswith("-Xopenmp-target="):
            triple = a.split("=", 1)[1] if "=" in a else "nvptx64-nvidia-cuda"
            if triple not in ("nvptx64-nvidia-cuda", "nvptx64"):
                raise UsageError(f"unsupported offload target '{triple}' in '{a}' (only nvptx64-nvidia-cuda)")
            i += 1
            if i >= len(argv):
                raise UsageError(f"argument to '{a}' is missing")
            if not argv[i].startswith("-march="):
                raise UsageError(f"unsupported argument '{argv[i]}' to '{a}' (only -march=sm_XX)")
            o.offload_arch = _offload_arch(argv[i].split("=", 1)[1], "-march")
        elif a.startswith("-foffload="):
            target = a.split("=", 1)[1]
            if target == "disable":
                o.offload = "none"
            elif target not in ("nvptx-none", "default") and not target.startswith("-"):
                raise UsageError(f"unsupported offload target '{target}' (only nvptx-none)")
        elif a.startswith("-foffload-options="):
            pass   # gcc's options for its own offload compiler: nothing of ours to set
        elif a.startswith("-l"):
            o.link_args.append("-l" + value("-l"))
        elif a.startswith("-L"):
            o.link_args.append("-L" + value("-L"))
        elif a == "-v":
            o.verbose = True
        elif a == "-ftime-report":
            o.time_report = True
        elif a in ("-fopenmp", "-fopenmp-simd", "-fopenmp-targets=nvptx64-nvidia-cuda", "-fopenmp-targets=nvptx64"):
            pass
        elif a.startswith("-fopenmp-targets="):
            raise UsageError(f"unsupported offload target '{a.split('=', 1)[1]}' (only nvptx64-nvidia-cuda)")
        elif a.startswith("--offload-arch="):
            o.offload_arch = _offload_arch(a.split("=", 1)[1])
        elif a.startswith("--offload="):
            mode = a.split("=", 1)[1]
            if mode not in ("cuda", "emu", "none"):
                raise UsageError(f"invalid --offload '{mode}' (expected cuda, emu or none)")
            o.offload = mode
        elif a.startswith("--mode="):
            mode = a.split("=", 1)[1]
            if mode not in ("auto", "generic", "spmd"):
                raise UsageError(f"invalid --mode '{mode}' (expected auto, generic or spmd)")
            o.mode = mode
        elif a == "--emit-cuda":
            o.emit_cuda = True
        elif a in ("-save-temps", "--save-temps"):
            o.save_temps = True
        elif a == "-Rpass=ompgpu":
            o.remarks = True
        elif a == "-Rpass-analysis=ompgpu":
            o.analysis_remarks = True
        elif a == "-Rpass-missed=ompgpu":
            o.missed_remarks = True
        elif a.startswith("-Rpass"):
            pass  # other remark families: nothing to say
        elif a == "-pthread":
            o.link_args.append(a)
        elif a in ("-Wall", "-Wextra", "-pedantic", "-march=native"):
            pass  # accepted for compatibility; the generated code chooses its own
        elif a.startswith("-W"):
            pass
        elif a.startswith("-") and a != "-":
            raise UsageError(f"unknown argument: '{a}'")
        else:
            o.inputs.append(a)
        i += 1
    if not o.inputs:
        raise UsageError("no input files")
    if o.output and (o.compile_only or o.emit_cuda) and len([f for f in o.inputs if f.endswith(".c")]) > 1:
        raise UsageError("cannot specify '-o' with '-c' or '--emit-cuda' and multiple C files")
    return o
