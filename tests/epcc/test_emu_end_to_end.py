"""End to end on the CPU: build with ompgpu --offload=emu (and the floor for the emulator),
run the built folder's run.py in a fresh interpreter with tiny repetition counts, plot."""
import subprocess
import sys
from pathlib import Path

from epcc_bench import report
from epcc_bench.build import build


def test_build_run_plot_under_the_emulator(tmp_path):
    out = tmp_path / "build"
    manifest = build(out, offload="emu", variants=["ompgpu-generic", "floor"], quiet=True)
    status = {v["name"]: v["status"] for v in manifest["variants"]}
    assert status == {"ompgpu-generic": "ok", "floor": "ok"}, (out / "build.log").read_text()[-3000:]
    # run.py must work from the built files alone: a fresh interpreter, no repository on the path
    proc = subprocess.run([sys.executable, "-S", str(out / "run.py"), "--out", str(tmp_path / "res"),
                           "--threads", "32,64", "--chunks", "1,8", "--target-ms", "0.02", "--outer-reps", "3",
                           "--iters", "2", "--delay-length", "8", "--timeout", "30"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "ompgpu-generic" in proc.stderr and "parallel" in proc.stderr  # progress lines
    (csv_path,) = (tmp_path / "res").glob("*.csv")
    meta, rows = report.read_csv(csv_path)
    assert meta["offload"] == "emu"
    bad = [(r["variant"], r["test"], r["threads"], r["status"], r["note"]) for r in rows if r["status"] != "ok"]
    assert not bad
    tests = {r["test"] for r in rows if r["variant"] == "ompgpu-generic"}
    assert {"parallel", "critical", "lock", "atomic", "reduction", "dynamic_n", "guided_n", "target_map"} <= tests
    assert {r["test"] for r in rows if r["variant"] == "floor"} == {"reference", "parallel", "barrier"}
    for r in rows:
        if r["test"] not in ("reference", "sched_reference"):
            assert float(r["mean_us"]) > 0 and int(r["innerreps"]) >= 1
    from epcc_bench import plot
    assert len(plot.plot([str(csv_path)], tmp_path / "png")) == 3
