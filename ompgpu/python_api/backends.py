"""Where compiled functions run: CuPy on a GPU, or the CPU device emulator.

A backend compiles a translation into a loaded module, owns the device's present table
(one per process and device, like the host runtime's, so `target enter data` mappings
outlive the call that made them), allocates and copies device memory and launches kernels.

- `CupyBackend`: NVRTC (through CuPy's binding) compiles the NVRTC variant of the device
  code to a cubin for the current GPU, cached next to the translation; `cupy.RawModule`
  loads it and launches. Where CuPy's NVRTC binding is missing, `cupy.RawModule(code=...)`
  compiles instead (CuPy's own cache then holds the cubin).
- `EmuBackend`: g++ builds the `ompgpu cc --offload=emu` device code (with its launch
  stubs) into a shared library, cached likewise, that ctypes loads; kernels run on the CPU
  in the emulator, synchronously. An emulator failure (deadlock, fault) ends the process
  with status 3, as in an emulated `ompgpu cc` program.
"""
from __future__ import annotations

import ctypes
import functools
import os
import subprocess
from pathlib import Path

import jinja2
import numpy as np

from ompgpu.python_api.frontend import Translation, _atomic_write, cache_root
from ompgpu.python_api.runtime import DeviceInfo, OffloadError, PresentTable
from ompgpu.toolchain import DEVICE_RT, EMU_HEADER, EMU_RT, HOST_RT, host_cxx

HERE = Path(__file__).resolve().parent
NVRTC_INCLUDE = HERE / "nvrtc_include"


@functools.lru_cache(maxsize=1)
def _templates() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")), undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, autoescape=False)


def render(name: str, **ctx) -> str:
    return _templates().get_template(name).render(**ctx)


def nvrtc_source(t: Translation) -> str:
    return render("nvrtc_module.cu.j2", filename=t.filename, device_cu=t.nvrtc_cu)


def nvrtc_options(arch: str) -> list[str]:
    """Options for NVRTC: C++17, the GPU's architecture, the stand-in headers and the device runtime."""
    return ["--std=c++17", f"-arch={arch}", f"-I{NVRTC_INCLUDE}", f"-I{DEVICE_RT}", "-diag-suppress=177,550"]


class CompileFailed(RuntimeError):
    """The generated code did not compile (an ompgpu bug or an unsupported C feature)."""


# ---------------------------------------------------------------------------- CuPy

