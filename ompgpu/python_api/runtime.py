"""Running a function plan: arguments, the data environment, launch configuration.

This is the host runtime of `ompgpu cc` (ompgpu/runtime/host: data.cpp, target.cpp) redone
in Python over a backend (CuPy or the emulator), with the same rules:

- present table: host ranges [begin, begin+size) with a reference count; entering a
  construct allocates and copies `to` items that are not present, counts present ones up
  once per construct; leaving counts down, copies `from` items when the count reaches zero
  (or with `always`) and frees; an item inside a mapping is translated into it, a partial
  overlap is an error;
- kernel arguments in capture order: by value, or the translated pointer
  `dev(begin) - (begin - base)`, so a section's pointer arrives as the whole object's image;
- launch geometry: `threads_for` / `teams_for` of target.cpp (thread_limit clause,
  OMP_TEAMS_THREAD_LIMIT, the kernel's default, 160 generic / 256 SPMD; num_teams clause,
  OMP_NUM_TEAMS, the compiler's static count, SMs x threads-per-SM / threads).

Python-side differences, all on purpose: NumPy arrays are host memory and get mapped; arrays
with `__cuda_array_interface__` (CuPy) are device memory already and are never copied (a
section of one must lie inside it); a pointer the region uses without a mapping is an
error here instead of a NULL pointer on the device; `if(false)` on a target region (host
fallback) is an error, since host code does not run from Python.
"""
from __future__ import annotations

import bisect
import os
import sys
from dataclasses import dataclass, field

import numpy as np

from ompgpu.errors import SourceCoord
from ompgpu.python_api import cexpr
from ompgpu.python_api.ctypes_model import ScalarType
from ompgpu.python_api.plan import (MAP_ALWAYS, MAP_DELETE, MAP_FROM, MAP_PRESENT, MAP_RELEASE, MAP_TO, Data, Declare,
                                    FunctionPlan, KernelArg, MapItem, Param, Return, Target)

MASTER_WARP = 32


class OffloadError(RuntimeError):
    """A failure while running a compiled function (mapping, launch); names the construct."""

    def __init__(self, coord: SourceCoord | None, message: str):
        self.coord = coord
        super().__init__(f"{coord}: error: {message}" if coord else f"ompgpu: error: {message}")


# ---------------------------------------------------------------------------- values

@dataclass
class Scalar:
    """A scalar variable: one element of host memory, so that it can be mapped like an array."""

    type: ScalarType
    storage: np.ndarray

    @property
    def value(self):
        v = self.storage[0]
        return float(v) if self.type.is_float else int(v)


@dataclass
class Pointer:
    """A pointer variable: a NumPy array (host), a device array, a raw device address, or NULL."""

    elem: ScalarType | None
    host: np.ndarray | None = None  # flat, C-contiguous
    device_ptr: int = 0  # device arrays and use_device_ptr addresses
    device_len: int | None = None  # bytes, when known (device arrays)
    source: object = None  # what the caller passed (kept alive)

    @property
    def is_null(self) -> bool:
        return self.host is None and self.device_ptr == 0


def is_device_array(obj) -> bool:
    return hasattr(obj, "__cuda_array_interface__")


def make_pointer(p: Param, value) -> Pointer:
    if value is None:
        return Pointer(p.type)
    if is_device_array(value):
        cai = value.__cuda_array_interface__
        dt = np.dtype(cai["typestr"])
        shape = tuple(cai["shape"])
        strides = cai.get("strides")
        if strides is not None and strides != _c_strides(shape, dt.itemsize):
            raise ValueError(f"argument '{p.name}': the device array is not C-contiguous")
        _check_dtype(p, dt)
        n = int(np.prod(shape)) if shape else 1
        return Pointer(p.type, None, int(cai["data"][0]), n * dt.itemsize, value)
    if isinstance(value, np.ndarray):
        if not value.flags.c_contiguous:
            raise ValueError(f"argument '{p.name}': the NumPy array is not C-contiguous (np.ascontiguousarray makes "
                             "a contiguous copy, but results written to the copy do not reach the original)")
        _check_dtype(p, value.dtype)
        if not value.flags.writeable:
            raise ValueError(f"argument '{p.name}': the NumPy array is read-only")
        return Pointer(p.type, value.reshape(-1).view(np.uint8) if p.type is None else value.reshape(-1), source=value)
    raise TypeError(f"argument '{p.name}' ({p.c_type}) takes a NumPy or CuPy array (or None), not "
                    f"{type(value).__name__}")


