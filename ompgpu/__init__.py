"""ompgpu: OpenMP target offload to NVIDIA GPUs with warp-specialized nested parallelism."""
__version__ = "0.1.0"
