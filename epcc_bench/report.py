"""Reads results CSVs; prints the README table and the issue-6 target checks. Standard library.

    python -m epcc_bench table CSV... [--threads 32,128,512,992]
"""
from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Iterable

TABLE_TESTS = ("parallel", "for", "parallel_for", "barrier", "single", "critical", "lock", "atomic",
               "reduction", "master")
TABLE_THREADS = (32, 128, 512, 992)
VARIANT_ORDER = ("floor", "ompgpu-elide", "ompgpu-generic", "clang19", "clang19-generic", "gcc12")


def read_csv(path: str | Path) -> tuple[dict[str, str], list[dict[str, str]]]:
    """(metadata from the '# key: value' lines, rows)."""
    meta: dict[str, str] = {}
    body: list[str] = []
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("# ") and not body:
                key, _, val = line[2:].rstrip("\n").partition(": ")
                meta[key] = val
            else:
                body.append(line)
    return meta, list(csv.DictReader(body))


def read_all(paths: Iterable[str | Path]) -> tuple[dict[str, str], list[dict[str, str]]]:
    meta: dict[str, str] = {}
    rows: list[dict[str, str]] = []
    for p in paths:
        m, r = read_csv(p)
        meta = meta or m
        rows += r
    return meta, rows


def overhead_index(rows: list[dict[str, str]]) -> dict[tuple[str, str, int, int], float]:
    """(variant, test, threads, chunk) -> overhead in us, for rows that ran."""
    idx = {}
    for r in rows:
        if r.get("status") != "ok" or not r.get("overhead_us"):
            continue
        chunk = int(r["chunk"]) if r.get("chunk") else 0
        idx[(r["variant"], r["test"], int(r["threads"]), chunk)] = float(r["overhead_us"])
    return idx


def variants_in(rows: list[dict[str, str]]) -> list[str]:
    seen = []
    for r in rows:
        if r["variant"] not in seen:
            seen.append(r["variant"])
    return sorted(seen, key=lambda v: (VARIANT_ORDER.index(v) if v in VARIANT_ORDER else 99, v))


def _fmt(x: float | None, mhz: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.3f} ({x * mhz:.0f})" if mhz else f"{x:.3f}"


def markdown_table(rows: list[dict[str, str]], mhz: float | None = None,
                   threads: Iterable[int] = TABLE_THREADS, tests: Iterable[str] = TABLE_TESTS) -> str:
    """Overhead in us (cycles) per construct and variant at the given worker counts."""
    idx = overhead_index(rows)
    threads = list(threads)
    variants = variants_in(rows)
    unit = "us (cycles)" if mhz else "us"
    out = [f"| construct | variant | " + " | ".join(f"{t} thr" for t in threads) + " |",
           "| --- | --- | " + " | ".join("---:" for _ in threads) + " |"]
    for test in tests:
        for v in variants:
            vals = [idx.get((v, test, t, 0)) for t in threads]
            if all(x is None for x in vals):
                continue
            out.append(f"| {test} | {v} | " + " | ".join(_fmt(x, mhz) for x in vals) + " |")
    for test in ("target_empty", "target_map"):
        for v in variants:
            x = idx.get((v, test, 1, 0))
            if x is not None:
                out.append(f"| {test} (end to end) | {v} | {x:.2f} | | | |")
    return f"Overhead per construct in {unit}, one team:\n\n" + "\n".join(out) + "\n"


def target_checks(rows: list[dict[str, str]], elide: str = "ompgpu-elide",
                  clangs: Iterable[str] = ("clang19", "clang19-generic")) -> list[tuple[str, str, bool | None]]:
    """The benchmark targets of issue 6: (what, measured, met?). None: cannot tell (missing data).

    Every clang comparison is made against each variant in `clangs` (clang as shipped, which
    turns these kernels into SPMD kernels, and clang with SPMDization off).
    """
    idx = overhead_index(rows)
    checks: list[tuple[str, str, bool | None]] = []
    for clang in clangs:
        checks += _target_checks_against(idx, elide, clang, include_floor=not checks)
    empty = idx.get((elide, "target_empty", 1, 0))
    checks.append(("empty target region under 20 us end to end", "-" if empty is None else f"{empty:.2f} us",
                   None if empty is None else empty < 20.0))
    return checks


def _target_checks_against(idx, elide: str, clang_variant: str, include_floor: bool):
    checks: list[tuple[str, str, bool | None]] = []

    def ratio(a: float | None, b: float | None) -> float | None:
        return a / b if a is not None and b not in (None, 0.0) else None

    for t in (32, 64, 128, 256):
        ours, floor, clang = (idx.get((v, "parallel", t, 0)) for v in (elide, "floor", clang_variant))
        r_floor, r_clang = ratio(ours, floor), ratio(clang, ours)
        if include_floor:
            checks.append((f"parallel at {t} thr within 1.3x of the floor",
                           "-" if r_floor is None else f"{ours:.3f} us vs {floor:.3f} us = {r_floor:.2f}x",
                           None if r_floor is None else r_floor <= 1.3))
        checks.append((f"parallel at {t} thr at least 3x below {clang_variant}",
                       "-" if r_clang is None else f"clang {clang:.3f} us / ours {ours:.3f} us = {r_clang:.2f}x",
                       None if r_clang is None else r_clang >= 3.0))
    for test, factor in (("barrier", 1.0), ("parallel_for", 2.0), ("reduction", 2.0)):
        for t in TABLE_THREADS:
            ours, clang = idx.get((elide, test, t, 0)), idx.get((clang_variant, test, t, 0))
            r = ratio(clang, ours)
            what = f"{test} at {t} thr " + (f"no worse than {clang_variant}" if factor == 1.0
                                             else f"at least 2x below {clang_variant}")
            checks.append((what, "-" if r is None else f"clang {clang:.3f} us / ours {ours:.3f} us = {r:.2f}x",
                           None if r is None else r >= factor))
    return checks


def checks_markdown(checks: list[tuple[str, str, bool | None]]) -> str:
    out = ["| target | measured | met |", "| --- | --- | --- |"]
    for what, measured, ok in checks:
        out.append(f"| {what} | {measured} | {'-' if ok is None else 'yes' if ok else 'NO'} |")
    return "\n".join(out) + "\n"


def meta_mhz(meta: dict[str, str]) -> float | None:
    try:
        return float(meta.get("sm_clock_mhz_measured", "")) or None
    except ValueError:
        return None


def meta_summary(meta: dict[str, str]) -> str:
    keys = ("device", "driver", "sm_clock_mhz_measured", "nvidia_smi_clocks_max_sm", "date", "commit", "build_date")
    lines = [f"- {k}: {meta[k]}" for k in keys if meta.get(k)]
    if meta.get("compilers"):
        try:
            for name, comp in json.loads(meta["compilers"]).items():
                lines.append(f"- {name}: {comp}")
        except ValueError:
            pass
    return "\n".join(lines) + "\n"
