"""README table, target checks and plots, from a fake run and from the saved H100 CSV."""
from pathlib import Path

import pytest

from epcc_bench import plot, report, runner

RESULTS = Path(__file__).resolve().parents[2] / "epcc_bench" / "results"


def make_rows():
    rows = []
    for v, par in (("floor", 0.07), ("ompgpu-elide", 0.08), ("clang19", 0.3), ("clang19-generic", 0.4)):
        for t in (32, 64, 128, 256, 512, 992):
            for test, val in (("parallel", par), ("barrier", par / 2), ("parallel_for", par * 2),
                              ("reduction", par * 2)):
                if v == "floor" and test not in ("parallel", "barrier"):
                    continue
                rows.append({"variant": v, "test": test, "threads": str(t), "chunk": "", "status": "ok",
                             "overhead_us": str(val), "group": "sync"})
    rows.append({"variant": "ompgpu-elide", "test": "target_empty", "threads": "1", "chunk": "", "status": "ok",
                 "overhead_us": "12.5", "group": "target"})
    return rows


def test_markdown_table_has_a_row_per_construct_and_variant():
    md = report.markdown_table(make_rows(), mhz=2000.0)
    assert "| parallel | ompgpu-elide | 0.080 (160) | 0.080 (160) | 0.080 (160) | 0.080 (160) |" in md
    assert "| barrier | floor |" in md and "| parallel_for | floor |" not in md
    assert "| target_empty (end to end) | ompgpu-elide | 12.50 |" in md


def test_target_checks():
    checks = {what: ok for what, _, ok in report.target_checks(make_rows())}
    assert checks["parallel at 32 thr within 1.3x of the floor"] is True      # 0.08 / 0.07 = 1.14
    slow = [dict(r, overhead_us="0.2") if r["variant"] == "ompgpu-elide" and r["test"] == "parallel" else r
            for r in make_rows()]
    checks = {what: ok for what, _, ok in report.target_checks(slow)}
    assert checks["parallel at 32 thr within 1.3x of the floor"] is False     # 0.2 / 0.07 = 2.9
    assert checks["parallel at 32 thr at least 3x below clang19"] is False    # 0.3 / 0.2 = 1.5
    assert checks["parallel at 32 thr at least 3x below clang19-generic"] is False  # 0.4 / 0.2 = 2


def test_target_checks_math():
    checks = {what: (measured, ok) for what, measured, ok in report.target_checks(make_rows())}
    assert checks["parallel at 128 thr at least 3x below clang19"] == ("clang 0.300 us / ours 0.080 us = 3.75x", True)
    assert checks["parallel at 128 thr at least 3x below clang19-generic"][1] is True
    assert checks["barrier at 992 thr no worse than clang19"][1] is True
    assert checks["reduction at 32 thr at least 2x below clang19"][1] is True   # 0.6 / 0.16 = 3.75
    assert checks["empty target region under 20 us end to end"] == ("12.50 us", True)
    missing = report.target_checks([])
    assert all(ok is None for _, _, ok in missing)


def test_csv_round_trip(tmp_path):
    path = tmp_path / "x.csv"
    with open(path, "w") as f:
        f.write("# device: Test GPU\n# commit: deadbeef\n")
        f.write(",".join(runner.CSV_FIELDS) + "\n")
        f.write(",".join({"variant": "v", "test": "parallel", "threads": "32", "status": "ok",
                          "overhead_us": "0.5"}.get(k, "") for k in runner.CSV_FIELDS) + "\n")
    meta, rows = report.read_csv(path)
    assert meta == {"device": "Test GPU", "commit": "deadbeef"}
    assert report.overhead_index(rows) == {("v", "parallel", 32, 0): 0.5}


def test_plots_from_a_fake_run(fake_build, tmp_path):
    out = tmp_path / "out"
    assert runner.main(["--build", str(fake_build(floor=True)), "--out", str(out), "--threads", "32,64",
                        "--chunks", "1,2", "--target-ms", "0.01", "--outer-reps", "2", "--iters", "2"]) == 0
    (csv_path,) = out.glob("*.csv")
    made = plot.plot([str(csv_path)], tmp_path / "png")
    assert [p.name.rsplit("-", 1)[1] for p in made] == ["sync.png", "sched.png", "target.png"]
    for p in made:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 10_000


@pytest.mark.skipif(not list(RESULTS.glob("*.csv")), reason="no saved results")
def test_saved_h100_results_are_complete_and_plot():
    # Later runs may measure only some variants or groups (e.g. ompgpu after a change, or
    # only `target`); together the saved runs must cover every variant.
    rows, meta = [], {}
    for csv_path in sorted(RESULTS.glob("*.csv")):
        meta, more = report.read_csv(csv_path)
        assert "H100" in meta["device"] and meta["commit"] and meta["driver"], csv_path
        rows += more
    idx = report.overhead_index(rows)
    for v in ("floor", "ompgpu-generic", "ompgpu-elide", "clang19", "gcc12"):
        assert (v, "parallel", 32, 0) in idx and (v, "barrier", 992, 0) in idx
    md = report.markdown_table(rows, report.meta_mhz(meta))
    assert md.count("| parallel |") >= 5
