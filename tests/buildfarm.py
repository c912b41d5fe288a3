"""Builds of many programs for the tests, on every core, without a Python start per build.

A test that builds a program runs `ompgpu cc ...` and checks what it printed and returned.
Hundreds of them did so one after another, each paying a Python start and ompgpu's imports
(a third of a second) and leaving the second core idle while the first compiled. The farm
keeps one worker process per core that has imported ompgpu once; for each build a worker
forks a child (from a single-threaded process, so the fork is safe) that runs
`ompgpu.cli.main(argv)`, the function behind the `ompgpu` command, with the job's
environment, folder and standard streams: the same build as `python -m ompgpu cc ...`, less
the start. A job may then run the built program (a plain process). Tests submit their jobs
ahead (`submit`) and check each result when they reach it, so the workers build the next
programs while a test checks the last one.

    python3 tests/buildfarm.py --serve      (a worker: what the farm starts, one per core)
"""
from __future__ import annotations

import concurrent.futures
import json
import os
import queue
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

BUILD_TIMEOUT_S = 900


@dataclass(frozen=True)
class Result:
    """What one command of a job did, as subprocess.CompletedProcess says it."""
    args: list[str]
    returncode: int
    stdout: str
    stderr: str


@dataclass(frozen=True)
class JobResult:
    build: Result
    run: Result | None  # None when the job ran no program, or the build failed


class _Worker:
    """One worker process and the thread that hands it jobs from the farm's queue."""

    def __init__(self, farm: "BuildFarm", index: int):
        self.farm = farm
        self.scratch = Path(tempfile.mkdtemp(prefix=f"buildfarm-{index}-"))
        self.proc = None
        self.thread = threading.Thread(target=self._loop, name=f"buildfarm-{index}", daemon=True)
        self.thread.start()

    def _start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def _build(self, argv: list[str], env: dict, cwd: str) -> Result:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        out, err = self.scratch / "stdout", self.scratch / "stderr"
        request = {"argv": argv, "env": env, "cwd": cwd, "stdout": str(out), "stderr": str(err),
                   "timeout": BUILD_TIMEOUT_S}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:  # the worker died: the job fails with what it left, and the next job restarts it
            self.proc = None
            raise RuntimeError(f"build farm worker died building {' '.join(argv)}")
        reply = json.loads(line)
        read = lambda p: p.read_text(encoding="utf-8", errors="surrogateescape") if p.exists() else ""
        return Result(["ompgpu", *argv], reply["returncode"], read(out), read(err))

    def _loop(self) -> None:
        while True:
            item = self.farm.jobs.get()
            if item is None:
                break
            future, (argv, env, cwd, run, run_env, run_timeout) = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                build = self._build(argv, env, cwd)
                result = None
                if run and build.returncode == 0:
                    proc = subprocess.run(run, capture_output=True, text=True, timeout=run_timeout, env=run_env, cwd=cwd)
                    result = Result(list(run), proc.returncode, proc.stdout, proc.stderr)
                future.set_result(JobResult(build, result))
            except BaseException as exc:  # noqa: BLE001 - the test that waits for the job reports it
                future.set_exception(exc)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class BuildFarm:
    """`submit(argv)` -> a Future of a JobResult: `ompgpu <argv>` built in `cwd` with `env`,
    then, when it built and `run` is given, that command run there with `run_env`."""

    def __init__(self, workers: int | None = None):
        self.jobs: queue.Queue = queue.Queue()
        self.workers = [_Worker(self, i) for i in range(workers or os.cpu_count() or 1)]

    def submit(self, argv: list[str], cwd: str | Path, env: dict | None = None, run: list[str] | None = None,
               run_env: dict | None = None, run_timeout: float = 300) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()
        env = dict(os.environ if env is None else env)
        self.jobs.put((future, ([str(a) for a in argv], env, str(cwd), [str(a) for a in run] if run else None,
                                dict(os.environ if run_env is None else run_env), run_timeout)))
        return future

    def close(self) -> None:
        for _ in self.workers:
            self.jobs.put(None)
        for w in self.workers:
            w.thread.join(timeout=60)
            w.close()


def submit_ahead(request, test_function, job) -> dict:
    """Submits `job(params)` to the farm for every selected test item of `test_function`, in the
    order the items run, and returns {item's parameters: Future}: the workers build the next
    programs while a test checks the last."""
    futures = {}
    for item in request.session.items:
        if getattr(item, "function", None) is test_function and hasattr(item, "callspec"):
            key = tuple(sorted(item.callspec.params.items(), key=lambda kv: kv[0]))
            if key not in futures:
                futures[key] = job(dict(key))
    return futures


def farm_result(futures: dict, **params):
    """The result of the job `submit_ahead` submitted for these parameters."""
    return futures[tuple(sorted(params.items(), key=lambda kv: kv[0]))].result()


# ---------------------------------------------------------------------------------------
# The worker: imports ompgpu once, then forks a child per build request.

def _child(request: dict) -> None:
    """In the forked child: the request's environment, folder and streams, then the command."""
    try:
        os.setpgid(0, 0)  # its tools are killed with it on a timeout
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
            f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(f, fd)
            os.close(f)
        sys.argv = ["ompgpu", *request["argv"]]
        from ompgpu.cli import main
        code = main(request["argv"])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 - printed where the test reads stderr
        import traceback
        traceback.print_exc()
        code = 99
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code if isinstance(code, int) else 1)


def _wait(pid: int, timeout: float) -> int:
    fd = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            return 124
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status)
    finally:
        os.close(fd)


WARM_UP_PROGRAMS = ("reduction_ops.c", "nested_parallel.c")


def _warm_up() -> None:
    """Translates a few programs once, in both modes and for both targets, so that what every
    translation builds on first use (the pragma parser's tables read from their cache, its lexer's
    regular expressions, the code templates) is built here, before the forks, and not again in
    each build's child: about a tenth of a second of every build. Nothing is compiled or written
    beyond ompgpu's own caches; a translation that fails here fails again, reported, in its build."""
    from ompgpu.driver import translate
    from ompgpu.options import Options

    programs = Path(__file__).resolve().parent / "programs"
    for name in WARM_UP_PROGRAMS:
        src = str(programs / name)
        for offload in ("emu", "cuda"):
            for mode in ("auto", "generic"):
                try:
                    translate(src, Options(inputs=[src], mode=mode, offload=offload))
                except Exception:  # noqa: BLE001 - only a warm-up: the build that needs it reports it
                    pass


def serve() -> int:
    # The protocol owns the original standard output; anything else printed goes to stderr.
    channel = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    import ompgpu.cli  # noqa: F401 - what every build imports, once
    import ompgpu.driver  # noqa: F401
    _warm_up()
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(request)
        start = time.monotonic()
        code = _wait(pid, request["timeout"])
        channel.write(json.dumps({"returncode": code, "seconds": time.monotonic() - start}) + "\n")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        raise SystemExit(serve())
    print(__doc__, file=sys.stderr)
    raise SystemExit(2)
