"""Talks to one benchmark program (epcc_omp.c or floor.cu built for some variant).

The program reads one command per line on stdin and answers one line on stdout (protocol in
src/epcc_omp.c). A program that crashes or hangs (a deadlocked runtime) must not stop the
run: every answer has a deadline; on a timeout or an exit the program is killed and started
again for the next command. Standard library only.
"""
from __future__ import annotations

import os
import selectors
import subprocess
import time


class ExecutorError(RuntimeError):
    """The program did not answer a command (crash, hang, 'err ...' answer)."""


class WrongAnswer(ExecutorError):
    """The program ran but its self-check failed (e.g. a lock that does not exclude)."""


class Executor:
    def __init__(self, argv: list[str], env: dict[str, str] | None = None, timeout: float = 30.0,
                 start_timeout: float = 120.0):
        self.argv = argv
        self.env = env
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen | None = None
        self._buffer = b""
        self.restarts = 0
        self.stderr_path: str | None = None

    # -- process management ---------------------------------------------------------------
    def _start(self) -> None:
        stderr = open(self.stderr_path, "ab") if self.stderr_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr, env=self.env)
        if stderr is not subprocess.DEVNULL:
            stderr.close()
        self._buffer = b""
        banner = self._read_line(self.start_timeout)
        if not banner.startswith("ready"):
            self.close()
            raise ExecutorError(f"unexpected greeting {banner!r}")

    def close(self) -> None:
        if self.proc is None:
            return
        try:
            if self.proc.poll() is None:
                try:
                    self.proc.stdin.write(b"quit\n")
                    self.proc.stdin.flush()
                    self.proc.wait(timeout=5)
                except (OSError, subprocess.TimeoutExpired):
                    self.proc.kill()
                    self.proc.wait()
        finally:
            for f in (self.proc.stdin, self.proc.stdout):
                try:
                    f.close()
                except OSError:
                    pass
            self.proc = None

    def _kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.close()
        self.restarts += 1

    def _read_line(self, timeout: float) -> str:
        assert self.proc is not None and self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ExecutorError(f"no answer within {timeout:g} s (hung?)")
                if not sel.select(left):
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    code = self.proc.wait()
                    raise ExecutorError(f"program exited with status {code}")
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode(errors="replace").strip()

    # -- commands ---------------------------------------------------------------------------
    def command(self, text: str, timeout: float | None = None) -> list[str]:
        """Send one command; return the words after 'ok'. Raises ExecutorError otherwise."""
        if self.proc is None:
            self._start()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write((text + "\n").encode())
            self.proc.stdin.flush()
            answer = self._read_line(self.timeout if timeout is None else timeout)
        except (ExecutorError, OSError) as exc:
            self._kill()
            raise ExecutorError(f"{text!r}: {exc}") from None
        words = answer.split()
        if not words or words[0] != "ok":
            raise ExecutorError(f"{text!r}: {answer}")
        return words[1:]

    def run(self, test: str, threads: int, reps: int, delay_length: int, iters: int = 0,
            chunk: int = 0) -> tuple[float, int]:
        """(seconds, constructs on the critical path) of one measurement.

        The program also reports what the test counted and what a correct runtime counts
        (0 0 when the test checks nothing); a mismatch raises WrongAnswer.
        """
        words = self.command(f"run {test} {threads} {reps} {delay_length} {iters} {chunk}")
        if len(words) >= 4 and float(words[2]) != float(words[3]):
            raise WrongAnswer(f"{test} threads={threads} innerreps={reps}: counted {float(words[2]):.0f}, "
                              f"expected {float(words[3]):.0f}")
        return float(words[0]), int(float(words[1]))

    def probe(self, threads: int) -> int:
        return int(self.command(f"probe {threads}")[0])

    def clock_mhz(self) -> float:
        return float(self.command("clock")[0])

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
