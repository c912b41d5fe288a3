"""Finding a compiled source again without compiling or preprocessing it (the direct cache).

build.py keys a module by the preprocessed source, which needs the C preprocessor and the
compiler's imports: a few hundred milliseconds, paid by every process that compiles a source
it compiled before. Here, as in ccache's direct mode, the source string itself, the options,
the file name, the backend, the working directory, the environment that picks the tools, and
a fingerprint of ompgpu's own files key a small record (`$OMPGPU_CACHE/python/direct/`) that
names the module's folder and every file the build read that may change: the headers the
preprocessor included, the runtime library. The record holds while each of those files has
the size and time it had; otherwise the source is built (or found by build.py) again.

Importing this module costs no compiler import, only what model.py needs.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import pickle
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import ompgpu
from ompgpu.python_api.model import Module

PACKAGE_DIR = Path(ompgpu.__file__).resolve().parent
SOURCE_SUFFIXES = (".py", ".j2", ".cuh", ".h", ".hpp", ".inc", ".cpp", ".cu", ".lark")
# What picks the tools and the headers a build uses.
ENVIRONMENT = ("PATH", "CUDA_HOME", "CPATH", "C_INCLUDE_PATH", "OMPGPU_HOST_CC", "OMPGPU_HOST_CXX",
               "OMPGPU_DEVICE_COMPILER", "OMPGPU_DEVICE_LINKER", "LD_LIBRARY_PATH")


@dataclass(frozen=True)
class Found:
    module: Module
    runtime_library: str   # the host runtime the module was linked against


def cache_root() -> Path:
    return ompgpu.cache_dir() / "python"


@functools.lru_cache(maxsize=1)
def package_fingerprint() -> str:
    """ompgpu's own files by name, size and time (an edit changes it; build.py's compiler_version
    hashes their contents)."""
    h = hashlib.sha256(ompgpu.__version__.encode())
    for folder, dirs, files in os.walk(PACKAGE_DIR):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                st = os.stat(os.path.join(folder, name))
                h.update(f"{folder}/{name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def python_include() -> str | None:
    """Where this Python's headers are (Python.h), for the calls compiled into a module; None: none."""
    import sysconfig

    include = sysconfig.get_paths().get("include")
    return include if include and os.path.exists(os.path.join(include, "Python.h")) else None


def direct_key(source: str, options: list[str], filename: str, offload: str) -> str:
    h = hashlib.sha256()
    for part in (package_fingerprint(), sys.implementation.cache_tag, sys.executable, python_include() or "", source,
                 repr(options), filename, offload, os.getcwd(),
                 *(f"{k}={os.environ.get(k, '')}" for k in ENVIRONMENT)):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:32]


def _record_path(key: str) -> Path:
    return cache_root() / "direct" / f"{key}.json"


def _stamp(path: str) -> list | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [path, st.st_size, st.st_mtime_ns]


def lookup(source: str, options: list[str], filename: str, offload: str) -> Found | None:
    """The module built before from this very source and setting, where nothing it read changed."""
    try:
        record = json.loads(_record_path(direct_key(source, options, filename, offload)).read_text())
        if any(_stamp(path) != [path, size, mtime] for path, size, mtime in record["files"]):
            return None
        folder = Path(record["folder"])
        module = pickle.loads((folder / "module.pickle").read_bytes())
        if not isinstance(module, Module) or not Path(module.library).exists():
            return None
        return Found(module, record["runtime_library"])
    except (OSError, ValueError, KeyError, TypeError, pickle.UnpicklingError, AttributeError, EOFError):
        return None   # no record, or a damaged or foreign one: build.py decides


def record(source: str, options: list[str], filename: str, offload: str, module: Module, files, runtime_library: str):
    """Remember where this source's module is and what its build read (`files`: paths)."""
    stamps = [s for s in (_stamp(str(f)) for f in dict.fromkeys([*files, runtime_library])) if s is not None]
    data = json.dumps({"folder": str(Path(module.library).parent), "files": stamps,
                       "runtime_library": runtime_library}).encode()
    write_once(_record_path(direct_key(source, options, filename, offload)), data)


def write_once(path: Path, data) -> None:
    """Write path atomically (concurrent builds never see half a file); unchanged files stay."""
    data = data.encode() if isinstance(data, str) else data
    if path.exists() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
