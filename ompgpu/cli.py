"""`ompgpu` command line: `ompgpu cc ...` (a gcc-like compiler driver) and `ompgpu doctor`."""
from __future__ import annotations

import sys

from ompgpu import __version__, cache_dir
from ompgpu.errors import OmpgpuError, report_internal_error
from ompgpu.options import USAGE, UsageError, parse_cc_args


def _looks_like_compiler_argument(arg: str) -> bool:
    """An option, or an input file gcc would take (so a misspelt command is not read as a file)."""
    return arg.startswith("-") or arg.endswith((".c", ".o", ".a", ".so"))


def _keep_bytecode() -> None:
    """Under PYTHONDONTWRITEBYTECODE (usual in container images) Python would translate
    ompgpu's own modules again at every compile, about 0.3 s of a 1 s build: their bytecode goes
    to ompgpu's cache folder instead (not beside the sources, which that setting keeps clean)."""
    if sys.dont_write_bytecode:
        sys.pycache_prefix = str(cache_dir() / "pycache")
        sys.dont_write_bytecode = False


def main(argv: list[str] | None = None) -> int:
    _keep_bytecode()
    argv = list(sys.argv[1:] if argv is None else argv)
    # `ompgpu cc --help` / `ompgpu cc --version` answer as `ompgpu --help` does (gcc's own).
    if argv[:1] == ["cc"] and argv[1:2] and argv[1] in ("-h", "--help", "--version", "-V"):
        argv = argv[1:]
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE, end="")
        return 0 if argv else 2
    if argv[0] in ("--version", "-V", "version"):
        print(f"ompgpu {__version__} (OpenMP offload to NVIDIA GPUs, warp-specialized)")
        return 0
    verbose = "-v" in argv
    try:
        if argv[0] == "doctor":
            from ompgpu.doctor import doctor

            return doctor()
        # `ompgpu cc ARGS` or, as a compiler that wrappers call (OMPI_CC=ompgpu mpicc,
        # MPICH_CC=ompgpu, CC=ompgpu make), `ompgpu ARGS` with gcc's arguments.
        cc_args = argv[1:] if argv[0] == "cc" else argv
        if argv[0] != "cc" and not _looks_like_compiler_argument(argv[0]):
            raise UsageError(f"unknown command '{argv[0]}' (expected 'cc', 'doctor', or compiler arguments)")
        from ompgpu.driver import compile_and_link

        return compile_and_link(parse_cc_args(cc_args))
    except OmpgpuError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `ompgpu doctor | head`: the reader went away, nothing to say
        return 141
    except Exception as exc:  # noqa: BLE001 - a bug in ompgpu, not in the user's input
        print(report_internal_error(exc, verbose), file=sys.stderr)
        return 70
