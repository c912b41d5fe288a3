"""Source string -> generated device code + the function's plan, cached on disk.

The pipeline is `ompgpu cc`'s (`driver.translate`): the system preprocessor, the parser,
pragma binding, the outliner and the device code generator, here run on a string. Two
device files come out of one outlining: the NVRTC one (no host launch stubs) for CuPy, and
the `ompgpu cc` one, whose launch stubs the emulator backend calls.

Cache: the preprocessed text (so that edited headers count), the function name, the
options, the file name and a hash of ompgpu's own sources (the "compiler version") key a
folder under `$OMPGPU_CACHE/python/` (default `~/.cache/ompgpu/python/`) that holds the
translation (a pickle of frozen dataclasses); backends keep their binaries next to it.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import pickle
import tempfile
from dataclasses import dataclass
from pathlib import Path

import ompgpu
from ompgpu.options import Options, UsageError, parse_cc_args
from ompgpu.codegen.device import generate_device
from ompgpu.plan.mode import plan_kernels
from ompgpu.errors import OmpgpuError, SourceCoord
from ompgpu.outliner.outline import outline
from ompgpu.parser.bind import bind_pragmas
from ompgpu.parser.cfront import CppFailed, parse_c, preprocess
from ompgpu.parser.variants import resolve_variants
from ompgpu.python_api.plan import FunctionPlan, build_plan
from ompgpu.toolchain import host_cc

PACKAGE_DIR = Path(ompgpu.__file__).resolve().parent
PICKLE_NAME = "translation.pickle"


class CompileError(OmpgpuError):
    """An error in the C source given to `ompgpu.compile` (str() is the gcc-style report)."""

    def __init__(self, message: str, coord: SourceCoord | None = None, notes: tuple[str, ...] = (), text: str = ""):
        super().__init__(message, coord, notes)
        self.text = text or message

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Translation:
    key: str
    filename: str
    plan: FunctionPlan
    device_cu: str  # as `ompgpu cc` generates it (launch stubs included)
    nvrtc_cu: str  # the same kernels without host code
    remarks: tuple[str, ...]
    mode: str
    offload_arch: str


@functools.lru_cache(maxsize=1)
def compiler_version() -> str:
    """A hash of every source file of the compiler and its runtimes."""
    h = hashlib.sha256(ompgpu.__version__.encode())
    for path in sorted(PACKAGE_DIR.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".j2", ".cuh", ".h", ".hpp", ".cpp", ".cu", ".lark") or \
                (path.is_file() and path.parent.name == "nvrtc_include"):
            h.update(str(path.relative_to(PACKAGE_DIR)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_root() -> Path:
    root = os.environ.get("OMPGPU_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "ompgpu")
    return Path(root) / "python"


def parse_options(options) -> Options:
    """`ompgpu cc` options that make sense for a string: -D -U -I -std= -O --mode= --offload-arch=."""
    if isinstance(options, str):
        raise TypeError("options must be a sequence of strings, e.g. ('-DN=100', '--mode=generic')")
    options = [str(o) for o in (options or ())]
    for o in options:
        if not o.startswith(("-D", "-U", "-I", "-std=", "-O", "--mode=", "--offload-arch=", "-w")):
            raise UsageError(f"option '{o}' is not accepted by ompgpu.compile (accepted: -D -U -I -std= -O "
                             "--mode= --offload-arch= -w)")
    return parse_cc_args([*options, "<string>.c"])


def translate_source(source: str, name: str, options=(), filename: str = "<string>") -> Translation:
    opts = parse_options(options)
    source_hash = hashlib.sha256(source.encode()).hexdigest()[:16]
    src_dir = cache_root() / "src" / source_hash
    src_dir.mkdir(parents=True, exist_ok=True)
    path = src_dir / "input.c"
    if not path.exists() or path.read_text() != source:
        _atomic_write(path, source.encode())
    remap = _Remap(str(path), filename, source)
    cpp_args = tuple(opts.cpp_args) + ((opts.std,) if opts.std else ()) + (f"-I{os.getcwd()}",)
    try:
        pre = preprocess(str(path), host_cc(), cpp_args, opts.verbose)
    except CppFailed as exc:
        raise CompileError(exc.message, text=exc.message.replace(str(path), filename)) from None
    key = hashlib.sha256("\0".join([pre.text.replace(str(path), "<input>"), name, repr(options), filename,
                                    compiler_version()]).encode()).hexdigest()[:24]
    folder = cache_root() / key
    cached = folder / PICKLE_NAME
    if cached.exists():
        try:
            return pickle.loads(cached.read_bytes())
        except Exception:  # noqa: BLE001 - a damaged or foreign cache entry: translate again
            pass
    try:
        bound = bind_pragmas(parse_c(pre), opts.offload_arch)
        fix = lambda c: remap.coord(bound.coord_fixer.fix(c))  # noqa: E731
        try:
            bound = resolve_variants(bound, opts.offload_arch)
            program = outline(bound)
            nvrtc = _generate(program, opts, nvrtc=True)
            full = _generate(program, opts, nvrtc=False)
            plan = build_plan(program, nvrtc.kernel_names, name, fix, nvrtc.kernel_modes, nvrtc.kernel_max_threads)
        except OmpgpuError as exc:
            exc.coord = bound.coord_fixer.fix(exc.coord)
            raise
    except CompileError:
        raise
    except OmpgpuError as exc:
        raise remap.error(exc) from None
    remarks = tuple(f"{remap.coord(c)}: remark: {m} [-Rpass=ompgpu]" for c, m in nvrtc.remarks)
    t = Translation(key, filename, plan, full.cuda, nvrtc.cuda, remarks, opts.mode, opts.offload_arch)
    folder.mkdir(parents=True, exist_ok=True)
    _atomic_write(cached, pickle.dumps(t))
    return t


def _generate(program, opts: Options, nvrtc: bool):
    return generate_device(program, plan_kernels(program, opts.mode), nvrtc=nvrtc)


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


class _Remap:
    """Coordinates in the temporary input file -> the user's file name."""

    def __init__(self, path: str, filename: str, source: str):
        self.path, self.filename = path, filename
        self.lines = source.split("\n")

    def coord(self, c: SourceCoord | None) -> SourceCoord | None:
        if c is not None and c.file == self.path:
            return dataclasses.replace(c, file=self.filename)
        return c

    def error(self, exc: OmpgpuError) -> CompileError:
        coord = self.coord(exc.coord)
        probe = OmpgpuError(exc.message, coord, exc.notes)
        probe.kind = exc.kind
        text = probe.render({self.filename: self.lines})
        return CompileError(exc.message, coord, exc.notes, text)
