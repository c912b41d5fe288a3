"""Builds every benchmark variant on the CPU machine (no GPU needed).

    python -m epcc_bench build OUT [--offload=cuda|emu] [--variants ...] [--peers DIR]

OUT gets bin/<variant> programs, manifest.json (what was built, how, with which compiler),
build.log, and a copy of the standard-library-only modules plus run.py, so that
`python3 OUT/run.py` works on a machine that has only python3 (no lark, pycparser, ompgpu).
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
REPO = PACKAGE.parent
SOURCE = PACKAGE / "src" / "epcc_omp.c"
FLOOR_SOURCE = PACKAGE / "src" / "floor.cu"
DEVICE_RT = REPO / "ompgpu" / "runtime" / "device"
EMU_RT = REPO / "ompgpu" / "runtime" / "emu"
RUNTIME_MODULES = ("__init__.py", "method.py", "executor.py", "runner.py", "report.py")

RUN_PY = '''#!/usr/bin/env python3
"""Runs the EPCC offload benchmarks built next to this file (standard library only)."""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from epcc_bench.runner import main  # noqa: E402

sys.exit(main(sys.argv[1:], default_build=HERE))
'''

# (name, label, kind). Kinds: ompgpu modes, peers, floor.
VARIANTS = (
    ("ompgpu-generic", "ompgpu generic (full runtime)", "ompgpu:generic"),
    ("ompgpu-elide", "ompgpu auto (elision)", "ompgpu:auto"),
    ("clang19", "clang 19 offload", "clang"),
    ("clang19-generic", "clang 19 offload, SPMDization off", "clang:generic"),
    ("gcc12", "gcc 12 offload", "gcc"),
    ("floor", "CUDA floor (master warp + named barriers)", "floor"),
)
FLOOR_TESTS = ["reference", "parallel", "barrier"]


def _first_line(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        text = (out.stdout or out.stderr).strip().splitlines()
        return text[0].strip() if text else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def _last_line(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        text = (out.stdout or out.stderr).strip().splitlines()
        return text[-1].strip() if text else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def git_commit() -> str:
    try:
        head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short=12", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return head + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def find_peers(explicit: str | None) -> Path | None:
    candidates = [explicit] if explicit else [os.environ.get("EPCC_PEERS"), REPO / ".peers", "/work/main/.peers"]
    for c in candidates:
        if c and (Path(c) / "bin" / "clang-offload").exists():
            return Path(c).resolve()
    return None


def find_nvcc() -> str | None:
    sys.path.insert(0, str(REPO))
    try:
        from ompgpu.toolchain import find_cuda  # the same nvcc that ompgpu uses
        cuda = find_cuda(required=False)
        return str(cuda.nvcc) if cuda else None
    except Exception:  # noqa: BLE001 - no ompgpu or no CUDA: the floor is simply not built
        return shutil.which("nvcc")


class Builder:
    def __init__(self, out: Path, offload: str, peers: Path | None, arch: str, log):
        self.out, self.offload, self.peers, self.arch, self.log = out, offload, peers, arch, log
        self.tools = out / ".tools"

    def run(self, cmd: list[str], env: dict | None = None) -> bool:
        self.log.write("$ " + " ".join(cmd) + "\n")
        self.log.flush()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(REPO))
        self.log.write(proc.stdout + proc.stderr)
        self.log.write(f"[exit {proc.returncode}]\n")
        return proc.returncode == 0

    def host_wrappers(self) -> dict[str, str]:
        """OMPGPU_HOST_CC/OMPGPU_HOST_CXX for ompgpu's host side: gcc with -foffload=disable.

        Why: ompgpu keeps each target region as host fallback code, compiled by gcc -fopenmp.
        Where gcc's nvptx offload compiler is installed (the peers setup installs it), gcc
        would also try to offload those regions itself and fail in mkoffload (sm_35).
        """
        self.tools.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        for var, tool in (("OMPGPU_HOST_CC", os.environ.get("OMPGPU_HOST_CC", "gcc")),
                          ("OMPGPU_HOST_CXX", os.environ.get("OMPGPU_HOST_CXX", "g++"))):
            path = self.tools / var.lower().replace("ompgpu_host_", "")
            path.write_text(f'#!/bin/sh\nexec {tool} -foffload=disable "$@"\n')
            path.chmod(0o755)
            env[var] = str(path)
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
        return env

    def build(self, name: str, label: str, kind: str) -> dict:
        exe = self.out / "bin" / name
        spec = {"name": name, "label": label, "exe": f"bin/{name}", "status": "ok"}
        if kind.startswith("ompgpu:"):
            mode = kind.split(":")[1]
            cmd = [sys.executable, "-m", "ompgpu", "cc", f"--offload={self.offload}", f"--mode={mode}", "-O3",
                   str(SOURCE), "-o", str(exe)]
            nvcc = find_nvcc()
            spec["compiler"] = f"ompgpu {git_commit()} --mode={mode}" + (
                f"; {_last_line([nvcc, '--version'])}" if nvcc and self.offload == "cuda" else "")
            spec["command"] = " ".join(cmd[1:])
            spec["mode"] = mode
            if not self.run(cmd, self.host_wrappers()):
                spec["status"] = "build failed (see build.log)"
            return spec
        if kind.split(":")[0] in ("clang", "gcc"):
            spec["peer"] = True
            if self.offload != "cuda":
                spec["status"] = "skipped: peers are only built for --offload=cuda"
                return spec
            if self.peers is None:
                spec["status"] = "skipped: no peers folder (.peers with bin/clang-offload)"
                return spec
            is_clang = kind.startswith("clang")
            driver = self.peers / "bin" / ("clang-offload" if is_clang else "gcc-offload")
            spec["compiler"] = (_first_line(["/usr/lib/llvm-19/bin/clang", "--version"]) if is_clang
                                else _first_line(["gcc", "--version"]) + " -foffload=nvptx-none")
            # clang's OpenMPOpt turns every kernel of this benchmark into an SPMD kernel with
            # guarded serial code; clang19-generic keeps them generic (master thread + state
            # machine), which is what the clang numbers and the paper compare against.
            extra = ["-mllvm", "-openmp-opt-disable-spmdization"] if kind == "clang:generic" else []
            cmd = [str(driver), "-O3", *extra, str(SOURCE), "-o", str(exe)]
            spec["command"] = " ".join(cmd)
            if self.run(cmd):
                return spec
            # clang 19's NVPTX device runtime lacks impl::setCriticalLock: try without critical.
            cmd = [str(driver), "-O3", *extra, "-DEPCC_NO_CRITICAL", str(SOURCE), "-o", str(exe)]
            if self.run(cmd):
                spec["command"] = " ".join(cmd)
                spec["omitted"] = {"critical": "does not link: the device runtime has no critical-section lock "
                                               "(ptxas: unresolved extern impl::setCriticalLock)"}
                return spec
            spec["status"] = "build failed (see build.log)"
            return spec
        if kind == "floor":
            spec["floor"] = True
            spec["tests"] = FLOOR_TESTS
            if self.offload == "emu":
                cxx = os.environ.get("CXX", "g++")
                cmd = [cxx, "-std=c++17", "-O1", "-x", "c++", "-DOMPGPU_EMU", "-include", str(EMU_RT / "cuda_source.h"),
                       f"-I{DEVICE_RT}", f"-I{EMU_RT}", str(FLOOR_SOURCE), "-o", str(exe), "-lpthread"]
                spec["compiler"] = _first_line([cxx, "--version"]) + " (ompgpu CPU device emulator)"
            else:
                nvcc = find_nvcc()
                if nvcc is None:
                    spec["status"] = "skipped: no nvcc"
                    return spec
                cmd = [nvcc, "-std=c++17", "-O3", f"-arch={self.arch}", f"-I{DEVICE_RT}", str(FLOOR_SOURCE),
                       "-o", str(exe)]
                spec["compiler"] = _last_line([nvcc, "--version"])
            spec["command"] = " ".join(cmd)
            if not self.run(cmd):
                spec["status"] = "build failed (see build.log)"
            return spec
        raise ValueError(kind)


def build(out: Path, offload: str = "cuda", variants: list[str] | None = None, peers: str | None = None,
          arch: str = "sm_90", quiet: bool = False) -> dict:
    out = Path(out)
    (out / "bin").mkdir(parents=True, exist_ok=True)
    pkg = out / "epcc_bench"
    pkg.mkdir(exist_ok=True)
    for mod in RUNTIME_MODULES:
        shutil.copyfile(PACKAGE / mod, pkg / mod)
    (out / "run.py").write_text(RUN_PY)
    (out / "run.py").chmod(0o755)
    manifest = {"commit": git_commit(), "build_date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                "offload": offload, "arch": arch, "variants": []}
    with open(out / "build.log", "w") as log:
        b = Builder(out, offload, find_peers(peers), arch, log)
        for name, label, kind in VARIANTS:
            if variants and name not in variants:
                continue
            if not quiet:
                print(f"epcc_bench: building {name} ...", file=sys.stderr, flush=True)
            spec = b.build(name, label, kind)
            if not quiet:
                print(f"epcc_bench:   {name}: {spec['status']}", file=sys.stderr, flush=True)
            manifest["variants"].append(spec)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest
