"""Runs the built benchmark programs and writes the results CSV. Standard library only.

    python3 OUT/run.py [--out DIR] [--full] [--groups sync,target,sched] [--variants a,b] ...

OUT is what `python -m epcc_bench build OUT` wrote (manifest.json + bin/). Peer variants
(clang, gcc) need their run-time libraries: `--peer-env PATH/peer-env.sh` sources that
script (it unpacks the libraries and sets LD_LIBRARY_PATH) and runs every variant in it.
"""
from __future__ import annotations

import argparse
import csv
import datetime as _dt
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from . import method
from .executor import Executor, ExecutorError, WrongAnswer

MAX_FAILURES_PER_TEST = 3      # crashes/hangs of one test in one variant; then that test is skipped
MAX_FAILURES_PER_VARIANT = 20  # then the rest of that variant is skipped (a broken build)

CSV_FIELDS = [
    "variant", "label", "test", "group", "threads", "threads_actual", "chunk", "iters_per_thread",
    "innerreps", "outer_reps", "delay_length", "delay_us", "mean_us", "min_us", "max_us", "sd_us",
    "outliers", "reference_us", "overhead_us", "overhead_cycles", "status", "note",
]


# ------------------------------------------------------------------------------------------
# Machine description
# ------------------------------------------------------------------------------------------
def gpu_info() -> dict[str, str]:
    """name, driver, clocks of GPU 0 from nvidia-smi (empty values without one)."""
    fields = ["name", "driver_version", "clocks.sm", "clocks.max.sm", "clocks.mem", "pstate",
              "power.limit", "temperature.gpu"]
    info = {f: "" for f in fields}
    try:
        out = subprocess.run(["nvidia-smi", f"--query-gpu={','.join(fields)}", "--format=csv,noheader,nounits",
                              "-i", "0"], capture_output=True, text=True, timeout=30).stdout
        values = [v.strip() for v in out.strip().splitlines()[0].split(",")]
        info.update(zip(fields, values))
    except (OSError, subprocess.SubprocessError, IndexError):
        pass
    return info


def source_env(script: str) -> dict[str, str]:
    """The environment after `. script` in bash (for the peers' run-time libraries)."""
    out = subprocess.run(["bash", "-c", f'. "{script}" >/dev/null && env -0'], capture_output=True, check=True).stdout
    env = {}
    for item in out.split(b"\0"):
        if b"=" in item:
            k, _, v = item.partition(b"=")
            env[k.decode()] = v.decode(errors="replace")
    return env


# ------------------------------------------------------------------------------------------
# Progress
# ------------------------------------------------------------------------------------------
class Progress:
    def __init__(self, total: int, stream=None):
        self.total, self.done, self.stream = total, 0, stream or sys.stderr
        self.tty = hasattr(stream, "isatty") and stream.isatty()
        self.t0 = time.monotonic()

    def show(self, text: str) -> None:
        line = f"[{self.done:4d}/{self.total} {time.monotonic() - self.t0:6.1f}s] {text}"
        if self.tty:
            self.stream.write("\r" + line[:150].ljust(150))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def step(self) -> None:
        self.done += 1

    def finish(self) -> None:
        if self.tty:
            self.stream.write("\n")


# ------------------------------------------------------------------------------------------
# One variant
# ------------------------------------------------------------------------------------------
class Variant:
    """A built program and what it supports, with its calibrated delay and references."""

    def __init__(self, spec: dict, build_dir: Path, env: dict[str, str], timeout: float, log_dir: Path):
        self.spec = spec
        self.name = spec["name"]
        self.label = spec.get("label", self.name)
        self.tests = set(spec.get("tests") or method.ALL_TESTS)
        self.omitted = dict(spec.get("omitted", {}))
        self.executor = Executor([str(build_dir / spec["exe"])], env=env, timeout=timeout)
        self.executor.stderr_path = str(log_dir / f"{self.name}.stderr.txt")
        self.delay_length: int | None = None
        self.references: dict[str, float] = {}
        self.actual_threads: dict[int, int] = {}
        self.failures = 0
        self.test_failures: dict[str, int] = {}
        self.timed_out: dict[tuple[str, int], int] = {}  # (test, chunk) -> threads where it hung

    def supports(self, test: str) -> bool:
        return test in self.tests and test not in self.omitted


