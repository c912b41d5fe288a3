"""Finding the external tools (nvcc, the host C/C++ compilers) and building the runtime once.

nvcc is looked up in `$CUDA_HOME/bin`, then `PATH`, then the pip-installed NVIDIA wheels
(`nvidia/cuda_nvcc/bin/nvcc` in site-packages). The host runtime library is compiled on
first use and cached under `$OMPGPU_CACHE` (default `~/.cache/ompgpu`), keyed by a hash of
its sources, the offload mode and the compilers, so a changed runtime is rebuilt.
"""
from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from ompgpu import cache_dir
from ompgpu.errors import ToolchainError

RUNTIME_DIR = Path(__file__).resolve().parent / "runtime"
DEVICE_RT = RUNTIME_DIR / "device"
HOST_RT = RUNTIME_DIR / "host"
EMU_RT = RUNTIME_DIR / "emu"
EMU_HEADER = EMU_RT / "cuda_emu.h"


@dataclass(frozen=True)
class Cuda:
    nvcc: Path
    home: Path  # the folder with include/ and lib64/ (or lib/)

    @property
    def include(self) -> Path:
        return self.home / "include"

    @property
    def libdir(self) -> Path:
        for name in ("lib64", "lib"):
            if (self.home / name / "libcudart_static.a").exists():
                return self.home / name
        return self.home / "lib64"

    def version(self) -> str:
        out = subprocess.run([str(self.nvcc), "--version"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if "release" in line:
                return line.split("release", 1)[1].split(",")[0].strip()
        return "unknown"


def _nvcc_candidates() -> list[Path]:
    cands = []
    if os.environ.get("CUDA_HOME"):
        cands.append(Path(os.environ["CUDA_HOME"]) / "bin" / "nvcc")
    which = shutil.which("nvcc")
    if which:
        cands.append(Path(which))
    cands.append(Path("/usr/local/cuda/bin/nvcc"))
    for wheels in nvidia_wheel_dirs():
        cands += [wheels / "cu13" / "bin" / "nvcc", wheels / "cuda_nvcc" / "bin" / "nvcc"]
    return cands


def _toolkit_root(nvcc: Path) -> Path | None:
    """The toolkit folder nvcc itself uses (its `TOP` in a dry run)."""
    try:
        out = subprocess.run([str(nvcc), "--dryrun", "-c", "-x", "cu", os.devnull, "-o", os.devnull],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    for line in (out.stderr + out.stdout).splitlines():
        if "TOP=" in line:
            top = Path(line.split("TOP=", 1)[1].strip().strip('"')).resolve()
            if (top / "include" / "cuda_runtime.h").exists():
                return top
    return None


@functools.lru_cache(maxsize=None)
def find_cuda(required: bool = True) -> Cuda | None:
    for cand in _nvcc_candidates():
        if cand.is_file() and os.access(cand, os.X_OK):
            nvcc = cand.resolve()
            home = nvcc.parent.parent
            if not (home / "include" / "cuda_runtime.h").exists():
                home = _toolkit_root(nvcc) or home  # nvcc on PATH may be a wrapper script
            return Cuda(nvcc, home)
    if required:
        raise ToolchainError(
            "cannot find nvcc, which relocatable device code (-c, device calls between files) and code that NVRTC "
            "rejects need: set CUDA_HOME, put nvcc on PATH, or `pip install nvidia-cuda-nvcc`; one file's program "
            "builds with NVRTC alone (`pip install 'ompgpu[cuda]'`); use --offload=emu to run on the CPU or "
            "--offload=none for host-only code"
        )
    return None


@dataclass(frozen=True)
class CudaRuntime:
    """The CUDA runtime's headers and static library, which the host runtime builds against."""
    include: Path
    libdir: Path


def nvidia_wheel_dirs() -> list[Path]:
    """The folders of NVIDIA's pip wheels (the `nvidia` namespace package: site-packages, or any
    folder on sys.path, as `pip install --target` makes)."""
    found = [Path(p) / "nvidia" for p in dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])]
    try:
        spec = importlib.util.find_spec("nvidia")
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        found += [Path(p) for p in spec.submodule_search_locations]
    return [p for p in dict.fromkeys(found) if p.is_dir()]


def nvidia_libraries(pattern: str, wheel_libs: tuple[str, ...]) -> list[Path]:
    """The copies of a CUDA library (`pattern`: "libnvrtc.so*") in NVIDIA's wheels (their folders
    `wheel_libs`: "cu13/lib"), then in the toolkit nvcc belongs to, $CUDA_HOME and
    /usr/local/cuda, in that order."""
    found = []
    for wheels in nvidia_wheel_dirs():
        for lib in wheel_libs:
            found += sorted((wheels / lib).glob(pattern))
    cuda = find_cuda(required=False)
    homes = dict.fromkeys([*([cuda.home] if cuda else []), *[Path(h) for h in filter(None, [os.environ.get("CUDA_HOME")])],
                           Path("/usr/local/cuda")])
    for home in homes:
        for lib in ("lib64", "lib"):
            found += sorted((home / lib).glob(pattern))
    return found


@functools.lru_cache(maxsize=None)
def find_cuda_runtime() -> CudaRuntime:
    """The toolkit's (the one nvcc belongs to), else NVIDIA's pip wheel (nvidia-cuda-runtime:
    `nvidia/cu13` in site-packages), so that NVRTC and that wheel build GPU programs alone."""
    cuda = find_cuda(required=False)
    if cuda is not None:
        return CudaRuntime(cuda.include, cuda.libdir)
    for wheels in nvidia_wheel_dirs():
        for folder in ("cu13", "cuda_runtime"):
            home = wheels / folder
            # what the host runtime includes and links (some packages ship the headers in part)
            needed = [home / "include" / h for h in ("cuda_runtime.h", "crt/host_config.h", "cuda.h")]
            if all(p.exists() for p in needed) and (home / "lib" / "libcudart_static.a").exists():
                return CudaRuntime(home / "include", home / "lib")
    raise ToolchainError("cannot find the CUDA runtime (cuda_runtime.h, libcudart_static.a): set CUDA_HOME, put nvcc "
                         "on PATH, or `pip install 'ompgpu[cuda]'`; use --offload=emu to run on the CPU or "
                         "--offload=none for host-only code")


# Not $CC and $CXX: those name ompgpu itself where it is the compiler of a build (CC=ompgpu
# make, OMPI_CC=ompgpu mpicc), and it would call itself for its host code.
def host_cc() -> str:
    """The C compiler of the host code: $OMPGPU_HOST_CC, else gcc."""
    return os.environ.get("OMPGPU_HOST_CC") or "gcc"


def host_cxx() -> str:
    """The C++ compiler that builds the runtime and links: $OMPGPU_HOST_CXX, else g++."""
    return os.environ.get("OMPGPU_HOST_CXX") or "g++"


# Host compilers ompgpu is tested with (CI here; gcc 13 on the GPU machine's Ubuntu 24.04).
SUPPORTED_HOST_COMPILERS = {"gcc": (11, 14), "clang": (14, 19)}


@functools.lru_cache(maxsize=None)
def host_compiler_identity(compiler: str) -> tuple[str, int] | None:
    """(family, major version) of a host compiler from its --version, or None when it does not
    run or is neither gcc nor clang."""
    try:
        proc = subprocess.run([compiler, "--version"], capture_output=True, text=True)
    except OSError:
        return None
    first = proc.stdout.split("\n", 1)[0]
    m = re.search(r"clang version (\d+)", first)
    if m:
        return "clang", int(m.group(1))
    m = re.search(r"\s(\d+)\.\d+(?:\.\d+)?\s*$", first)
    is_gcc = any(word in first for word in ("gcc", "g++", "GCC"))
    return ("gcc", int(m.group(1))) if m and is_gcc else None


def host_compiler_support(compiler: str) -> str:
    """A line for `ompgpu doctor`: whether the host compiler is one ompgpu supports, and
    whether it has OpenMP's header (clang needs libomp-N-dev for it)."""
    identity = host_compiler_identity(compiler)
    ranges = ", ".join(f"{f} {lo}-{hi}" for f, (lo, hi) in SUPPORTED_HOST_COMPILERS.items())
    if identity is None:
        return f"unknown compiler: ompgpu supports {ranges}"
    family, major = identity
    lo, hi = SUPPORTED_HOST_COMPILERS[family]
    verdict = "supported" if lo <= major <= hi else f"untested: ompgpu supports {ranges}"
    probe = subprocess.run([compiler, *host_openmp_flags(compiler), "-E", "-x", "c", "-"], input="#include <omp.h>\n",
                           capture_output=True, text=True)
    if probe.returncode != 0:
        hint = f" (install libomp-{major}-dev)" if family == "clang" else ""
        return f"{family} {major}, {verdict}; no OpenMP header <omp.h>{hint}"
    return f"{family} {major}, {verdict}"


def nesting_flags(compiler: str) -> tuple[str, ...]:
    """clang stops at 256 nested brackets (gcc has no limit); macro-generated expressions that
    ompgpu's front end and gcc take go deeper."""
    return ("-fbracket-depth=4096",) if (host_compiler_identity(compiler) or ("",))[0] == "clang" else ()


def linker_flags(link_args: list[str], shared: bool) -> tuple[str, ...]:
    """The linker for an executable's final link: gold where it is installed and the user named
    no linker (-fuse-ld=...) of their own. A program's link reads the static CUDA runtime and
    ompgpu's runtime archive; GNU ld takes 0.06 s over them, gold 0.02 s (binutils 2.40, 2-core
    machine, 2026-11-28), a tenth of a small program's build. Shared objects keep GNU ld: the
    Python API's modules rely on its `--dynamic-list` binding every other symbol locally, which
    gold does not do (a module's own `step` would bind to the C library's)."""
    if shared or any(a.startswith("-fuse-ld=") for a in link_args) or shutil.which("ld.gold") is None:
        return ()
    return ("-fuse-ld=gold",)


GOMP_SONAME = b"libgomp.so.1"
PRIVATE_GOMP_SONAME = b"libgomp-o.so"   # as long as GOMP_SONAME: the patch moves no byte


@functools.lru_cache(maxsize=None)
def private_gomp(compiler: str) -> Path | None:
    """gcc's OpenMP runtime under a soname of its own, for the modules the Python API loads into
    a process that may hold another libgomp.so.1 already: PyTorch's wheels bring an older one,
    and a module that needs newer entry points than it has (GOMP_teams4 of GOMP_5.1, which the
    host fallback of every `target teams` region calls) would bind to it and fail to load. As
    auditwheel does for the libraries of a wheel, the copy (in the cache) differs from the
    compiler's libgomp.so.1 in its soname alone, so both can live in one process. None where the
    compiler is not gcc or its libgomp cannot be patched so: modules then link the usual one."""
    if (host_compiler_identity(compiler) or ("", 0))[0] != "gcc":
        return None
    found = subprocess.run([compiler, "-print-file-name=libgomp.so.1"], capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(found) or not os.path.exists(found):
        return None
    data = Path(found).resolve().read_bytes()
    if data.count(GOMP_SONAME + b"\0") != 1:   # the soname, once, in .dynstr: anything else is not patched
        return None
    dest = cache_dir() / f"gomp-{hashlib.sha256(data).hexdigest()[:16]}" / PRIVATE_GOMP_SONAME.decode()
    if not dest.exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
        staged = dest.with_name(f".staged-{os.getpid()}")
        staged.write_bytes(data.replace(GOMP_SONAME + b"\0", PRIVATE_GOMP_SONAME + b"\0"))
        staged.chmod(0o755)
        os.replace(staged, dest)
    return dest


@functools.lru_cache(maxsize=None)
def host_openmp_flags(compiler: str) -> tuple[str, ...]:
    """OpenMP flags for the host compiler. ompgpu builds the device side itself, so a gcc
    that has an offload plugin installed (gcc-12-offload-nvptx) must not also try to offload
    the host fallback of each target region: -foffload=disable, where the compiler knows it.
    clang before 17 defaults to OpenMP 5.0 and takes 5.1 (default(firstprivate), ...) with
    -fopenmp-version=51."""
    if (host_compiler_identity(compiler) or ("", 0))[0] == "clang":
        probe = subprocess.run([compiler, "-fopenmp", "-fopenmp-version=51", "-E", "-x", "c", os.devnull],
                               capture_output=True, text=True)
        return ("-fopenmp", "-fopenmp-version=51") if probe.returncode == 0 and not probe.stderr.strip() else ("-fopenmp",)
    try:
        probe = subprocess.run([compiler, "-fopenmp", "-foffload=disable", "-E", "-x", "c", os.devnull],
                               capture_output=True, text=True)
    except OSError:
        return ("-fopenmp",)
    return ("-fopenmp", "-foffload=disable") if probe.returncode == 0 and not probe.stderr.strip() else ("-fopenmp",)


# How ompgpu reads and writes C text: bytes that are not UTF-8 survive the round trip.
SOURCE_ENCODING = {"encoding": "utf-8", "errors": "surrogateescape"}


# Compilers recurse on nested expressions: clang 14-19 crash on 2000 nested parentheses (macro-
# generated code that gcc and ompgpu's front end take) with an 8 MiB stack and build them with 64.
TOOL_STACK_BYTES = 256 << 20


@functools.lru_cache(maxsize=None)
def _raise_stack_limit_for_tools() -> None:
    """Let the tools ompgpu runs (which inherit this process's limits) grow their stacks to
    TOOL_STACK_BYTES, where the hard limit allows."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
        if soft != resource.RLIM_INFINITY and soft < TOOL_STACK_BYTES:
            target = TOOL_STACK_BYTES if hard == resource.RLIM_INFINITY else min(hard, TOOL_STACK_BYTES)
            resource.setrlimit(resource.RLIMIT_STACK, (max(soft, target), hard))
    except (ImportError, ValueError, OSError):
        pass  # no such limit here, or not ours to raise: the tools keep the default


def execute(cmd: list[str], verbose: bool, what: str) -> subprocess.CompletedProcess:
    """Run a tool (echoed with -v), capturing its output; a missing tool is a ToolchainError."""
    _raise_stack_limit_for_tools()
    if verbose:
        print(" ".join(cmd), file=sys.stderr)
    try:
        # Source files are bytes: a Latin-1 comment or string passes through cpp unchanged, and
        # through ompgpu as the same bytes (surrogateescape), as gcc and clang take it.
        return subprocess.run(cmd, capture_output=True, encoding="utf-8", errors="surrogateescape")
    except FileNotFoundError as exc:
        raise ToolchainError(f"cannot run {cmd[0]} ({what}): {exc.strerror}") from exc


def run(cmd: list[str], verbose: bool, what: str) -> None:
    """execute(), and a failing tool is a ToolchainError carrying its output."""
    proc = execute(cmd, verbose, what)
    if proc.returncode != 0:
        detail = (proc.stderr or proc.stdout).strip()
        raise ToolchainError(f"{what} failed ({cmd[0]} exited with {proc.returncode}):\n{detail}")
    if verbose and proc.stderr.strip():
        print(proc.stderr.rstrip(), file=sys.stderr)


def _sources_hash(paths: list[Path], extra: str) -> str:
    h = hashlib.sha256(extra.encode())
    for p in sorted(paths):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def runtime_library(offload: str, verbose: bool = False) -> list[str]:
    """Link arguments for the host runtime in `offload` mode ('cuda' or 'emu'), built once."""
    return _runtime_archive(offload, verbose)


def runtime_shared_library(offload: str, verbose: bool = False) -> Path:
    """The host runtime as one shared library, for a process that loads compiled code (the
    Python API): loaded first with RTLD_GLOBAL, its definitions win over each loaded module's
    own copy of the runtime, so every module shares one present table and one device set.
    The CUDA runtime inside stays private (--exclude-libs): another copy in the process (CuPy's,
    PyTorch's) keeps its own symbols, and each module launches its kernels through its own."""
    archive, *libs = _runtime_archive(offload, verbose)
    lib = Path(archive).with_name("libompgpu_host.so")
    if not lib.exists():
        hide = ["-Wl,--exclude-libs,libcudart_static.a"] if offload == "cuda" else []
        staged = lib.with_name(f".libompgpu_host-{os.getpid()}.so")
        run([host_cxx(), "-shared", "-Wl,--whole-archive", archive, "-Wl,--no-whole-archive", *hide, *libs,
             "-o", str(staged)], verbose, "linking the ompgpu runtime as a shared library")
        os.replace(staged, lib)
    return lib


def runtime_dynamic_list(offload: str, verbose: bool = False) -> Path:
    """A linker dynamic list naming every symbol the runtime shared library exports. A module
    linked with `-Wl,--dynamic-list=` it keeps exactly those preemptible (so they bind to the
    one runtime library of the process) and binds its own functions to themselves: a loaded
    module's `step` calls its own `step`, not the C library's."""
    lib = runtime_shared_library(offload, verbose)
    listing = lib.with_name("libompgpu_host.dynamic-list")
    if not listing.exists():
        proc = execute(["nm", "-D", "--defined-only", str(lib)], verbose, "listing the runtime's symbols")
        if proc.returncode != 0:
            raise ToolchainError(f"nm could not list {lib}: {proc.stderr.strip()}")
        names = sorted({line.split()[-1].split("@")[0] for line in proc.stdout.splitlines() if len(line.split()) >= 3})
        staged = listing.with_name(f".dynamic-list-{os.getpid()}")
        staged.write_text("{\n" + "".join(f'  "{n}";\n' for n in names) + "};\n")
        os.replace(staged, listing)
    return listing


DEVICE_TEMPLATE = Path(__file__).resolve().parent / "codegen" / "templates" / "device.cu.j2"


def _compiler_stamp(compiler: str) -> str:
    """The compiler binary a name runs (path, size, time): an upgraded compiler is another key."""
    path = shutil.which(compiler)
    if path is None:
        return compiler
    real = os.path.realpath(path)
    st = os.stat(real)
    return f"{real}:{st.st_size}:{st.st_mtime_ns}"


def _device_prelude_includes() -> list[str]:
    """The #include lines every generated device file starts with (the device template's
    unconditional head): the precompiled prelude holds exactly these, so that the file's own
    includes of them find their include guards set and add nothing."""
    lines = []
    for line in DEVICE_TEMPLATE.read_text().splitlines()[1:]:
        if not line.startswith("#include "):
            break
        lines.append(line)
    return lines


def emu_prelude(cxx: str, flags: list[str], verbose: bool = False) -> list[str]:
    """The arguments that give an emulated device compile (`cxx` with `flags`, less -c, -o and
    the source) the emulator's and device runtime's headers: `-include` of a header that
    includes them (EMU_HEADER, then the device template's leading includes), precompiled once
    per compiler and flags in $OMPGPU_CACHE (a third of a small program's device compile is
    these headers)."""
    text = f'#include "{EMU_HEADER}"\n' + "\n".join(_device_prelude_includes()) + "\n"
    return _precompiled_include(cxx, flags, text, "ompgpu_emu_prelude.h", verbose)


def _precompiled_include(cxx: str, flags: list[str], text: str, name: str, verbose: bool) -> list[str]:
    """`-include` of a header `name` holding `text`, with its precompiled form beside it (built
    here on first use, keyed by the compiler, the flags and every runtime header's contents).
    The header includes the real ones, so where the compiler cannot build or use the
    precompiled form, the compile reads them as text: the same code, slower."""
    headers = (sorted(EMU_RT.glob("*.h")) + sorted(EMU_RT.glob("*.inc")) + sorted(DEVICE_RT.glob("*.cuh")) + sorted(HOST_RT.glob("*.h"))
               + sorted(HOST_RT.glob("*.hpp")))
    key = _sources_hash(headers, "\0".join([_compiler_stamp(cxx), *flags, text]))
    folder = cache_dir() / f"prelude-{key}"
    header = folder / name
    clang = (host_compiler_identity(cxx) or ("",))[0] == "clang"
    pch = header.with_name(header.name + (".pch" if clang else ".gch"))
    if pch.exists():
        return ["-include", str(header)]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not header.exists():
            staged = folder / f".prelude-{os.getpid()}-{threading.get_ident()}.h"
            staged.write_text(text)
            os.replace(staged, header)
        staged = folder / f".prelude-{os.getpid()}-{threading.get_ident()}{pch.suffix}"
        # clang checks a precompiled header's inputs by size and time unless told not to
        # embed the times; the key above already names their contents.
        stamp = ["-Xclang", "-fno-pch-timestamp"] if clang else []
        proc = execute([cxx, *_header_flags(flags), *stamp, str(header), "-o", str(staged)], verbose,
                       "precompiling the runtime's headers")
        if proc.returncode != 0:
            staged.unlink(missing_ok=True)
        else:
            os.replace(staged, pch)
    except OSError:
        pass
    return ["-include", str(header)]


def _header_flags(flags: list[str]) -> list[str]:
    """A device compile's flags as the flags that precompile its prelude (-x c++-header)."""
    out = list(flags)
    for i, flag in enumerate(out[:-1]):
        if flag == "-x":
            out[i + 1] = "c++-header"
            return out
    return ["-x", "c++-header", *out]


# What a file ompgpu compiles for the emulator defines: the emulator's large functions are the
# runtime library's (emu_runtime.cpp defines them: 2), GNU inline elsewhere (1); see cuda_emu.h.
EMU_LINKED_USE = "-DOMPGPU_EMU_RUNTIME_LIBRARY=1"
EMU_LINKED_DEFINE = "-DOMPGPU_EMU_RUNTIME_LIBRARY=2"


def _runtime_source_flags(cxx: str, flags: list[str], src: Path, offload: str, verbose: bool) -> list[str]:
    """A runtime source's own flags: under the emulator, the emulator's header first (-include;
    precompiled for the host runtime's sources), and the emulator's own sources define its
    out-of-line functions."""
    if offload != "emu":
        return []
    if src.parent == EMU_RT:
        return [EMU_LINKED_DEFINE, "-include", str(EMU_HEADER)]
    return _precompiled_include(cxx, [*flags, "-fPIC", EMU_LINKED_USE], f'#include "{EMU_HEADER}"\n', "ompgpu_emu.h",
                                verbose) + [EMU_LINKED_USE]


def _runtime_archive(offload: str, verbose: bool) -> list[str]:
    sources = sorted(HOST_RT.glob("*.cpp"))
    # Every header counts (.h and .hpp): a change to one must rebuild the cached library.
    headers = sorted(HOST_RT.glob("*.h")) + sorted(HOST_RT.glob("*.hpp"))
    cxx = host_cxx()
    if offload == "emu":
        sources += sorted(EMU_RT.glob("*.cpp"))
        headers += sorted(EMU_RT.glob("*.h")) + sorted(EMU_RT.glob("*.hpp")) + sorted(EMU_RT.glob("*.inc"))
        flags = ["-std=c++17", "-O2", "-DOMPGPU_EMU", f"-I{HOST_RT}", f"-I{EMU_RT}"]
        libs = ["-lpthread"]
    else:
        cuda = find_cuda_runtime()
        flags = ["-std=c++17", "-O2", f"-I{cuda.include}", f"-I{HOST_RT}"]
        libs = [f"-L{cuda.libdir}", "-lcudart_static", "-ldl", "-lpthread", "-lrt"]
    key = _sources_hash(sources + headers, f"{offload} {cxx} {' '.join(flags)}")
    lib = cache_dir() / f"{key}-{offload}" / "libompgpu_host.a"
    if not lib.exists():
        lib.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=lib.parent) as tmp:
            objs = [str(Path(tmp) / (src.stem + ".o")) for src in sources]
            # One compile per core at once: the first build of a fresh cache (a new machine, a
            # new host compiler, every CI leg) waits for this library, 15 sources of it.
            commands = [[cxx, *flags, "-fPIC", *_runtime_source_flags(cxx, flags, src, offload, verbose), "-c", str(src),
                         "-o", obj] for src, obj in zip(sources, objs)]
            with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
                futures = [pool.submit(run, cmd, verbose, f"building the ompgpu runtime ({src.name})")
                           for cmd, src in zip(commands, sources)]
            for future in futures:  # the first failing source, in order, is the error
                future.result()
            staged = Path(tmp) / "libompgpu_host.a"
            run(["ar", "rcs", str(staged), *objs], verbose, "archiving the ompgpu runtime")
            os.replace(staged, lib)  # atomic: concurrent builds never see half a library
    return [str(lib), *libs]
