"""The runner's parsing, statistics, CSV and report logic (bench/run.py), without a GPU:
fake benchmark binaries are shell scripts that print what a real one prints."""
import csv
import math
import os
import stat

import pytest

import bench_runner as br


def test_parse_output_reads_repetitions_and_verdict():
    text = ("heartwall: 20 frames\n"
            "heartwall nested rep 0 kernel_ms 12.5000 e2e_ms 20.0000\n"
            "heartwall nested rep 1 kernel_ms 10.0000 e2e_ms 18.5000\n"
            "PASS\n")
    p = br.parse_output(text)
    assert p["reps"] == [(0, 12.5, 20.0), (1, 10.0, 18.5)]
    assert p["verdict"] == "PASS"
    assert br.parse_output("garbage\nFAIL\n") == {"reps": [], "verdict": "FAIL"}


def test_first_repetition_is_dropped_only_with_three_or_more():
    assert br.steady([9.0, 1.0, 2.0]) == [1.0, 2.0]
    assert br.steady([9.0, 1.0]) == [9.0, 1.0]
    assert br.median(br.steady([100.0, 3.0, 1.0, 2.0])) == 2.0
    assert math.isnan(br.median([]))


def test_geomean_ignores_missing_values():
    assert br.geomean([2.0, 8.0]) == pytest.approx(4.0)
    assert br.geomean([2.0, float("nan"), 8.0, 0.0]) == pytest.approx(4.0)
    assert math.isnan(br.geomean([float("nan")]))


def test_summarize_statuses():
    ok = br.parse_output("k nested rep 0 kernel_ms 5 e2e_ms 6\nk nested rep 1 kernel_ms 3 e2e_ms 4\n"
                         "k nested rep 2 kernel_ms 1 e2e_ms 2\nPASS\n")
    s = br.summarize(ok, 0, False)
    assert (s["status"], s["kernel_ms"], s["e2e_ms"], s["reps"]) == ("PASS", 2.0, 3.0, 3)
    assert br.summarize(br.parse_output("k nested rep 0 kernel_ms 5 e2e_ms 6\nFAIL\n"), 1, False)["status"] == "FAIL"
    assert br.summarize(br.parse_output("Segmentation fault"), -11, False)["status"] == "CRASH(rc=-11)"
    assert br.summarize(br.parse_output(""), -9, True)["status"] == "TIMEOUT"
    # PASS printed but a non-zero exit is not a pass
    assert br.summarize(br.parse_output("k nested rep 0 kernel_ms 5 e2e_ms 6\nPASS\n"), 3, False)["status"] != "PASS"


def _rows(spec):
    return [{"kernel": k, "compiler": c, "variant": v, "status": st, "kernel_ms": t, "e2e_ms": t * 2, "compile_s": 1.0}
            for k, c, v, st, t in spec]


def test_speedups_use_passing_runs_only():
    rows = _rows([("lud", "ompgpu", "nested", "PASS", 2.0), ("lud", "clang", "nested", "PASS", 8.0),
                  ("bfs", "ompgpu", "nested", "PASS", 1.0), ("bfs", "clang", "nested", "PASS", 2.0),
                  ("kmeans", "ompgpu", "nested", "FAIL", 0.1), ("kmeans", "clang", "nested", "PASS", 5.0)])
    kernels, table, geo = br.comparison_table(rows)
    assert kernels == ["lud", "kmeans", "bfs"]  # the order of br.KERNELS
    label = "ompgpu nested vs clang nested"
    assert table[label]["lud"] == 4.0 and table[label]["bfs"] == 2.0
    assert math.isnan(table[label]["kmeans"])  # a wrong answer has no speed
    assert geo[label] == pytest.approx(math.sqrt(8.0))


def _fake_binary(path, body):
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def test_run_writes_one_csv_row_per_build(tmp_path, monkeypatch):
    out = tmp_path / "out"
    (out / "bin").mkdir(parents=True)
    _fake_binary(out / "bin" / "good", 'for i in 0 1 2; do echo "lud nested rep $i kernel_ms $((i+1)).5 e2e_ms 9.0"; done\n'
                                       'test "$BENCH_REPS" = 3 && test "$1" = 64 && echo PASS\n')
    _fake_binary(out / "bin" / "wrong", 'echo "lud spmd rep 0 kernel_ms 1.0 e2e_ms 2.0"; echo FAIL; exit 1\n')
    _fake_binary(out / "bin" / "crash", "kill -SEGV $$\n")
    builds = [("lud", "ompgpu", "nested", "bin/good"), ("lud", "ompgpu", "spmd", "bin/wrong"),
              ("lud", "clang", "nested", "bin/crash"), ("lud", "gcc", "nested", None)]
    manifest = {"commit": "abc1234", "versions": {"ompgpu": "ompgpu abc1234"},
                "builds": [{"kernel": k, "compiler": c, "variant": v, "binary": b, "compile_s": 0.5, "args": ["64"]}
                           for k, c, v, b in builds]}
    (out / "manifest.json").write_text(__import__("json").dumps(manifest))
    csv_path = tmp_path / "r.csv"
    with open(os.devnull, "w") as log:
        assert br.run(out, 3, 60.0, csv_path, log) == 0
    rows = {(r["compiler"], r["variant"]): r for r in csv.DictReader(open(csv_path))}
    assert rows[("ompgpu", "nested")]["status"] == "PASS"
    assert float(rows[("ompgpu", "nested")]["kernel_ms"]) == 3.0  # median of 2.5, 3.5 after dropping rep 0
    assert rows[("ompgpu", "nested")]["commit"] == "abc1234"
    assert rows[("ompgpu", "spmd")]["status"] == "FAIL"
    assert rows[("clang", "nested")]["status"].startswith("CRASH")
    assert rows[("gcc", "nested")]["status"] == "BUILD-FAIL"
    # no time left: nothing runs, every row says so
    with open(os.devnull, "w") as log:
        br.run(out, 3, 0.0, csv_path, log)
    assert {r["status"] for r in csv.DictReader(open(csv_path)) if r["variant"] != "nested" or r["compiler"] != "gcc"} \
        == {"SKIPPED(budget)"}


def test_table_and_plot_from_a_csv(tmp_path):
    csv_path = tmp_path / "r.csv"
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=br.CSV_FIELDS)
        w.writeheader()
        for k in ("heartwall", "lud"):
            for c, v, t in [("ompgpu", "nested", 1.0), ("ompgpu", "spmd", 2.0), ("clang", "nested", 4.0),
                            ("clang", "spmd", 2.0), ("gcc", "nested", 9.0), ("gcc", "spmd", 9.0), ("cuda", "cuda", 1.0)]:
                w.writerow({"device": "NVIDIA H100", "date": "2026-11-22", "commit": "abc", "kernel": k, "compiler": c,
                            "variant": v, "status": "PASS", "kernel_ms": t, "e2e_ms": t + 1, "compile_s": 2.0})
    text = br.table(csv_path)
    assert "| heartwall | 1.000 | 2.000 | 4.000 | 2.000 | 9.000 | 9.000 | 1.000 |" in text
    assert "| **geomean** | **4.00** | **1.00** | **9.00** | **0.50** | **1.00** | **2.00** | **0.50** |" in text
    pytest.importorskip("matplotlib")
    png = tmp_path / "r.png"
    br.plot(csv_path, png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
