"""Tier 1: the front end accepts every realistic program and rejects each malformed one
with the right gcc-style diagnostic at the right line."""
import re
from pathlib import Path

import pytest

from ompgpu.cli import main

ROOT = Path(__file__).resolve().parents[1]
OK = sorted((ROOT / "syntax" / "ok").glob("*.c")) + sorted((ROOT / "programs").glob("*.c"))
BAD = sorted((ROOT / "syntax" / "bad").glob("*.c"))
EXPECT = re.compile(r"//\s*expect-error:\s*(\d+):(\d+|\*):\s*(.+?)\s*$")


@pytest.mark.parametrize("path", OK, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_accepts(path, capsys):
    rc = main(["cc", "-fsyntax-only", str(path)])
    err = capsys.readouterr().err
    assert rc == 0, err
    # (a warning may name the error directive: only error diagnostics count)
    assert ": error:" not in err and "internal compiler error" not in err, err


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_rejects_with_diagnostic(path, capsys):
    m = EXPECT.match(path.read_text().splitlines()[0])
    assert m, f"{path.name}: first line must be '// expect-error: LINE:COL: SUBSTRING'"
    line, col, needle = m.group(1), m.group(2), m.group(3)
    rc = main(["cc", "-fsyntax-only", str(path)])
    err = capsys.readouterr().err
    assert rc != 0
    assert "Traceback" not in err and "internal compiler error" not in err, err
    where = f"{path}:{line}:" + ("" if col == "*" else f"{col}:")
    assert where in err, f"expected a diagnostic at {where}, got:\n{err}"
    assert needle.lower() in err.lower(), f"expected {needle!r} in:\n{err}"
    assert re.search(r": error: ", err), err
    assert "^" in err  # the caret line
