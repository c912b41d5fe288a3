"""Loads bench/run.py as a module named bench_runner for the tests of this folder."""
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_runner", ROOT / "bench" / "run.py")
bench_runner = importlib.util.module_from_spec(_spec)
sys.modules["bench_runner"] = bench_runner
_spec.loader.exec_module(bench_runner)
