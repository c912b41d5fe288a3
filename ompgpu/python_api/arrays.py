"""The arrays Python users have, as a pointer argument of a compiled function sees them.

- NumPy arrays: host memory, mapped as the function's clauses say.
- Objects with `__cuda_array_interface__` (CuPy, PyTorch, Numba, JAX on the GPU): device
  memory, version 3's "stream" is the stream the caller works on (the call runs on it).
- Objects with `__dlpack__` (PyTorch, JAX, TensorFlow, NumPy 1.22+, ...): the capsule's
  tensor, device memory for kDLCUDA and kDLCUDAManaged, host memory for kDLCPU and kDLCUDAHost.
  The producer is asked to make the data ready on the call's stream; the capsule stays alive
  for the call, and its producer frees it after (the capsule is never consumed).

Each must be C-contiguous and of the dtype the parameter points to; an array that is not is an
error naming the parameter. Results are written in place: nothing is copied to a temporary.
"""
from __future__ import annotations

import ctypes
import sys

import numpy as np

from ompgpu.python_api.model import Param

LEGACY_DEFAULT_STREAM = 1   # cudaStreamLegacy, and the interface's value for it


# What describe_array returns (a plain tuple: a call makes one per array argument):
# (address, nbytes, on_device (1 device memory, 0 host memory), the stream the caller orders its
# work on (None: not said), an object that must stay alive during the call (or None)).
ArrayView = tuple


def describe_array(p: Param, value, call_stream: int | None) -> ArrayView:
    kind = _KIND_OF_TYPE.get(type(value))
    if kind is None:
        kind = _kind_of(value)
    if kind is None:
        raise TypeError(f"argument '{p.name}' ({p.c_type}) takes an array (NumPy, CuPy, PyTorch, or any object with "
                        f"__cuda_array_interface__ or __dlpack__) or None, not {type(value).__name__}")
    return kind(p, value, call_stream)


def _numpy(p: Param, value: np.ndarray, _stream) -> ArrayView:
    if not value.flags.c_contiguous:
        raise ValueError(f"argument '{p.name}': the NumPy array is not C-contiguous (np.ascontiguousarray makes "
                         "a contiguous copy, but results written to the copy do not reach the original)")
    _check_dtype(p, value.dtype)
    if not value.flags.writeable and not p.const:
        raise ValueError(f"argument '{p.name}': the NumPy array is read-only, and '{p.name}' is not a pointer to const")
    return (value.ctypes.data, value.nbytes, 0, None, None)


_DTYPES: dict[str, np.dtype] = {}


def _cuda_array_interface(p: Param, value, call_stream) -> ArrayView:
    try:
        cai = value.__cuda_array_interface__
    except AttributeError:   # a PyTorch tensor in host memory has the property, but raises
        if hasattr(value, "__dlpack__"):
            return _dlpack(p, value, call_stream)
        raise TypeError(f"argument '{p.name}': {type(value).__name__} has no __cuda_array_interface__") from None
    typestr = cai["typestr"]
    dt = _DTYPES.get(typestr)
    if dt is None:
        dt = _DTYPES[typestr] = np.dtype(typestr)
    _check_dtype(p, dt)
    shape = cai["shape"]
    n = 1
    for s in shape:
        n *= s
    strides = cai.get("strides")
    if strides is not None and n > 1 and not _c_contiguous(shape, strides, dt.itemsize):
        raise ValueError(f"argument '{p.name}': the device array is not C-contiguous")
    if cai.get("mask") is not None:
        raise ValueError(f"argument '{p.name}': a device array with a mask cannot be passed")
    address, read_only = cai["data"]
    if read_only and not p.const:
        raise ValueError(f"argument '{p.name}': the device array is read-only, and '{p.name}' is not a pointer to const")
    return (address or 0, n * dt.itemsize, 1, cai.get("stream"), None)


# DLPack (dlpack.h, v0.8 and 1.0 without versioning): the legacy "dltensor" capsule.
class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


KDL_CPU, KDL_CUDA, KDL_CUDA_HOST, KDL_CUDA_MANAGED = 1, 2, 3, 13
_DL_ON_DEVICE = {KDL_CPU: 0, KDL_CUDA_HOST: 0, KDL_CUDA: 1, KDL_CUDA_MANAGED: 1}
_DL_CODES = {0: "i", 1: "u", 2: "f", 6: "b"}   # kDLInt, kDLUInt, kDLFloat, kDLBool
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype, _capsule_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]


