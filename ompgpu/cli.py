"""`ompgpu` command line: `ompgpu cc ...` (a gcc-like compiler driver) and `ompgpu doctor`."""
from __future__ import annotations

import sys

from ompgpu import __version__
from ompgpu.errors import OmpgpuError, report_internal_error
from ompgpu.options import USAGE, UsageError, parse_cc_args


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE, end="")
        return 0 if argv else 2
    if argv[0] in ("--version", "-V", "version"):
        print(f"ompgpu {__version__} (OpenMP offload to NVIDIA GPUs, warp-specialized)")
        return 0
    verbose = "-v" in argv
    try:
        if argv[0] == "cc":
            from ompgpu.driver import compile_and_link

            return compile_and_link(parse_cc_args(argv[1:]))
        if argv[0] == "doctor":
            from ompgpu.doctor import doctor

            return doctor()
        raise UsageError(f"unknown command '{argv[0]}' (expected 'cc' or 'doctor')")
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
