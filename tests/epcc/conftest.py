import json
import os
import shutil
import stat
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO))


@pytest.fixture
def fake_build(tmp_path):
    """A build folder whose variants are the fake program (no compiler involved)."""

    def make(variants=("ompgpu-generic", "clang19"), env=None, floor=False, omitted=None):
        build = tmp_path / "build"
        (build / "bin").mkdir(parents=True, exist_ok=True)
        exe = build / "bin" / "fake"
        shutil.copyfile(HERE / "fake_program.py", exe)
        exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
        specs = []
        for name in variants:
            spec = {"name": name, "label": name, "exe": "bin/fake", "status": "ok", "compiler": "fake 1.0",
                    "env": dict(env or {}).get(name, {})}
            if omitted and name in omitted:
                spec["omitted"] = omitted[name]
            specs.append(spec)
        if floor:
            specs.append({"name": "floor", "label": "floor", "exe": "bin/fake", "status": "ok", "floor": True,
                          "tests": ["reference", "parallel", "barrier"]})
        (build / "manifest.json").write_text(json.dumps({"commit": "abc123", "build_date": "2026-01-01T00:00:00+00:00",
                                                          "offload": "fake", "variants": specs}))
        return build

    return make
