import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    """Compiled modules go to a folder of this test session, not the user's cache."""
    mp = pytest.MonkeyPatch()
    mp.setenv("OMPGPU_CACHE", str(tmp_path_factory.mktemp("ompgpu-cache")))
    yield
    mp.undo()
