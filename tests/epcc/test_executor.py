"""The protocol client: answers, crashes, hangs, wrong answers."""
import sys
from pathlib import Path

import pytest

from epcc_bench.executor import Executor, ExecutorError, WrongAnswer

FAKE = [sys.executable, str(Path(__file__).with_name("fake_program.py"))]


def test_run_and_probe():
    with Executor(FAKE, env={"FAKE_ACTUAL": "20"}) as ex:
        assert ex.probe(64) == 20
        seconds, constructs = ex.run("parallel", 32, 10, 2)
        assert constructs == 10
        assert seconds == pytest.approx(10 * (80e-9 + 0.232e-6))
        assert ex.clock_mhz() == 1500.0


def test_unknown_test_is_an_error_but_the_program_lives_on():
    with Executor(FAKE) as ex:
        with pytest.raises(ExecutorError, match="unknown test"):
            ex.run("nonsense", 32, 1, 1)
        assert ex.restarts == 0
        assert ex.run("barrier", 32, 1, 1)[1] == 1


def test_crash_restarts_the_program():
    with Executor(FAKE, env={"FAKE_CRASH": "lock"}) as ex:
        with pytest.raises(ExecutorError, match="exited with status 7"):
            ex.run("lock", 32, 64, 1)
        assert ex.run("parallel", 32, 1, 1)[1] == 1
        assert ex.restarts == 1


def test_hang_times_out_and_restarts():
    with Executor(FAKE, env={"FAKE_HANG": "critical"}, timeout=1.0) as ex:
        with pytest.raises(ExecutorError, match="no answer within"):
            ex.run("critical", 32, 64, 1)
        assert ex.run("parallel", 32, 1, 1)[1] == 1


def test_failed_self_check_is_a_wrong_answer():
    with Executor(FAKE, env={"FAKE_WRONG": "lock"}) as ex:
        with pytest.raises(WrongAnswer, match="counted 1, expected 64"):
            ex.run("lock", 32, 64, 1)
