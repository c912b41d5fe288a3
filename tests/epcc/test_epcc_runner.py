"""The whole run against the fake program: CSV content, references, failures, budget."""
import os

import pytest

from epcc_bench import report, runner


def run(build, out, *extra):
    args = ["--build", str(build), "--out", str(out), "--threads", "32,64", "--chunks", "1,4",
            "--target-ms", "0.01", "--outer-reps", "3", "--iters", "4", "--timeout", "2", *extra]
    assert runner.main(args) == 0
    (csv_path,) = out.glob("*.csv")
    return report.read_csv(csv_path)


def test_csv_has_metadata_rows_and_correct_overheads(fake_build, tmp_path):
    meta, rows = run(fake_build(floor=True), tmp_path / "out")
    assert meta["commit"] == "abc123" and meta["device"]
    assert float(meta["sm_clock_mhz_measured"]) == 1500.0  # from the floor's clock command
    assert "ompgpu-generic" in meta["compilers"]
    ok = {(r["variant"], r["test"], r["threads"], r["chunk"]): r for r in rows if r["status"] == "ok"}
    par = ok[("ompgpu-generic", "parallel", "32", "")]
    # fake model: parallel adds 0.2 us + 0.001 us/thread over the delay, which the reference removes
    assert float(par["overhead_us"]) == pytest.approx(0.232, abs=2e-4)
    assert float(par["overhead_cycles"]) == pytest.approx(0.232 * 1500, abs=1)
    assert int(par["innerreps"]) >= 1 and par["outer_reps"] == "3"
    assert int(par["delay_length"]) == 3  # 20 + 30 * 3 = 110 ns >= 100 ns > 80 ns
    crit = ok[("clang19", "critical", "64", "")]
    assert int(crit["innerreps"]) >= 64
    assert float(crit["overhead_us"]) == pytest.approx(1.064, abs=2e-4)
    dyn = ok[("ompgpu-generic", "dynamic_n", "64", "4")]
    assert float(dyn["overhead_us"]) == pytest.approx(20.064, abs=2e-3)
    tgt = ok[("clang19", "target_empty", "1", "")]
    assert float(tgt["overhead_us"]) == pytest.approx(10.001, abs=1e-3)
    refs = [r for r in rows if r["test"] == "reference"]
    assert {r["variant"] for r in refs} == {"ompgpu-generic", "clang19", "floor"}
    # the floor only runs what it has
    assert {r["test"] for r in rows if r["variant"] == "floor"} == {"reference", "parallel", "barrier"}
    assert all(r["status"] == "ok" for r in rows)


def test_not_built_wrong_and_crashing_tests_are_reported(fake_build, tmp_path):
    build = fake_build(variants=("clang19",), env={"clang19": {"FAKE_WRONG": "lock", "FAKE_CRASH": "guided_n"}},
                       omitted={"clang19": {"critical": "no critical lock"}})
    _, rows = run(build, tmp_path / "out")
    by = {(r["test"], r["threads"], r["chunk"]): r for r in rows}
    assert by[("critical", "32", "")]["status"] == "not built"
    assert by[("critical", "32", "")]["note"] == "no critical lock"
    assert by[("lock", "64", "")]["status"] == "wrong"
    guided = [r for r in rows if r["test"] == "guided_n"]
    assert [r["status"] for r in guided][:3] == ["error"] * 3
    assert all(r["status"] == "skipped" for r in guided[3:])  # a test that keeps crashing is given up
    assert by[("dynamic_n", "64", "4")]["status"] == "ok"   # ... but not the other tests
    assert float(by[("parallel", "64", "")]["overhead_us"]) > 0


def test_budget_skips_what_is_left(fake_build, tmp_path):
    _, rows = run(fake_build(variants=("gcc12",)), tmp_path / "out", "--budget", "0.000001")
    assert rows and all(r["status"] == "skipped" for r in rows)


def test_progress_line(fake_build, tmp_path, capsys):
    run(fake_build(variants=("gcc12",)), tmp_path / "out", "--groups", "target")
    err = capsys.readouterr().err
    assert "gcc12" in err and "target_empty" in err and "[   0/2" in err
