"""The program drivers (tests/python_api/programs) on the emulator agree with tests/programs/*.expected."""
import contextlib
import importlib.util
import io
from pathlib import Path

import pytest

import ompgpu

HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize("name", sorted(p.stem for p in (HERE / "programs").glob("*.py") if p.stem != "run_all"))
def test_program_agrees_with_expected(name):
    spec = importlib.util.spec_from_file_location(f"driver_{name}", HERE / "programs" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        mod.main(lambda src, fn, options=(): ompgpu.compile(src, fn, options, backend="emu"))
    assert out.getvalue() == (HERE.parent / "programs" / f"{name}.expected").read_text()