def _c_strides(shape, itemsize):
    out, acc = [], itemsize
    for s in reversed(shape):
        out.append(acc)
        acc *= s
    return tuple(reversed(out))


def _check_dtype(p: Param, dt: np.dtype) -> None:
    if p.type is None:
        return
    want = np.dtype(p.type.dtype)
    ok = dt == want or (p.type.c_name == "char" and dt in (np.dtype(np.uint8), np.dtype(np.int8)))
    if not ok:
        raise TypeError(f"argument '{p.name}' ({p.c_type}) needs an array of dtype {want}, got {dt}")


def make_scalar(t: ScalarType, value, name: str) -> Scalar:
    if isinstance(value, (np.ndarray,)) and value.shape == ():
        value = value[()]
    if isinstance(value, (bool, np.bool_)):
        value = int(value)
    if not t.is_float:
        if isinstance(value, (float, np.floating)):
            raise TypeError(f"argument '{name}' ({t.c_name}) takes an integer, not {value!r}")
        if not isinstance(value, (int, np.integer)):
            raise TypeError(f"argument '{name}' ({t.c_name}) takes an integer, not {type(value).__name__}")
        lo, hi = (-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1) if t.signed else (0, (1 << t.bits) - 1)
        if t.c_name == "_Bool":
            lo, hi = 0, 1
        if not lo <= int(value) <= hi:
            raise OverflowError(f"argument '{name}' ({t.c_name}): {value} is out of range")
    elif not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"argument '{name}' ({t.c_name}) takes a number, not {type(value).__name__}")
    return Scalar(t, np.array([value], dtype=t.dtype))


# ---------------------------------------------------------------------------- present table

@dataclass
class Mapping:
    hbegin: int
    size: int
    dbegin: int
    handle: object  # the backend's allocation (freed by the backend)
    refcount: int
    name: str
    keep: object  # the host array: keeps its memory (and address) alive while mapped

    def translate(self, h: int) -> int:
        return self.dbegin + (h - self.hbegin)


class PresentTable:
    def __init__(self):
        self.starts: list[int] = []
        self.maps: dict[int, Mapping] = {}

    def find(self, b: int, size: int) -> tuple[str, Mapping | None]:
        i = bisect.bisect_right(self.starts, b)
        if i > 0:
            m = self.maps[self.starts[i - 1]]
            if m.hbegin <= b < m.hbegin + m.size:
                return ("contained" if size <= m.hbegin + m.size - b else "overlap"), m
        if size > 0 and i < len(self.starts) and self.starts[i] - b < size:
            return "overlap", self.maps[self.starts[i]]
        return "absent", None

    def insert(self, m: Mapping) -> None:
        bisect.insort(self.starts, m.hbegin)
        self.maps[m.hbegin] = m

    def erase(self, m: Mapping) -> None:
        self.starts.remove(m.hbegin)
        del self.maps[m.hbegin]

    def __len__(self) -> int:
        return len(self.maps)


@dataclass
class Entry:
    """A map item resolved for this call (the host runtime's ompgpu_map_entry)."""

    item: MapItem
    flags: int
    base: int  # host address (or device address for device arrays)
    begin: int
    size: int
    keep: object
    on_device: bool  # a device array: nothing to map


# ---------------------------------------------------------------------------- the executor

@dataclass
class LaunchRecord:
    kernel: str
    teams: int
    threads: int
    args: tuple


