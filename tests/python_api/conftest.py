import os
import shutil
from pathlib import Path

import pytest

from ompgpu import cache_dir


def _link_builds_of_the_runtime(shared: Path, private: Path) -> None:
    """The host runtime libraries and precompiled runtime headers that the shared cache already
    holds (the tests before these built them), linked into the private one. Each folder is keyed
    by its sources, compiler and flags, so the same name is the same build, and building them
    again cost this module's first test a minute of CI. The cache replaces its files whole
    (os.replace), so a link is never written through. Compiled modules are not taken."""
    if not shared.is_dir():
        return
    for entry in shared.iterdir():
        if not entry.is_dir() or not (entry.name.startswith("prelude-") or entry.name.endswith(("-emu", "-cuda"))):
            continue
        try:
            shutil.copytree(entry, private / entry.name, copy_function=os.link, dirs_exist_ok=True)
        except OSError:  # another file system: no links, and a copy would cost what it saves
            shutil.rmtree(private / entry.name, ignore_errors=True)


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    """Compiled modules go to a folder of this test session, not the user's cache."""
    private = tmp_path_factory.mktemp("ompgpu-cache")
    _link_builds_of_the_runtime(cache_dir(), private)
    mp = pytest.MonkeyPatch()
    mp.setenv("OMPGPU_CACHE", str(private))
    yield
    mp.undo()
