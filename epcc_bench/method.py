"""The measurement method: which tests exist, delay calibration, innerreps, statistics.

Standard library only (it runs on the GPU machine). Everything here is a pure function of
a `measure` callable, so the CPU tests drive it with a fake device.

Definitions (after EPCC syncbench/schedbench):
- a *measurement* runs one target region in which the construct is repeated `innerreps` times;
  the program reports the seconds it took and the number of constructs on the critical path
  (usually innerreps; for critical/lock/atomic, innerreps shared out among the threads);
- innerreps starts small and doubles until one measurement takes at least `target_seconds`;
- then `outer_reps` measurements are taken; the first is discarded (warm-up);
- time per construct = seconds / constructs; overhead = mean(test) - mean(reference), where the
  reference runs the same delays on one thread.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

DEFAULT_DELAY_US = 0.1          # one delay call on the GPU
DEFAULT_TARGET_SECONDS = 1e-3   # one measurement (target region) at least this long
DEFAULT_OUTER_REPS = 20         # the first is discarded
DEFAULT_ITERS_PER_THREAD = 128  # schedbench loop length per thread
MAX_INNERREPS = 1 << 22
OUTLIER_SDS = 3.0               # EPCC counts samples further than 3 sd from the mean

THREADS_DEFAULT = (32, 64, 128, 256, 512, 992)
THREADS_FULL = tuple(range(32, 993, 32))
CHUNKS = (1, 2, 4, 8, 16, 32, 64, 128)


@dataclass(frozen=True)
class Test:
    """One benchmark. `reference` names the test whose mean is subtracted (None: nothing)."""
    name: str
    group: str                     # sync | sched | target
    reference: str | None
    min_reps_per_thread: bool = False  # critical/lock/atomic: innerreps >= threads
    chunked: bool = False          # schedbench kinds taking a chunk size
    description: str = ""


SYNC_TESTS = (
    Test("parallel", "sync", "reference", description="#pragma omp parallel { delay }"),
    Test("for", "sync", "reference", description="omp for over nthreads delays, inside one parallel"),
    Test("parallel_for", "sync", "reference", description="parallel for over nthreads delays"),
    Test("barrier", "sync", "reference", description="delay; #pragma omp barrier"),
    Test("single", "sync", "reference", description="#pragma omp single { delay }"),
    Test("critical", "sync", "reference", True, description="critical { delay }, innerreps in all"),
    Test("lock", "sync", "reference", True, description="omp_set_lock; delay; omp_unset_lock"),
    Test("atomic", "sync", None, True, description="atomic x += 1.0, innerreps in all (no reference)"),
    Test("reduction", "sync", "reference", description="parallel reduction(+) { delay }"),
    Test("master", "sync", "reference", description="#pragma omp master { delay }"),
)
SCHED_TESTS = (
    Test("static", "sched", "sched_reference", description="omp for schedule(static)"),
    Test("static_n", "sched", "sched_reference", chunked=True, description="schedule(static, n)"),
    Test("dynamic_n", "sched", "sched_reference", chunked=True, description="schedule(dynamic, n)"),
    Test("guided_n", "sched", "sched_reference", chunked=True, description="schedule(guided, n)"),
)
TARGET_TESTS = (
    Test("target_empty", "target", None, description="empty target region, host-timed end to end"),
    Test("target_map", "target", None, description="target map(tofrom: int[16]), host-timed"),
)
REFERENCES = (
    Test("reference", "ref", None, description="the delays on one thread"),
    Test("sched_reference", "ref", None, description="iters delays per repetition on one thread"),
)
ALL_TESTS = {t.name: t for t in SYNC_TESTS + SCHED_TESTS + TARGET_TESTS + REFERENCES}


def choose_innerreps(measure: Callable[[int], float], start: int, target_seconds: float,
                     max_reps: int = MAX_INNERREPS) -> int:
    """Double innerreps from `start` until one measurement takes >= target_seconds."""
    reps = max(1, start)
    while reps < max_reps:
        if measure(reps) >= target_seconds:
            return reps
        reps *= 2
    return max_reps


def calibrate_delay(seconds_per_delay: Callable[[int], float], target_seconds: float,
                    max_length: int = 1 << 20) -> int:
    """Loop length of the delay function so that one call takes about target_seconds.

    The time of one call is close to a + b * length (call overhead plus a fixed cost per
    dependent add). Double the length until a call takes at least the target, then
    interpolate linearly between the last two lengths and round up, so that a delay takes
    at least the target (one loop step is coarse on a GPU: tens of ns). Returns at least 1;
    returns max_length when the delay never gets that slow (e.g. a device emulator that
    does not keep time).
    """
    prev_len, prev_t = 0, None
    length = 1
    while length <= max_length:
        t = seconds_per_delay(length)
        if t >= target_seconds:
            if prev_t is None or t <= prev_t:
                return length
            slope = (t - prev_t) / (length - prev_len)
            guess = prev_len + (target_seconds - prev_t) / slope
            return max(1, min(length, math.ceil(guess - 1e-9)))
        prev_len, prev_t = length, t
        length *= 2
    return max_length


@dataclass(frozen=True)
class Stats:
    mean: float
    min: float
    max: float
    sd: float
    outliers: int
    n: int


def statistics(samples: Sequence[float], discard_first: bool = True) -> Stats:
    """EPCC statistics of the samples (the first one dropped as warm-up when asked)."""
    xs = list(samples[1:] if discard_first and len(samples) > 1 else samples)
    if not xs:
        raise ValueError("no samples")
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    outliers = sum(1 for x in xs if abs(x - mean) > OUTLIER_SDS * sd) if sd > 0 else 0
    return Stats(mean, min(xs), max(xs), sd, outliers, n)


def overhead(test_mean: float, reference_mean: float | None) -> float:
    """Per-construct overhead: the test's time per construct less the reference's."""
    return test_mean - (reference_mean or 0.0)


def cycles(microseconds: float, sm_mhz: float | None) -> float | None:
    """Microseconds at the SM clock in MHz -> GPU cycles (None if the clock is unknown)."""
    return microseconds * sm_mhz if sm_mhz else None


def test_plan(threads: Sequence[int], chunks: Sequence[int], groups: Sequence[str]) -> list[tuple[Test, int, int]]:
    """(test, threads, chunk) in the order they run: each group in turn, threads ascending."""
    plan: list[tuple[Test, int, int]] = []
    for group in groups:
        if group == "target":
            plan += [(t, 1, 0) for t in TARGET_TESTS]
            continue
        tests = SYNC_TESTS if group == "sync" else SCHED_TESTS
        for nthr in threads:
            for t in tests:
                for chunk in (chunks if t.chunked else (0,)):
                    plan.append((t, nthr, chunk))
    return plan