class CupyBackend:
    name = "cupy"

    def __init__(self):
        try:
            import cupy
        except ImportError as exc:
            raise ImportError("ompgpu.compile needs CuPy for GPU execution (pip install cupy-cuda13x, or "
                              "'ompgpu[gpu]'); backend='emu' runs the kernels on the CPU emulator") from exc
        self.cupy = cupy
        self.device_id = int(cupy.cuda.runtime.getDevice())
        self.present = PresentTable()
        self._info = None
        self.compiled_with = ""

    def device_info(self) -> DeviceInfo:
        if self._info is None:
            p = self.cupy.cuda.runtime.getDeviceProperties(self.device_id)
            name = p.get("name", b"GPU")
            self._info = DeviceInfo(name.decode() if isinstance(name, bytes) else str(name), int(p["multiProcessorCount"]),
                                    int(p["maxThreadsPerMultiProcessor"]), int(p["maxThreadsPerBlock"]))
        return self._info

    def arch(self) -> str:
        cc = self.cupy.cuda.Device(self.device_id).compute_capability
        return f"sm_{cc}"

    def load(self, t: Translation):
        source = nvrtc_source(t)
        arch = self.arch()
        options = nvrtc_options(arch)
        try:
            from cupy_backends.cuda.libs import nvrtc

            version = "%d.%d" % tuple(nvrtc.getVersion())[:2]
            cubin = cache_root() / t.key / f"{arch}-nvrtc{version}.cubin"
            if not cubin.exists():
                _atomic_write(cubin, self._nvrtc_compile(nvrtc, source, options, t))
        except CompileFailed:
            raise
        except Exception as exc:  # noqa: BLE001 - CuPy without a usable NVRTC binding: let CuPy compile
            self.compiled_with = f"cupy.RawModule(code=...) ({type(exc).__name__}: {exc})"
            opts = tuple(o for o in options if not o.startswith("-arch="))
            return self.cupy.RawModule(code=source, options=opts, backend="nvrtc")
        self.compiled_with = f"NVRTC {version} -> {cubin}"
        return self.cupy.RawModule(path=str(cubin))

    @staticmethod
    def _nvrtc_compile(nvrtc, source: str, options: list[str], t: Translation) -> bytes:
        prog = nvrtc.createProgram(source, f"{t.filename}.cu", (), ())
        try:
            try:
                nvrtc.compileProgram(prog, options)
            except Exception as exc:  # noqa: BLE001 - NVRTCError: report the log
                log = nvrtc.getProgramLog(prog)
                raise CompileFailed(f"NVRTC could not compile the generated device code of '{t.plan.name}' "
                                    f"({exc}):\n{log}") from None
            return bytes(nvrtc.getCUBIN(prog))
        finally:
            nvrtc.destroyProgram(prog)

    def alloc(self, nbytes: int):
        mem = self.cupy.cuda.memory.alloc(max(1, nbytes))
        return int(mem.ptr), mem

    def free(self, handle) -> None:
        del handle  # CuPy's pool takes the memory back when the last reference goes

    def copy_to_device(self, dptr: int, hptr: int, nbytes: int) -> None:
        rt = self.cupy.cuda.runtime
        rt.memcpy(dptr, hptr, nbytes, rt.memcpyHostToDevice)

    def copy_from_device(self, hptr: int, dptr: int, nbytes: int) -> None:
        rt = self.cupy.cuda.runtime
        rt.memcpy(hptr, dptr, nbytes, rt.memcpyDeviceToHost)

    def launch(self, module, kernel: str, teams: int, threads: int, args: list, coord) -> None:
        fn = module.get_function(kernel)
        try:
            fn((teams,), (threads,), tuple(args), shared_mem=0)
            self.cupy.cuda.runtime.deviceSynchronize()
        except Exception as exc:  # noqa: BLE001 - CUDA errors of CuPy: say which region
            raise OffloadError(coord, f"kernel {kernel} failed: {exc} (launched with {teams} teams x {threads} "
                                      "threads); a pointer used in the region may not be mapped") from None


# ---------------------------------------------------------------------------- emulator

class _LaunchConfig(ctypes.Structure):
    _fields_ = [("num_teams", ctypes.c_uint), ("threads_per_team", ctypes.c_uint), ("dyn_shmem", ctypes.c_size_t),
                ("stream", ctypes.c_void_p)]


class EmuModule:
    def __init__(self, lib: ctypes.CDLL, path: Path):
        self.lib, self.path = lib, path