@dataclass
class Executor:
    backend: object
    module: object
    info: bool = field(default_factory=lambda: os.environ.get("OMPGPU_INFO", "") not in ("", "0"))

    def log(self, coord, msg: str) -> None:
        if self.info:
            where = f"{coord.file}:{coord.line}" if coord else "ompgpu"
            print(f"ompgpu: {where}: {msg}", file=sys.stderr)

    # -- calling --------------------------------------------------------------------
    def call(self, plan: FunctionPlan, args, kwargs):
        frame = bind_arguments(plan, args, kwargs)
        result = self.steps(plan.steps, frame)
        if plan.result is not None:
            if result is None:
                raise OffloadError(None, f"'{plan.name}' returns a value but ended without 'return'")
            return np.dtype(plan.result.dtype).type(cexpr.wrap(result, plan.result))
        return None

    def steps(self, steps, frame: dict):
        for s in steps:
            if isinstance(s, Declare):
                value = 0 if s.init is None else self.eval(s.init, frame, None)
                frame[s.name] = Scalar(s.type, np.array([cexpr.wrap(value, s.type)], dtype=s.type.dtype))
            elif isinstance(s, Target):
                self.target(s, frame)
            elif isinstance(s, Data):
                self.data(s, frame)
            elif isinstance(s, Return):
                return None if s.value is None else self.eval(s.value, frame, None)
        return None

    def eval(self, e: cexpr.Expr, frame: dict, coord):
        def lookup(name):
            v = frame[name]
            if not isinstance(v, Scalar):
                raise OffloadError(coord, f"'{name}' is not a scalar")
            return v.value
        try:
            return cexpr.evaluate(e, lookup)
        except (cexpr.EvalError, ArithmeticError) as exc:
            raise OffloadError(coord, str(exc)) from None

    # -- map entries --------------------------------------------------------------------
    def entry(self, item: MapItem, frame: dict) -> Entry:
        v = frame[item.name]
        if isinstance(v, Scalar):
            addr = v.storage.ctypes.data
            return Entry(item, item.flags, addr, addr, v.type.size, v.storage, False)
        assert isinstance(v, Pointer)
        elem = v.elem.size if v.elem is not None else 1
        if not item.section:
            # map(p) of a pointer: the pointer itself is not data on the Python side; its
            # target is translated if present (attach), like the host runtime's zero-length item.
            if v.host is not None:
                addr = v.host.ctypes.data
                return Entry(item, item.flags, addr, addr, 0, v.host, False)
            return Entry(item, item.flags, v.device_ptr, v.device_ptr, 0, v.source, True)
        lo = self.eval(item.lower, frame, item.coord)
        if item.length is None:
            total = (v.host.nbytes if v.host is not None else v.device_len or 0) // elem
            n = total - lo
        else:
            n = self.eval(item.length, frame, item.coord)
        if n < 0 or lo < 0:
            raise OffloadError(item.coord, f"section '{item.text}' = [{lo}:{n}] has a negative bound")
        if v.is_null:
            if n == 0:
                return Entry(item, item.flags, 0, 0, 0, None, False)
            raise OffloadError(item.coord, f"map of '{item.text}': '{item.name}' is NULL (None)")
        if v.host is not None:
            limit = v.host.nbytes
            if (lo + n) * elem > limit:
                raise OffloadError(item.coord, f"map of '{item.text}' = elements [{lo}, {lo + n}) extends past the end "
                                               f"of the array passed as '{item.name}' ({limit // elem} elements)")
            base = v.host.ctypes.data
            return Entry(item, item.flags, base, base + lo * elem, n * elem, v.host, False)
        if v.device_len is not None and (lo + n) * elem > v.device_len:
            raise OffloadError(item.coord, f"section '{item.text}' = elements [{lo}, {lo + n}) extends past the end of "
                                           f"the device array passed as '{item.name}' ({v.device_len // elem} elements)")
        return Entry(item, item.flags, v.device_ptr, v.device_ptr + lo * elem, n * elem, v.source, True)

    def map_enter(self, coord, entries: list[Entry]) -> None:
        table = self.backend.present
        created, counted = [], []
        for e in entries:
            if e.on_device:
                continue
            r, m = table.find(e.begin, e.size)
            if e.size == 0:
                if (e.flags & MAP_PRESENT) and r != "contained":
                    raise OffloadError(coord, f"'{e.item.text}' is not present on the device (map with the 'present' modifier)")
                continue
            if r == "overlap":
                raise OffloadError(coord, f"map of '{e.item.text}' extends beyond the mapped section '{m.name}'")
            if r == "contained":
                is_new = any(x is m for x in created)
                if not is_new and not any(x is m for x in counted):
                    m.refcount += 1
                    counted.append(m)
                if (e.flags & MAP_TO) and (is_new or (e.flags & MAP_ALWAYS)):
                    self.copy_to(coord, e, m)
                continue
            if e.flags & MAP_PRESENT:
                raise OffloadError(coord, f"'{e.item.text}' is not present on the device (map with the 'present' modifier)")
            ptr, handle = self.backend.alloc(e.size)
            self.log(coord, f"alloc '{e.item.text}' ({e.size} bytes)")
            m = Mapping(e.begin, e.size, ptr, handle, 1, e.item.text, e.keep)
            table.insert(m)
            created.append(m)
            if e.flags & MAP_TO:
                self.copy_to(coord, e, m)

    def map_exit(self, coord, entries: list[Entry]) -> None:
        table = self.backend.present
        seen = []
        for e in entries:
            if e.on_device or e.size == 0:
                continue
            r, m = table.find(e.begin, e.size)
            if r == "absent":
                continue
            if r == "overlap":
                raise OffloadError(coord, f"unmap of '{e.item.text}' extends beyond the mapped section '{m.name}'")
            if e.flags & MAP_DELETE:
                m.refcount = 0
            elif not any(x is m for x in seen) and m.refcount > 0:
                m.refcount -= 1
            if not any(x is m for x in seen):
                seen.append(m)
        for e in entries:
            if e.on_device or not (e.flags & MAP_FROM) or e.size <= 0 or (e.flags & MAP_DELETE):
                continue
            r, m = table.find(e.begin, e.size)
            if r != "contained":
                continue
            if m.refcount == 0 or (e.flags & MAP_ALWAYS):
                self.copy_from(coord, e, m)
        for m in seen:
            if m.refcount == 0:
                self.backend.free(m.handle)
                self.log(coord, f"free '{m.name}' ({m.size} bytes)")
                table.erase(m)

    def copy_to(self, coord, e: Entry, m: Mapping) -> None:
        self.backend.copy_to_device(m.translate(e.begin), e.begin, e.size)
        self.log(coord, f"copy to device '{e.item.text}' ({e.size} bytes)")

    def copy_from(self, coord, e: Entry, m: Mapping) -> None:
        self.backend.copy_from_device(e.begin, m.translate(e.begin), e.size)
        self.log(coord, f"copy from device '{e.item.text}' ({e.size} bytes)")

    def translate(self, e: Entry) -> int:
        if e.on_device:
            return e.base
        if e.begin == 0:
            return 0
        r, m = self.backend.present.find(e.begin, 0)
        if r != "contained":
            return 0
        return m.translate(e.begin) - (e.begin - e.base)

    # -- constructs ---------------------------------------------------------------------
    def check_device(self, s, frame) -> bool:
        """False when an if clause is false (the construct does nothing / falls back)."""
        if s.device is not None:
            dev = self.eval(s.device, frame, s.coord)
            if dev != self.backend.device_id and dev != -1:
                raise OffloadError(s.coord, f"device({dev}): the Python API runs on the current device "
                                            f"({self.backend.device_id}) only")
        return s.if_cond is None or bool(self.eval(s.if_cond, frame, s.coord))

    def data(self, s: Data, frame: dict) -> None:
        active = self.check_device(s, frame)
        entries = [self.entry(i, frame) for i in s.maps] if active else []
        if s.construct == "target update":
            for e in entries:
                if e.on_device or e.size == 0:
                    continue
                r, m = self.backend.present.find(e.begin, e.size)
                if r == "overlap":
                    raise OffloadError(s.coord, f"update of '{e.item.text}' extends beyond the mapped section '{m.name}'")
                if r != "contained":
                    if e.flags & MAP_PRESENT:
                        raise OffloadError(s.coord, f"'{e.item.text}' is not present on the device")
                    continue
                (self.copy_to if e.flags & MAP_TO else self.copy_from)(s.coord, e, m)
            return
        if s.construct == "target enter data":
            self.map_enter(s.coord, entries)
            return
        if s.construct == "target exit data":
            self.map_exit(s.coord, entries)
            return
        self.map_enter(s.coord, entries)
        inner = dict(frame)
        for name in s.use_device_ptr:
            v = frame[name]
            if isinstance(v, Pointer) and v.host is not None and active:
                r, m = self.backend.present.find(v.host.ctypes.data, 0)
                dev = m.translate(v.host.ctypes.data) if r == "contained" else 0
                if not dev:
                    raise OffloadError(s.coord, f"use_device_ptr({name}): the array is not mapped")
                inner[name] = Pointer(v.elem, None, dev, v.host.nbytes, v.source)
        self.steps(s.body, inner)  # locals declared in the body stay in `inner`; outer scalars are shared objects
        self.map_exit(s.coord, entries)

    def target(self, s: Target, frame: dict) -> None:
        if not self.check_device(s, frame):
            raise OffloadError(s.coord, "the 'if' clause is false: the region would run on the host (host "
                                        "fallback), which the Python API cannot do")
        entries = [self.entry(i, frame) for i in s.maps]
        self.map_enter(s.coord, entries)
        values = []
        for a in s.args:
            values.append(self.argument(s, a, frame, entries))
        thread_limit = self.eval_opt(s.thread_limit, frame, s.coord)
        if s.num_threads is not None:  # OMPGPU_TEAM_SIZE of ompgpu_host.h
            nt = self.eval_opt(s.num_threads, frame, s.coord)
            thread_limit = thread_limit if 0 < thread_limit < nt else nt
        threads = threads_for(s, self.backend.device_info(), thread_limit)
        teams = teams_for(s, self.backend.device_info(), self.eval_opt(s.num_teams, frame, s.coord), threads)
        self.log(s.coord, f"kernel {s.kernel}: {teams} teams x {threads} threads, {'spmd' if s.mode else 'generic'}")
        self.backend.launch(self.module, s.kernel, teams, threads, values, s.coord)
        self.map_exit(s.coord, entries)

    def eval_opt(self, e, frame, coord) -> int:
        return 0 if e is None else int(self.eval(e, frame, coord))

    def argument(self, s: Target, a: KernelArg, frame: dict, entries: list[Entry]):
        v = frame[a.name]
        if a.how == "literal":
            if isinstance(v, Scalar):
                return v.storage.astype(a.type.dtype)[0]
            if v.host is not None:  # is_device_ptr of a host array
                raise OffloadError(s.coord, f"'{a.name}' is a device pointer in this region (is_device_ptr) but a NumPy "
                                            "array was passed: pass a CuPy array")
            return np.uint64(v.device_ptr)
        if a.how in ("pointer", "object"):
            return np.uint64(self.translate(entries[a.map_index]))
        # attach: a pointer the region uses without a section
        if v.is_null:
            return np.uint64(0)
        if v.host is None:
            return np.uint64(v.device_ptr)
        addr = v.host.ctypes.data
        r, m = self.backend.present.find(addr, 0)
        if r != "contained":
            raise OffloadError(s.coord, f"target region uses '{a.name}', but the NumPy array passed as '{a.name}' is "
                                        f"not mapped: add map(to/from/tofrom: {a.name}[0:n]), map it in an enclosing "
                                        "'target data', or pass a CuPy array")
        return np.uint64(m.translate(addr))


