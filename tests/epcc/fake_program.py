#!/usr/bin/env python3
"""A stand-in for a built benchmark program: speaks the epcc_omp.c protocol with a made-up
device model, so the runner can be tested without compiling anything.

Model: one delay of length L takes 20 ns + 30 ns * L; each construct adds
OVERHEAD_US[test] + 0.001 us per thread. Environment knobs: FAKE_CRASH=test (exit when asked
to run it), FAKE_HANG=test (never answer), FAKE_WRONG=test (report a failed self-check),
FAKE_ACTUAL=n (a parallel region gets at most n threads).
"""
import os
import sys
import time

OVERHEAD_US = {"parallel": 0.2, "for": 0.25, "parallel_for": 0.4, "barrier": 0.08, "single": 0.15,
               "critical": 1.0, "lock": 0.9, "atomic": 0.05, "reduction": 0.45, "master": 0.03,
               "static": 5.0, "static_n": 6.0, "dynamic_n": 20.0, "guided_n": 8.0,
               "target_empty": 10.0, "target_map": 90.0, "reference": 0.0, "sched_reference": 0.0}


def delay_s(length):
    return 20e-9 + 30e-9 * length


def main():
    actual_cap = int(os.environ.get("FAKE_ACTUAL", "100000"))
    print("ready fake", flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "quit":
            break
        if words[0] == "clock":
            print("ok 1500.0", flush=True)
            continue
        if words[0] == "probe":
            print(f"ok {min(int(words[1]), actual_cap)}", flush=True)
            continue
        name, nthr, reps, dl, iters, chunk = words[1], *map(int, words[2:])
        if name == os.environ.get("FAKE_CRASH"):
            sys.exit(7)
        if name == os.environ.get("FAKE_HANG"):
            time.sleep(3600)
        if name not in OVERHEAD_US:
            print(f"err unknown test {name}", flush=True)
            continue
        per = OVERHEAD_US[name] * 1e-6 + (0.001e-6 * nthr if name not in ("reference", "sched_reference") else 0)
        work = delay_s(dl) * (iters if name in ("static", "static_n", "dynamic_n", "guided_n", "sched_reference") else 1)
        if name in ("atomic", "target_empty", "target_map"):
            work = 0.0
        constructs = reps
        if name in ("critical", "lock", "atomic"):
            threads = min(nthr, actual_cap)
            constructs = (reps // threads) * threads
        seconds = constructs * (work + per)
        check, expected = (constructs, constructs) if name != os.environ.get("FAKE_WRONG") else (1, constructs)
        print(f"ok {seconds:.9e} {constructs} {check} {expected}", flush=True)


main()