class EmuBackend:
    name = "emu"
    device_id = 0

    def __init__(self):
        self.present = PresentTable()
        self._info = None
        self._lib = None  # any loaded module: they all share the emulator's allocator semantics
        self.compiled_with = ""

    def load(self, t: Translation) -> EmuModule:
        folder = cache_root() / t.key
        so = folder / "emu.so"
        if not so.exists():
            src = folder / "emu_module.cpp"
            _atomic_write(src, render("emu_module.cpp.j2", filename=t.filename, device_cu=t.device_cu).encode())
            tmp = folder / f".emu-{os.getpid()}.so"
            cmd = [host_cxx(), "-std=c++17", "-O1", "-x", "c++", "-DOMPGPU_EMU", "-include", str(EMU_HEADER),
                   f"-I{DEVICE_RT}", f"-I{HOST_RT}", f"-I{EMU_RT}", "-w", "-fPIC", "-shared", "-Wl,-Bsymbolic",
                   str(src), "-o", str(tmp), "-lpthread"]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                raise CompileFailed(f"the emulator build of '{t.plan.name}' failed:\n{' '.join(cmd)}\n{proc.stderr[-4000:]}")
            os.replace(tmp, so)
        lib = ctypes.CDLL(str(so))  # RTLD_LOCAL: each module keeps its own kernels
        for fn, res, argtypes in (("ompgpu_py_alloc", ctypes.c_int, [ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p)]),
                                  ("ompgpu_py_free", ctypes.c_int, [ctypes.c_void_p]),
                                  ("ompgpu_py_copy", ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]),
                                  ("ompgpu_py_synchronize", ctypes.c_int, []),
                                  ("ompgpu_py_device", ctypes.c_int, [ctypes.POINTER(ctypes.c_int)] * 3 + [ctypes.c_char_p, ctypes.c_int]),
                                  ("ompgpu_py_error_string", ctypes.c_char_p, [ctypes.c_int])):
            f = getattr(lib, fn)
            f.restype, f.argtypes = res, argtypes
        if self._lib is None:
            self._lib = lib
        self.compiled_with = f"g++ -DOMPGPU_EMU -> {so}"
        return EmuModule(lib, so)

    def _check(self, err: int, what: str) -> None:
        if err != 0:
            raise OffloadError(None, f"{what} failed: {self._lib.ompgpu_py_error_string(err).decode()}")

    def device_info(self) -> DeviceInfo:
        if self._info is None:
            vals = [ctypes.c_int() for _ in range(3)]
            name = ctypes.create_string_buffer(256)
            self._check(self._lib.ompgpu_py_device(*[ctypes.byref(v) for v in vals], name, 256), "cudaGetDeviceProperties")
            self._info = DeviceInfo(name.value.decode(), vals[0].value, vals[1].value, vals[2].value)
        return self._info

    def alloc(self, nbytes: int):
        p = ctypes.c_void_p()
        self._check(self._lib.ompgpu_py_alloc(max(1, nbytes), ctypes.byref(p)), f"allocation of {nbytes} bytes")
        return int(p.value), int(p.value)

    def free(self, handle) -> None:
        self._check(self._lib.ompgpu_py_free(handle), "free")

    def copy_to_device(self, dptr: int, hptr: int, nbytes: int) -> None:
        self._check(self._lib.ompgpu_py_copy(dptr, hptr, nbytes, 1), "copy to device")

    def copy_from_device(self, hptr: int, dptr: int, nbytes: int) -> None:
        self._check(self._lib.ompgpu_py_copy(hptr, dptr, nbytes, 0), "copy from device")

    def launch(self, module: EmuModule, kernel: str, teams: int, threads: int, args: list, coord) -> None:
        stub = getattr(module.lib, f"__ompgpu_launch_{kernel}")
        stub.restype, stub.argtypes = ctypes.c_int, [ctypes.POINTER(_LaunchConfig), ctypes.POINTER(ctypes.c_void_p)]
        boxes = [np.array([a]) for a in args]  # each argument's bytes; args[i] points at them
        slots = (ctypes.c_void_p * max(1, len(boxes)))(*[b.ctypes.data for b in boxes])
        cfg = _LaunchConfig(teams, threads, 0, None)
        err = stub(ctypes.byref(cfg), slots)
        if err == 0:
            err = module.lib.ompgpu_py_synchronize()
        if err != 0:
            raise OffloadError(coord, f"kernel {kernel} failed: {module.lib.ompgpu_py_error_string(err).decode()} "
                                      f"(launched with {teams} teams x {threads} threads)")


_BACKENDS: dict[str, object] = {}


def get_backend(name: str):
    """The process-wide backend of that kind (one present table per device, like the host runtime)."""
    if name == "emu":
        key = "emu"
    elif name == "cupy":
        try:
            import cupy
        except ImportError:
            CupyBackend()  # raises the explained ImportError
        key = f"cupy:{int(cupy.cuda.runtime.getDevice())}"
    else:
        raise ValueError(f"unknown backend '{name}' (expected 'cupy' or 'emu')")
    if key not in _BACKENDS:
        _BACKENDS[key] = CupyBackend() if name == "cupy" else EmuBackend()
    return _BACKENDS[key]
