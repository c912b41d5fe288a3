"""A C source string -> a shared object built by the ordinary pipeline, cached on disk.

The module is what `ompgpu cc -shared -fPIC --offload=cuda|emu` makes of the source, plus
one entry per callable function (templates/entry.c.j2) appended to it: host code, device
code, and the host runtime linked in as in any shared object. Where it is loaded, the
process's one runtime library (`calls.HostRuntime`) stands in for that copy of the runtime.

The source is compiled as written, behind a `#line 1 "<filename>"`, so that diagnostics and
the runtime's messages name the caller's file name and lines.

Cache: the preprocessed text (so that edited headers count), the options, the file name,
the backend, the host compilers and a hash of ompgpu's own sources key a folder under
`$OMPGPU_CACHE/python/` (default `~/.cache/ompgpu/python/`) holding `module.so` and the
description of what it holds (`module.pickle`).
"""
from __future__ import annotations

import functools
import hashlib
import os
import pickle
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

import jinja2

import ompgpu
from ompgpu.driver import compile_and_link, run_deep, translate
from ompgpu.errors import OmpgpuError, ToolchainError
from ompgpu.options import parse_cc_args
from ompgpu.parser.cfront import CppFailed, parse_c, preprocess
from ompgpu.parser.loop_transforms import apply_loop_transforms
from ompgpu.python_api import cache
from ompgpu.python_api.model import CompileError, CompileFailed, Module
from ompgpu.python_api.signature import find_signatures
from ompgpu.nvrtc import find_nvrtc
from ompgpu.toolchain import find_cuda, host_cc, host_cxx, private_gomp, runtime_dynamic_list, runtime_shared_library

PACKAGE_DIR = Path(ompgpu.__file__).resolve().parent
TEMPLATES = Path(__file__).resolve().parent / "templates"


