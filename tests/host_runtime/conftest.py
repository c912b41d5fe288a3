"""Fixtures that build the host runtime (see hostrt_build.py for the builds)."""
from __future__ import annotations

import pytest

from hostrt_build import (CC, CUDA, CXX, EMU_DIR, EMU_HEADER, HOST, MOCK_HEADER, REPO, SUPPORT, Build, _run,
                          build_emu_mode, compile_all, runtime_sources)


@pytest.fixture(scope="session")
def mock_build(tmp_path_factory) -> Build:
    b = build_emu_mode(tmp_path_factory.mktemp("mock"), MOCK_HEADER, [])
    if isinstance(b, str):
        pytest.fail("host runtime does not build against the test mock:\n" + b)
    return b


@pytest.fixture(scope="session")
def emu_build(tmp_path_factory) -> Build:
    if not EMU_HEADER.exists():
        pytest.skip(f"emulator header {EMU_HEADER.relative_to(REPO)} does not exist yet")
    b = build_emu_mode(tmp_path_factory.mktemp("emu"), EMU_HEADER, sorted(EMU_DIR.glob("*.cpp")))
    if isinstance(b, str):
        pytest.skip("host runtime does not build against the emulator yet:\n" + b[-3000:])
    return b


@pytest.fixture(params=["mock", "emu"])
def build(request) -> Build:
    return request.getfixturevalue(f"{request.param}_build")


@pytest.fixture(scope="session")
def cuda_build(tmp_path_factory) -> Path:
    """The runtime compiled against the real CUDA headers, linked with cudart_static into
    support/prog_cuda.c. Returns the executable."""
    if not (CUDA / "include" / "cuda_runtime.h").exists() or not (CUDA / "lib64" / "libcudart_static.a").exists():
        pytest.skip(f"no CUDA toolkit at {CUDA}")
    out = tmp_path_factory.mktemp("cuda")
    jobs, objs = [], []
    for src in runtime_sources():
        o = out / f"rt_{src.stem}.o"
        jobs.append([CXX, "-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror", "-I", str(CUDA / "include"),
                     "-c", str(src), "-o", str(o)])
        objs.append(o)
    o = out / "prog_cuda.o"
    jobs.append([CC, "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-I", str(HOST), "-c",
                 str(SUPPORT / "prog_cuda.c"), "-o", str(o)])
    objs.append(o)
    err = compile_all(jobs, out)
    assert err is None, err
    lib = out / "libompgpu_host_cuda.a"
    r = _run(["ar", "rcs", str(lib), *[str(x) for x in objs if x.name.startswith("rt_")]], out)
    assert r.returncode == 0, r.stderr
    exe = out / "prog_cuda"
    r = _run([CXX, "-fopenmp", str(out / "prog_cuda.o"), str(lib), f"-L{CUDA / 'lib64'}", "-lcudart_static",
              "-ldl", "-lpthread", "-lrt", "-o", str(exe)], out)
    assert r.returncode == 0, r.stdout + r.stderr
    return exe
