"""Tier 2: every run-and-check program, compiled by `ompgpu cc --offload=emu`, runs its
target regions through the device emulator on the CPU and prints the expected output, in
both execution modes: `--mode=auto` (SPMD wherever the planner proves it legal) and
`--mode=generic` (every kernel warp-specialized)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from corpus.known import KNOWN_UNSUPPORTED

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = sorted((ROOT / "programs").glob("*.c"))


def build(src: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ompgpu", "cc", *extra, str(src), "-o", str(out)],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("mode", ["auto", "generic"])
@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_program_under_emulator(src, mode, tmp_path):
    exe = tmp_path / src.stem
    b = build(src, exe, "--offload=emu", f"--mode={mode}")
    if src.stem in KNOWN_UNSUPPORTED:  # must be the named error, never a build of wrong code
        assert b.returncode == 1 and KNOWN_UNSUPPORTED[src.stem] in b.stderr, b.stderr
        return
    assert b.returncode == 0, b.stderr
    env = dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY")
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == src.with_suffix(".expected").read_text()
