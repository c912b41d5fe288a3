"""-ftime-report: the wall time of each phase of a build, printed (to stderr) when it ends,
as clang and gcc print theirs, so that anyone can see where a build's time goes."""
from __future__ import annotations

import contextlib
import sys
import threading
import time

# The phases in the order a build runs them (what the report lists, when they ran).
PHASES = ("preprocess", "loop transformations", "parse C", "bind pragmas", "resolve variants and declarators", "outline", "plan kernels",
          "generate device code", "generate host code", "runtime library", "compile device code",
          "compile host code", "link device code", "link")


class PhaseTimes:
    """Seconds per phase, summed over a build's files (thread-safe: translation runs on its
    own thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.seconds: dict[str, float] = {}
        self.start = time.perf_counter()

    def add(self, name: str, seconds: float) -> None:
        with self._lock:
            self.seconds[name] = self.seconds.get(name, 0.0) + seconds

    def report(self) -> str:
        total = time.perf_counter() - self.start
        rows = [(name, self.seconds[name]) for name in PHASES if name in self.seconds]
        rows += [(name, s) for name, s in self.seconds.items() if name not in PHASES]
        width = max([len(name) for name, _ in rows] + [len("total")])
        lines = ["===-------------------------------------------------------------------------===",
                 "                          ompgpu time report (wall clock)",
                 "===-------------------------------------------------------------------------===",
                 f"  {'phase':<{width}}  {'seconds':>8}  {'share':>6}"]
        for name, s in rows:
            lines.append(f"  {name:<{width}}  {s:8.3f}  {100 * s / total if total else 0:5.1f}%")
        other = total - sum(s for _, s in rows)
        # A file's host and device compiles run at once: then the phases add up to more than the total.
        label = "(the rest: the driver itself)" if other >= 0 else "(phases that ran at once)"
        width = max(width, len(label))
        lines[3] = f"  {'phase':<{width}}  {'seconds':>8}  {'share':>6}"
        lines[4:] = [f"  {name:<{width}}  {s:8.3f}  {100 * s / total if total else 0:5.1f}%" for name, s in rows]
        lines.append(f"  {label:<{width}}  {other:8.3f}  {100 * other / total if total else 0:5.1f}%")
        lines.append(f"  {'total':<{width}}  {total:8.3f}  100.0%")
        return "\n".join(lines)


_current: PhaseTimes | None = None


def start_report() -> PhaseTimes:
    global _current
    _current = PhaseTimes()
    return _current


def stop_report() -> None:
    global _current
    if _current is not None:
        print(_current.report(), file=sys.stderr)
    _current = None


@contextlib.contextmanager
def phase(name: str):
    """Time the block as phase `name` when a report is being kept (else: nothing)."""
    if _current is None:
        yield
        return
    t0 = time.perf_counter()
    try:
        yield
    finally:
        if _current is not None:
            _current.add(name, time.perf_counter() - t0)
