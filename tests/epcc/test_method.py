"""Calibration, innerreps doubling, statistics: the method's pure logic."""
import math

import pytest

from epcc_bench import method


def test_choose_innerreps_doubles_until_long_enough():
    calls = []

    def measure(reps):
        calls.append(reps)
        return reps * 3e-6  # 3 us per repetition

    reps = method.choose_innerreps(measure, 1, 1e-3)
    assert reps == 512  # 512 * 3 us = 1.5 ms >= 1 ms; 256 * 3 us = 0.77 ms is not
    assert calls == [1 << k for k in range(10)]


def test_choose_innerreps_starts_at_start_and_caps():
    assert method.choose_innerreps(lambda r: 1.0, 992, 1e-3) == 992
    assert method.choose_innerreps(lambda r: 0.0, 1, 1e-3, max_reps=64) == 64


@pytest.mark.parametrize("a_ns,b_ns", [(20, 30), (50, 3), (0.5, 0.25), (90, 60)])
def test_calibrate_delay_reaches_the_target_within_one_step(a_ns, b_ns):
    target = 100e-9

    def per_delay(length):
        return (a_ns + b_ns * length) * 1e-9

    length = method.calibrate_delay(per_delay, target)
    assert per_delay(length) >= target - 1e-15          # rounded up: at least the target
    assert length == 1 or per_delay(length - 1) < target  # and the shortest such length


def test_calibrate_delay_when_time_does_not_grow():
    assert method.calibrate_delay(lambda n: 1e-12, 1e-7, max_length=1024) == 1024


def test_statistics_discards_the_first_sample():
    st = method.statistics([100.0, 1.0, 2.0, 3.0])
    assert st.n == 3 and st.mean == 2.0 and st.min == 1.0 and st.max == 3.0
    assert st.sd == pytest.approx(1.0)
    assert st.outliers == 0


def test_statistics_counts_outliers_beyond_three_sd():
    xs = [5.0] + [1.0] * 30 + [100.0]
    st = method.statistics(xs)
    assert st.n == 31
    assert st.outliers == 1
    mean = (30 + 100) / 31
    assert st.mean == pytest.approx(mean)
    assert st.sd == pytest.approx(math.sqrt((30 * (1 - mean) ** 2 + (100 - mean) ** 2) / 30))


def test_statistics_single_and_empty():
    assert method.statistics([7.0], discard_first=True).mean == 7.0
    with pytest.raises(ValueError):
        method.statistics([])


def test_overhead_and_cycles():
    assert method.overhead(0.3, 0.1) == pytest.approx(0.2)
    assert method.overhead(0.3, None) == 0.3
    assert method.cycles(0.5, 1980.0) == pytest.approx(990.0)
    assert method.cycles(0.5, None) is None


def test_test_plan_order_and_size():
    plan = method.test_plan([32, 64], method.CHUNKS, ["sync", "target", "sched"])
    names = [(t.name, n, c) for t, n, c in plan]
    assert names[0] == ("parallel", 32, 0)
    assert len([p for p in plan if p[0].group == "sync"]) == 2 * len(method.SYNC_TESTS)
    assert len([p for p in plan if p[0].group == "target"]) == 2
    assert len([p for p in plan if p[0].group == "sched"]) == 2 * (1 + 3 * len(method.CHUNKS))
    assert ("dynamic_n", 64, 128) in names and ("static", 64, 0) in names


def test_thread_counts_match_the_paper():
    assert method.THREADS_FULL[0] == 32 and method.THREADS_FULL[-1] == 992 and len(method.THREADS_FULL) == 31
    assert set(method.THREADS_DEFAULT) <= set(method.THREADS_FULL)