class Bench:
    def __init__(self, args, manifest: dict, build_dir: Path, out_dir: Path):
        self.args = args
        self.manifest = manifest
        self.out_dir = out_dir
        self.deadline = time.monotonic() + args.budget if args.budget else None
        peer_env = None
        if args.peer_env:
            peer_env = source_env(args.peer_env)
        self.variants: list[Variant] = []
        for spec in manifest["variants"]:
            if args.variants and spec["name"] not in args.variants:
                continue
            if spec.get("status", "ok") != "ok":
                continue
            # The peers' environment holds the same gcc 12 libgomp that ompgpu's host code
            # links against, so every variant runs in it (and with OMP_TARGET_OFFLOAD=MANDATORY).
            env = dict(peer_env if peer_env is not None else os.environ)
            env.update(spec.get("env", {}))
            self.variants.append(Variant(spec, build_dir, env, args.timeout, out_dir))
        self.sm_mhz: float | None = None

    # -- measurement --------------------------------------------------------------------------
    def time_left(self) -> bool:
        return self.deadline is None or time.monotonic() < self.deadline

    def measure(self, v: Variant, test: str, threads: int, chunk: int) -> tuple[int, list[float]]:
        """innerreps chosen by doubling, then outer_reps samples of seconds per construct."""
        ex, dl, iters = v.executor, v.delay_length or 1, self.args.iters

        def one(reps: int) -> tuple[float, int]:
            return ex.run(test, threads, reps, dl, iters, chunk)

        start = threads if method.ALL_TESTS[test].min_reps_per_thread else 1
        reps = method.choose_innerreps(lambda r: one(r)[0], start, self.args.target_ms * 1e-3)
        samples = []
        for _ in range(self.args.outer_reps):
            seconds, constructs = one(reps)
            if constructs <= 0:
                raise ExecutorError(f"{test}: no constructs ran (innerreps {reps} < threads?)")
            samples.append(seconds / constructs)
        return reps, samples

    def calibrate(self, v: Variant) -> None:
        if self.args.delay_length:
            v.delay_length = self.args.delay_length
            return

        def per_delay(length: int) -> float:
            reps = method.choose_innerreps(lambda r: v.executor.run("reference", 1, r, length)[0], 1,
                                           self.args.target_ms * 1e-3 / 4)
            seconds, constructs = v.executor.run("reference", 1, reps, length)
            return seconds / constructs

        v.delay_length = method.calibrate_delay(per_delay, self.args.delay_us * 1e-6, max_length=1 << 16)

    # -- rows -------------------------------------------------------------------------------
    def row(self, v: Variant, test: str, threads: int, chunk: int, **fields) -> dict:
        t = method.ALL_TESTS[test]
        r = {k: "" for k in CSV_FIELDS}
        r.update(variant=v.name, label=v.label, test=test, group=t.group, threads=threads, chunk=chunk or "",
                 iters_per_thread=self.args.iters if t.group in ("sched",) or test == "sched_reference" else "",
                 delay_length=v.delay_length or "", outer_reps=self.args.outer_reps)
        r.update(fields)
        return r

    def run_one(self, v: Variant, test: str, threads: int, chunk: int) -> dict:
        t = method.ALL_TESTS[test]
        if not v.supports(test):
            return self.row(v, test, threads, chunk, status="not built", note=v.omitted.get(test, ""))
        if not self.time_left():
            return self.row(v, test, threads, chunk, status="skipped", note="time budget used up")
        if v.failures >= MAX_FAILURES_PER_VARIANT:
            return self.row(v, test, threads, chunk, status="skipped", note=f"{v.failures} failures in this variant")
        if v.test_failures.get(test, 0) >= MAX_FAILURES_PER_TEST:
            return self.row(v, test, threads, chunk, status="skipped",
                            note=f"{v.test_failures[test]} failures of this test in this variant")
        if (test, chunk) in v.timed_out:
            return self.row(v, test, threads, chunk, status="skipped",
                            note=f"timed out at {v.timed_out[(test, chunk)]} threads")
        try:
            return self._measure_row(v, t, threads, chunk)
        except WrongAnswer as exc:
            return self.row(v, test, threads, chunk, status="wrong", note=str(exc)[:300])
        except ExecutorError as exc:
            v.failures += 1
            v.test_failures[test] = v.test_failures.get(test, 0) + 1
            if "no answer within" in str(exc):
                v.timed_out[(test, chunk)] = threads
            return self.row(v, test, threads, chunk, status="error", note=str(exc)[:300])

    def _measure_row(self, v: Variant, t: method.Test, threads: int, chunk: int) -> dict:
        test = t.name
        if v.delay_length is None:
            self.calibrate(v)
        if t.group in ("sync", "sched") and threads not in v.actual_threads:
            v.actual_threads[threads] = v.executor.probe(threads)
        ref_us = None
        if t.reference:
            if t.reference not in v.references:
                _, ref_samples = self.measure(v, t.reference, 1, 0)
                v.references[t.reference] = method.statistics(ref_samples).mean * 1e6
            ref_us = v.references[t.reference]
        reps, samples = self.measure(v, test, threads, chunk)
        st = method.statistics([s * 1e6 for s in samples])
        ov = method.overhead(st.mean, ref_us)
        cyc = method.cycles(ov, self.sm_mhz)
        delay_us = v.references.get("reference")
        return self.row(v, test, threads, chunk, threads_actual=v.actual_threads.get(threads, ""), innerreps=reps,
                        delay_us=f"{delay_us:.4f}" if delay_us else "", mean_us=f"{st.mean:.5f}",
                        min_us=f"{st.min:.5f}", max_us=f"{st.max:.5f}", sd_us=f"{st.sd:.5f}",
                        outliers=st.outliers, reference_us="" if ref_us is None else f"{ref_us:.5f}",
                        overhead_us=f"{ov:.5f}", overhead_cycles="" if cyc is None else f"{cyc:.0f}", status="ok")

    # -- the whole run ------------------------------------------------------------------------
    def run(self) -> Path:
        args = self.args
        gpu = gpu_info()
        floor = next((v for v in self.variants if v.spec.get("floor")), None)
        if floor is not None:
            try:
                self.sm_mhz = floor.executor.clock_mhz()
            except ExecutorError as exc:
                print(f"epcc_bench: measuring the SM clock failed: {exc}", file=sys.stderr)
        if not self.sm_mhz and gpu.get("clocks.max.sm", "").replace(".", "").isdigit():
            self.sm_mhz = float(gpu["clocks.max.sm"])
        now = _dt.datetime.now(_dt.timezone.utc)
        meta = {
            "date": now.isoformat(timespec="seconds"),
            "device": gpu.get("name") or "unknown",
            "driver": gpu.get("driver_version", ""),
            "sm_clock_mhz_measured": f"{self.sm_mhz:.1f}" if self.sm_mhz else "",
            **{f"nvidia_smi_{k.replace('.', '_')}": val for k, val in gpu.items() if k not in ("name", "driver_version")},
            "host": platform.node(),
            "commit": self.manifest.get("commit", ""),
            "build_date": self.manifest.get("build_date", ""),
            "offload": self.manifest.get("offload", ""),
            "threads": " ".join(map(str, args.threads)),
            "sched_threads": " ".join(map(str, args.sched_threads)),
            "chunks": " ".join(map(str, args.chunks)),
            "target_ms": args.target_ms, "outer_reps": args.outer_reps, "iters_per_thread": args.iters,
            "delay_us_target": args.delay_us,
            "compilers": {v.name: v.spec.get("compiler", "") for v in self.variants},
            "flags": {v.name: v.spec.get("command", "") for v in self.variants},
        }
        slug = "".join(c if c.isalnum() else "-" for c in meta["device"].lower()).strip("-")
        slug = "-".join(p for p in slug.split("-") if p and p != "nvidia")[:40] or "device"
        csv_path = self.out_dir / f"epcc-{slug}-{now.strftime('%Y-%m-%d-%H%M')}.csv"
        (self.out_dir / (csv_path.stem + ".meta.json")).write_text(json.dumps(meta, indent=2) + "\n")

        plan = (method.test_plan(args.threads, args.chunks, [g for g in args.groups if g != "sched"])
                + method.test_plan(args.sched_threads, args.chunks, ["sched"] if "sched" in args.groups else []))
        # Tests a variant does not have at all (the floor knows parallel and barrier) are left
        # out; tests it has but could not build (v.omitted) get a 'not built' row.
        work = [(v, t, n, c) for group in args.groups for v in self.variants
                for (t, n, c) in plan if t.group == group and t.name in v.tests]
        progress = Progress(len(work))
        with open(csv_path, "w", newline="") as f:
            for key, val in meta.items():
                f.write(f"# {key}: {json.dumps(val) if isinstance(val, dict) else val}\n")
            writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
            writer.writeheader()
            written_refs: set[tuple[str, str]] = set()
            for v, t, n, c in work:
                progress.show(f"{v.name:16s} {t.name:13s} threads={n:<4d}" + (f" chunk={c}" if c else ""))
                r = self.run_one(v, t.name, n, c)
                if t.reference and (v.name, t.reference) not in written_refs and t.reference in v.references:
                    written_refs.add((v.name, t.reference))
                    ref_us = v.references[t.reference]
                    writer.writerow(self.row(v, t.reference, 1, 0, mean_us=f"{ref_us:.5f}", status="ok",
                                             note="reference (mean per repetition)"))
                writer.writerow(r)
                f.flush()
                if r["status"] not in ("ok", "not built", "skipped"):
                    progress.show(f"{v.name} {t.name} threads={n}: {r['status']}: {r['note'][:120]}")
                progress.step()
        progress.finish()
        for v in self.variants:
            v.executor.close()
        return csv_path