@functools.lru_cache(maxsize=1)
def compiler_version() -> str:
    """A hash of every source file of the compiler and its runtimes."""
    h = hashlib.sha256(ompgpu.__version__.encode())
    for path in sorted(PACKAGE_DIR.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".j2", ".cuh", ".h", ".hpp", ".inc", ".cpp", ".cu", ".lark"):
            h.update(str(path.relative_to(PACKAGE_DIR)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def build_module(source: str, options: list[str], filename: str, offload: str) -> Module:
    """The module of `source` (options checked by model.check_options)."""
    # -O1 unless asked: the emulator's code compiles several times faster, and runs on the CPU.
    default_opt = [] if any(o.startswith("-O") for o in options) or offload == "cuda" else ["-O1"]
    lines = source.split("\n")
    text = f'#line 1 "{_c_string(filename)}"\n{source}\n'
    src = cache.cache_root() / "src" / hashlib.sha256(text.encode()).hexdigest()[:16] / "input.c"
    cache.write_once(src, text)
    probe = parse_cc_args([*default_opt, *options, str(src)])
    cpp_args = (*probe.cpp_args, *((probe.std,) if probe.std else ()), f"-I{os.getcwd()}")
    try:
        pre = apply_loop_transforms(preprocess(str(src), host_cc(), cpp_args, probe.verbose))
    except CppFailed as exc:
        raise CompileError(exc.message) from None
    except OmpgpuError as exc:   # a tile or unroll construct the loop transformations reject
        raise _compile_error(exc, {filename: lines}) from None
    key = hashlib.sha256("\0".join([pre.text.replace(str(src), "<input>"), repr(options), filename, offload,
                                    host_cc(), host_cxx(), compiler_version(), _device_compiler(offload),
                                    python_abi()]).encode())
    folder = cache.cache_root() / key.hexdigest()[:24]
    described = folder / "module.pickle"
    module = None
    if described.exists():
        try:
            module = pickle.loads(described.read_bytes())
            if not Path(module.library).exists():
                module = None
        except Exception:  # noqa: BLE001 - a damaged or foreign cache entry: build again
            module = None
    if module is None:
        module = _build(text, pre, options, default_opt, filename, offload, folder, lines)
    cache.record(source, options, filename, offload, module, [*sorted({f for f, _ in pre.origins}), *module.preload],
                 str(runtime_shared_library(offload)))
    return module


def _build(text, pre, options, default_opt, filename, offload, folder: Path, lines) -> Module:
    sources = {filename: lines}
    try:
        signatures = run_deep(lambda: find_signatures(parse_c(pre), filename))
    except OmpgpuError as exc:
        raise _compile_error(exc, sources) from None
    entries = _render("entry.c.j2", signatures=list(signatures.callable.values()))
    folder.mkdir(parents=True, exist_ok=True)
    module_c = folder / "module.c"
    cache.write_once(module_c, text + entries)
    library = folder / "module.so"
    staged = folder / f".module-{os.getpid()}.so"
    # Only the runtime's symbols stay preemptible (they bind to the process's one runtime
    # library); the source's own functions bind to themselves.
    dynamic_list = runtime_dynamic_list(offload)
    # gcc's OpenMP runtime under its own soname, first: the libgomp.so.1 the driver adds is then
    # not needed (--as-needed drops it), and a process's older libgomp.so.1 cannot stand in.
    gomp = private_gomp(host_cxx())
    private = [str(gomp), "-Wl,--as-needed"] if gomp else []
    opts = parse_cc_args([*default_opt, *options, f"-I{os.getcwd()}", "-shared", "-fPIC", f"--offload={offload}",
                          f"-Wl,--dynamic-list={dynamic_list}", str(module_c), *private, "-o", str(staged)])
    try:
        translation = translate(str(module_c), opts)
    except ToolchainError:
        raise
    except OmpgpuError as exc:
        raise _compile_error(exc, sources) from None
    glue = _compiled_calls(list(signatures.callable.values()), folder)
    if glue is not None:
        opts.inputs.append(str(glue))
    try:
        compile_and_link(opts, {str(module_c): translation})
    except ToolchainError as exc:
        raise CompileFailed(f"building '{filename}' failed: {exc.message}") from None
    finally:
        if glue is not None:
            glue.unlink(missing_ok=True)
    os.replace(staged, library)
    module = Module(folder.name, filename, offload, str(library), signatures, translation.kernels,
                    translation.device_cu or "", translation.remarks, (str(gomp),) if gomp else ())
    cache.write_once(folder / "module.pickle", pickle.dumps(module))
    return module


def python_abi() -> str:
    """What a module's compiled calls depend on: the Python that runs them (part of the key)."""
    return f"{sys.implementation.cache_tag} {sysconfig.get_config_var('SOABI')} {cache.python_include() or ''}"


def _compiled_calls(signatures, folder: Path) -> Path | None:
    """The object of templates/pycall.c.j2: each function a Python callable in C. None where this
    Python has no headers, or they do not compile: calls then go through ctypes (calls.Caller)."""
    include = cache.python_include()
    if include is None or not signatures:
        return None
    source = folder / "pycall.c"
    cache.write_once(source, _render("pycall.c.j2", signatures=signatures, scalar_range=_scalar_range))
    obj = folder / f".pycall-{os.getpid()}.o"
    proc = subprocess.run([host_cc(), "-std=gnu11", "-O2", "-fPIC", "-w", f"-I{include}", "-c", str(source), "-o", str(obj)],
                          capture_output=True, text=True)
    return obj if proc.returncode == 0 else None


def _scalar_range(t) -> str:
    """The C literals of the range pycall.c.j2 takes in a long long for an integer type (a wider
    unsigned value goes to the slow path, which checks it)."""
    lo, hi = t.int_range
    low = f"{lo + 1}LL - 1" if lo < 0 else f"{lo}LL"   # LLONG_MIN is not a literal
    return f"{low}, {min(hi, (1 << 63) - 1)}LL"


def _device_compiler(offload: str) -> str:
    """The device compilers a build may use (part of the cache key)."""
    if offload != "cuda":
        return ""
    nvrtc = find_nvrtc()
    cuda = find_cuda(required=nvrtc is None)
    return " ".join(([f"NVRTC {nvrtc.path} {nvrtc.version()}"] if nvrtc else []) +
                    ([f"{cuda.nvcc} {cuda.version()}"] if cuda else []))


def _compile_error(exc: OmpgpuError, sources: dict[str, list[str]]) -> CompileError:
    return CompileError(exc.message, exc.coord, exc.notes, exc.render(sources))


def _c_string(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


@functools.lru_cache(maxsize=1)
def _templates() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, autoescape=False)


def _render(name: str, **ctx) -> str:
    return _templates().get_template(name).render(**ctx)


