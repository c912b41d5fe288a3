"""Source coordinates and user-facing diagnostics.

Every user error raises an OmpgpuError subclass; the driver prints it gcc-style
(`file:line:col: error: message`, the source line, a caret) and exits non-zero.
"""
from __future__ import annotations

import contextlib
import contextvars
import os
import tempfile
import traceback
from dataclasses import dataclass


@dataclass(frozen=True)
class SourceCoord:
    """A position in the user's source (1-based line and column)."""

    file: str
    line: int
    col: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class OmpgpuError(Exception):
    """A diagnosable error in the user's input or environment."""

    kind = "error"

    def __init__(self, message: str, coord: SourceCoord | None = None, notes: tuple[str, ...] = ()):
        super().__init__(message)
        self.message = message
        self.coord = coord
        self.notes = notes

    def render(self, source_lines: dict[str, list[str]] | None = None) -> str:
        """gcc-style text: location, message, the source line and a caret."""
        head = f"{self.coord}: " if self.coord else "ompgpu: "
        out = [f"{head}{self.kind}: {self.message}"]
        line_text = _source_line(self.coord, source_lines)
        if line_text is not None:
            out.append(line_text)
            col = max(1, self.coord.col)
            prefix = "".join(c if c == "\t" else " " for c in line_text[: col - 1])
            out.append(prefix + "^")
        out.extend(f"note: {n}" for n in self.notes)
        return "\n".join(out)


class OmpSyntaxError(OmpgpuError):
    """A malformed `#pragma omp` directive."""


class CSyntaxError(OmpgpuError):
    """The C code itself does not parse."""


class OmpSemanticError(OmpgpuError):
    """Well-formed but invalid OpenMP (wrong nesting, bad clause, unknown variable)."""


class UnsupportedError(OmpgpuError):
    """Valid OpenMP that ompgpu cannot compile yet; never silently miscompiled."""


class ToolchainError(OmpgpuError):
    """A tool the driver needs (nvcc, cc) is missing or failed."""


def _source_line(coord: SourceCoord | None, source_lines: dict[str, list[str]] | None) -> str | None:
    if coord is None or coord.line < 1:
        return None
    lines = (source_lines or {}).get(coord.file)
    if lines is None:
        try:
            with open(coord.file, encoding="utf-8", errors="replace") as f:
                lines = f.read().split("\n")
        except OSError:
            return None
    if coord.line > len(lines):
        return None
    return lines[coord.line - 1].rstrip("\n")


# -- internal compiler errors -------------------------------------------------------------------
# Where the compiler is: the file being translated and the last construct a pass started on.
# An internal error names it, so a report says which input and which line made ompgpu fail.
_compiling: contextvars.ContextVar[tuple[str | None, SourceCoord | None]] = contextvars.ContextVar(
    "ompgpu_compiling", default=(None, None))


@contextlib.contextmanager
def compiling(path: str):
    """Passes run inside this for one input file. After an exception the location stays set,
    for the report of whoever catches it."""
    token = _compiling.set((path, None))
    try:
        yield
    except BaseException as exc:
        exc.ompgpu_location = _compiling.get()  # for a report made in another thread
        raise
    _compiling.reset(token)


def note_location(coord: SourceCoord | None) -> None:
    """A pass is now working on the construct at coord."""
    path, _ = _compiling.get()
    if coord is not None:
        _compiling.set((path, coord))


def report_internal_error(exc: BaseException, verbose: bool = False) -> str:
    """The one line a user sees when ompgpu itself fails (never a bare traceback): what failed,
    where in the input, and how to report it. The traceback goes to a file the line names, and
    to the terminal too under -v."""
    path, coord = getattr(exc, "ompgpu_location", None) or _compiling.get()
    where = f" while compiling {coord}" if coord else (f" while compiling {path}" if path else "")
    trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    try:
        fd, trace_file = tempfile.mkstemp(prefix="ompgpu-crash-", suffix=".txt")
        with os.fdopen(fd, "w") as f:
            f.write(trace)
        saved = f"; the traceback is in {trace_file}"
    except OSError:
        saved = ""
    what = f"{type(exc).__name__}: {exc}".strip().splitlines()[0] if str(exc) else type(exc).__name__
    line = (f"ompgpu: internal compiler error: {what}{where}; please report it to the ompgpu developers with "
            f"the input file{saved}" + ("" if verbose else " (or rerun with -v to see it)"))
    return (trace + line) if verbose else line