def parse_args(argv: list[str] | None, default_build: Path | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="run.py", description="Run the EPCC offload overhead benchmarks.")
    p.add_argument("--build", type=Path, default=default_build, help="folder written by `epcc_bench build`")
    p.add_argument("--out", type=Path, default=Path("epcc-results"), help="where the CSV goes")
    p.add_argument("--threads", default=None, help="comma-separated worker counts (default %s)"
                   % ",".join(map(str, method.THREADS_DEFAULT)))
    p.add_argument("--full", action="store_true", help="all thread counts 32, 64, ..., 992 (schedbench: see --sched-threads)")
    p.add_argument("--sched-threads", default=None, help="worker counts for schedbench (default %s; 'full': all)"
                   % ",".join(map(str, method.THREADS_DEFAULT)))
    p.add_argument("--chunks", default=",".join(map(str, method.CHUNKS)))
    p.add_argument("--groups", default="sync,target,sched", help="which groups, in this order")
    p.add_argument("--variants", default="", help="comma-separated subset of the built variants")
    p.add_argument("--delay-us", type=float, default=method.DEFAULT_DELAY_US)
    p.add_argument("--delay-length", type=int, default=0, help="fixed delay loop length (skips calibration)")
    p.add_argument("--target-ms", type=float, default=method.DEFAULT_TARGET_SECONDS * 1e3)
    p.add_argument("--outer-reps", type=int, default=method.DEFAULT_OUTER_REPS)
    p.add_argument("--iters", type=int, default=method.DEFAULT_ITERS_PER_THREAD, help="schedbench iterations per thread")
    p.add_argument("--timeout", type=float, default=15.0, help="seconds one measurement may take")
    p.add_argument("--budget", type=float, default=0.0, help="stop measuring after this many seconds (0: no limit)")
    p.add_argument("--peer-env", default="", help="script to source for the peer compilers' variants")
    a = p.parse_args(argv)
    if a.build is None:
        p.error("--build is required")
    a.threads = (list(method.THREADS_FULL) if a.full else
                 [int(x) for x in a.threads.split(",")] if a.threads else list(method.THREADS_DEFAULT))
    a.sched_threads = (list(method.THREADS_FULL) if a.sched_threads == "full" else
                       [int(x) for x in a.sched_threads.split(",")] if a.sched_threads else
                       [t for t in a.threads if t in method.THREADS_DEFAULT] or a.threads)
    a.chunks = [int(x) for x in a.chunks.split(",") if x]
    a.groups = [g for g in a.groups.split(",") if g]
    bad = [g for g in a.groups if g not in ("sync", "sched", "target")]
    if bad:
        p.error(f"unknown group(s) {', '.join(bad)}")
    a.variants = [x for x in a.variants.split(",") if x]
    if a.outer_reps < 2:
        p.error("--outer-reps must be at least 2 (the first is discarded)")
    return a


def main(argv: list[str] | None = None, default_build: Path | None = None) -> int:
    args = parse_args(argv, default_build)
    manifest = json.loads((args.build / "manifest.json").read_text())
    args.out.mkdir(parents=True, exist_ok=True)
    bench = Bench(args, manifest, args.build, args.out)
    if not bench.variants:
        print("epcc_bench: no variant to run", file=sys.stderr)
        return 1
    path = bench.run()
    print(f"epcc_bench: wrote {path}")
    return 0
