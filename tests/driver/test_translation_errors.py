"""Errors that only a full translation finds (-fsyntax-only stops before the outliner and the
code generators): defaultmap forms that depend on what the region uses, a host teams construct
in a function that device code calls. Each file's first line names the expected diagnostic
(`// expect-error: LINE:COL: SUBSTRING`, COL may be *)."""
import re
from pathlib import Path

import pytest

from ompgpu.cli import main

HERE = Path(__file__).resolve().parent / "translation_errors"
EXPECT = re.compile(r"//\s*expect-error:\s*(\d+):(\d+|\*):\s*(.+?)\s*$")


@pytest.mark.parametrize("path", sorted(HERE.glob("*.c")), ids=lambda p: p.stem)
def test_translation_error(path, tmp_path, capsys):
    m = EXPECT.match(path.read_text().splitlines()[0])
    assert m, f"{path.name}: first line must be '// expect-error: LINE:COL: SUBSTRING'"
    line, col, needle = m.groups()
    assert main(["cc", "--emit-cuda", str(path), "-o", str(tmp_path / "k.cu")]) == 1
    err = capsys.readouterr().err
    where = f"{path}:{line}:" + ("" if col == "*" else f"{col}:")
    assert where in err and "error:" in err, err
    assert needle in err, err
    assert "Traceback" not in err