def bind_arguments(plan: FunctionPlan, args, kwargs) -> dict:
    names = [p.name for p in plan.params]
    if len(args) > len(names):
        raise TypeError(f"{plan.name}() takes {len(names)} arguments ({len(args)} given)")
    values = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names:
            raise TypeError(f"{plan.name}() has no parameter '{k}'")
        if k in values:
            raise TypeError(f"{plan.name}() got two values for '{k}'")
        values[k] = v
    missing = [n for n in names if n not in values]
    if missing:
        raise TypeError(f"{plan.name}() is missing argument(s): {', '.join(missing)}")
    frame = {}
    for p in plan.params:
        frame[p.name] = make_scalar(p.type, values[p.name], p.name) if p.kind == "scalar" else make_pointer(p, values[p.name])
    return frame


# ---------------------------------------------------------------------------- launch geometry

@dataclass(frozen=True)
class DeviceInfo:
    name: str
    sms: int
    max_threads_per_sm: int
    max_threads_per_block: int


def _env_int(name: str) -> int:
    try:
        return int(os.environ.get(name, "0") or 0)
    except ValueError:
        return 0


def threads_for(s: Target, dev: DeviceInfo, thread_limit: int) -> int:
    """target.cpp's threads_for: threads per team (CUDA block size)."""
    generic = s.mode != 1
    env_limit = _env_int("OMP_TEAMS_THREAD_LIMIT")
    if thread_limit > 0:
        t = thread_limit + (MASTER_WARP if generic else 0)
    elif env_limit > 0:
        t = env_limit + (MASTER_WARP if generic else 0)
    elif s.default_threads > 0:
        t = s.default_threads
    else:
        t = 128 + MASTER_WARP if generic else 256
    cap = dev.max_threads_per_block if dev.max_threads_per_block > 0 else 1024
    if s.max_threads > 0:
        cap = min(cap, s.max_threads)
    if generic:
        t = max((t + 31) // 32 * 32, 2 * MASTER_WARP)
        cap = max(cap // 32 * 32, 2 * MASTER_WARP)
    return max(1, min(t, cap))


def teams_for(s: Target, dev: DeviceInfo, num_teams: int, threads: int) -> int:
    """target.cpp's teams_for: number of teams (CUDA grid size)."""
    env_teams = _env_int("OMP_NUM_TEAMS")
    if num_teams > 0:
        n = num_teams
    elif env_teams > 0:
        n = env_teams
    elif s.static_teams > 0:
        n = s.static_teams
    else:
        n = dev.sms * max(1, dev.max_threads_per_sm // threads)
    return max(1, min(n, 2**31 - 1))
