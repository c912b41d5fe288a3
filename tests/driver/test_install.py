"""Tier 1: what a new user meets first. A fresh install has every module the compiler and
the Python API import; the compiler relies on pycparser's public API only; an internal
error is one line naming the input, never a bare traceback; `ompgpu doctor` reports the
Python packages and flags an untested pycparser."""
from __future__ import annotations

import ast
import re
import sys
from importlib import metadata
from pathlib import Path

import pytest

import ompgpu.codegen.device as device
import ompgpu.codegen.device.kernel as device_kernel
import ompgpu.doctor as doctor
from ompgpu.cli import main

PACKAGE = Path(device.__file__).resolve().parents[2]  # ompgpu/ (device is ompgpu/codegen/device/)
# Import name -> the distribution that provides it.
DISTRIBUTION = {"pycparser": "pycparser", "lark": "lark", "jinja2": "jinja2", "numpy": "numpy", "cupy": "cupy-cuda13x",
                "cupy_backends": "cupy-cuda13x"}


def _declared(extra: str | None = None) -> set[str]:
    """Distributions that `pip install -e .` (extra None) or `.[extra]` brings."""
    out = set()
    for req in metadata.requires("ompgpu") or []:
        name = re.match(r"[A-Za-z0-9_.-]+", req).group().lower()
        marker = req.split(";", 1)[1] if ";" in req else ""
        if not marker or (extra and f'extra == "{extra}"' in marker):
            out.add(name)
    return out


def _third_party_imports() -> dict[str, set[str]]:
    """Top-level third-party modules each source file of the package imports."""
    found: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "ompgpu":
                    found.setdefault(top, set()).add(str(path.relative_to(PACKAGE)))
    return found


def test_every_third_party_import_is_declared():
    base, gpu = _declared(), _declared("gpu")
    for module, files in _third_party_imports().items():
        assert module in DISTRIBUTION, f"{module} (imported by {sorted(files)}) is not a chosen dependency"
        dist = DISTRIBUTION[module]
        if module.startswith("cupy"):  # GPU only: an extra, and explained when missing
            assert dist in gpu, f"{dist} is not in the [gpu] extra"
        else:
            assert dist in base, f"{dist} (imported by {sorted(files)}) is not in [project] dependencies"


PRIVATE_PYCPARSER = re.compile(r"super\(\)\._[a-z]|\._(generate|make_indent|parse|visit_expr|peek|accept|expect|reset|"
                               r"advance|tok_coord|is_simple|parenthesize)\w*")


def test_only_public_pycparser_api():
    offenders = [f"{p.relative_to(PACKAGE)}:{i}: {line.strip()}"
                 for p in PACKAGE.rglob("*.py") for i, line in enumerate(p.read_text().splitlines(), 1)
                 if PRIVATE_PYCPARSER.search(line)]
    assert not offenders, "pycparser internals used:\n" + "\n".join(offenders)


@pytest.fixture
def crashing_codegen(monkeypatch):
    def crash(em, k, kname, *more):
        raise KeyError("simulated compiler bug")
    monkeypatch.setattr(device_kernel, "emit_kernel", crash)


SOURCE = """int main(void) {
  int a[8];
  #pragma omp target map(from: a)
  for (int i = 0; i < 8; i++) a[i] = i;
  return a[3] - 3;
}
"""


def test_internal_error_is_one_line_with_location(crashing_codegen, tmp_path, capsys):
    src = tmp_path / "k.c"
    src.write_text(SOURCE)
    assert main(["cc", "--emit-cuda", str(src), "-o", str(tmp_path / "k.cu")]) == 70
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("ompgpu: internal compiler error: KeyError: 'simulated compiler bug'")
    assert f"while compiling {src}:3:" in lines[0]  # the target construct being compiled
    trace_file = re.search(r"the traceback is in (\S+?\.txt)", lines[0]).group(1)
    assert "KeyError" in Path(trace_file).read_text()
    Path(trace_file).unlink()


def test_internal_error_traceback_with_v(crashing_codegen, tmp_path, capsys):
    src = tmp_path / "k.c"
    src.write_text(SOURCE)
    assert main(["cc", "-v", "--emit-cuda", str(src), "-o", str(tmp_path / "k.cu")]) == 70
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "simulated compiler bug" in err
    assert err.strip().splitlines()[-1].startswith("ompgpu: internal compiler error:")
    Path(re.search(r"the traceback is in (\S+?\.txt)", err).group(1)).unlink()


def test_doctor_reports_python_packages(capsys):
    doctor.doctor()
    out = capsys.readouterr().out
    for name in ("pycparser", "lark", "jinja2"):
        assert re.search(rf"^{name}:\s+{re.escape(metadata.version(name))}", out, re.M), out


@pytest.mark.parametrize("version, verdict", [("2.23", "outside"), ("3.0", "tested range"), ("3.12", "tested range"),
                                              ("3.99", "newer than the newest tested"), ("4.0", "outside")])
def test_doctor_flags_untested_pycparser(monkeypatch, version, verdict):
    real = metadata.version
    monkeypatch.setattr(doctor.metadata, "version", lambda name: version if name == "pycparser" else real(name))
    lines, ok = doctor.python_packages()
    line = next(l for l in lines if l.startswith("pycparser:"))
    assert verdict in line
    assert ok == (verdict != "outside")
