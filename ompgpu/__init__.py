"""ompgpu: OpenMP target offload to NVIDIA GPUs with warp-specialized nested parallelism."""
__version__ = "0.1.0"
from ompgpu.python_api import compile  # noqa: E402,A001 - the Python API (issue 8); imports NumPy and loads the runtime only when called


def cache_dir():
    """Where ompgpu keeps what it builds once: the runtime library, its own bytecode
    ($OMPGPU_CACHE, default ~/.cache/ompgpu)."""
    import os
    from pathlib import Path
    return Path(os.environ.get("OMPGPU_CACHE", Path.home() / ".cache" / "ompgpu"))