def _dlpack(p: Param, value, call_stream: int | None) -> ArrayView:
    device_type, _ = value.__dlpack_device__()
    on_device = _DL_ON_DEVICE.get(int(device_type))
    if on_device is None:
        raise ValueError(f"argument '{p.name}': DLPack device type {int(device_type)} is neither CUDA nor host memory")
    # The producer orders its work before the call's stream (the legacy default stream when no
    # other argument names one).
    stream = (call_stream or LEGACY_DEFAULT_STREAM) if device_type in (KDL_CUDA, KDL_CUDA_MANAGED) else None
    capsule = value.__dlpack__(stream=stream) if stream is not None else value.__dlpack__()
    t = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
    code, bits, lanes = t.dtype.code, t.dtype.bits, t.dtype.lanes
    if code not in _DL_CODES or lanes != 1:
        raise TypeError(f"argument '{p.name}': DLPack data type (code {code}, {bits} bits, {lanes} lanes) has no C "
                        "arithmetic type")
    dt = np.dtype(f"{_DL_CODES[code]}{bits // 8}") if code != 6 else np.dtype(bool)
    _check_dtype(p, dt)
    shape = [t.shape[i] for i in range(t.ndim)]
    n = 1
    for s in shape:
        n *= s
    if t.strides and n > 1 and not _c_contiguous(shape, [t.strides[i] * dt.itemsize for i in range(t.ndim)],
                                                 dt.itemsize):
        raise ValueError(f"argument '{p.name}': the DLPack tensor is not C-contiguous")
    return ((t.data or 0) + t.byte_offset, n * dt.itemsize, on_device, stream, capsule)


def _cupy(p: Param, value, call_stream) -> ArrayView:
    """cupy.ndarray without building its interface's dictionary (the same facts, a call's worth
    of microseconds less): CuPy's current stream, as its interface would say it."""
    if not value.flags.c_contiguous:
        raise ValueError(f"argument '{p.name}': the device array is not C-contiguous")
    _check_dtype(p, value.dtype)
    if call_stream is None:
        call_stream = _CUPY_CURRENT_STREAM().ptr or LEGACY_DEFAULT_STREAM   # 0 is the null stream: legacy
    return (value.data.ptr, value.nbytes, 1, call_stream, None)


_TORCH_DTYPES: dict = {}


def _torch(p: Param, value, call_stream) -> ArrayView:
    """torch.Tensor on the GPU without its interface's dictionary (built in Python by PyTorch);
    tensors in host memory go through DLPack."""
    if not value.is_cuda:
        return _dlpack(p, value, call_stream)
    if not value.is_contiguous():
        raise ValueError(f"argument '{p.name}': the tensor is not contiguous")
    dt = _TORCH_DTYPES.get(value.dtype)
    if dt is None:
        dt = _TORCH_DTYPES[value.dtype] = np.dtype(str(value.dtype).removeprefix("torch."))
    _check_dtype(p, dt)
    if call_stream is None:   # PyTorch is the caller's (a tensor came from it), not a dependency of ompgpu
        torch = sys.modules["torch"]
        call_stream = torch.cuda.current_stream(value.device).cuda_stream or LEGACY_DEFAULT_STREAM
    return (value.data_ptr(), value.numel() * value.element_size(), 1, call_stream, None)


_CUPY_CURRENT_STREAM = None


def _fast_path(cls: type):
    """A describer that reads CuPy's and PyTorch's arrays directly, by their public attributes."""
    global _CUPY_CURRENT_STREAM
    module = cls.__module__ or ""
    if cls.__name__ == "ndarray" and module.split(".")[0] == "cupy":
        import cupy

        _CUPY_CURRENT_STREAM = cupy.cuda.get_current_stream
        return _cupy
    if cls.__name__ in ("Tensor", "Parameter") and module.split(".")[0] == "torch":
        return _torch
    return None


def _kind_of(value):
    """How to read `value`; remembered for its type where the type alone decides."""
    cls = type(value)
    kind = _numpy if isinstance(value, np.ndarray) else _fast_path(cls) or \
        _cuda_array_interface if hasattr(cls, "__cuda_array_interface__") else \
        _dlpack if hasattr(cls, "__dlpack__") and hasattr(cls, "__dlpack_device__") else None
    if kind is not None:
        _KIND_OF_TYPE[cls] = kind
        return kind
    # The interface as an attribute of the object (Numba's device arrays, wrappers): not remembered.
    return _cuda_array_interface if hasattr(value, "__cuda_array_interface__") else None


_KIND_OF_TYPE: dict[type, object] = {}


def _c_contiguous(shape, strides, itemsize) -> bool:
    """Row-major without gaps; extents of 1 may have any stride."""
    expected = itemsize
    for extent, stride in zip(reversed(shape), reversed(strides)):
        if extent != 1 and stride != expected:
            return False
        expected *= extent
    return True


def _check_dtype(p: Param, dt: np.dtype) -> None:
    if p.type is None:
        return
    want = p.dtype
    if dt != want and not (p.type.c_name == "char" and dt in (np.dtype(np.uint8), np.dtype(np.int8))):
        raise TypeError(f"argument '{p.name}' ({p.c_type}) needs an array of dtype {want}, got {dt}")
