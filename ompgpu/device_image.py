"""Device images (issue 35): a file's device code compiled on its own and kept as data in its
host object, which the runtime loads per device and launches through the CUDA driver API
(runtime/host/image.cpp). Here: which files get one, the object that holds it, and where a link
still needs nvcc's device link (objects and libraries with nvcc's relocatable device code)."""
from __future__ import annotations

import hashlib
from pathlib import Path

from ompgpu.codegen.device import DeviceOutput
from ompgpu.codegen.host.program import DeviceImage
from ompgpu.options import Options


def plan_device_image(device: DeviceOutput, opts: Options) -> DeviceImage | None:
    """How the file's device code reaches the GPU: as a device image where it can (issue 35: nvcc
    compiles device code only, no host pass), else None (nvcc's whole compile). Not for
    relocatable device code (calls into other files, or -c of a file whose device functions or
    variables other files may name: linked with nvcc -dlink)."""
    relocatable = device.external_device_code or (opts.compile_only and device.exports_device_symbols)
    if opts.offload != "cuda" or opts.emit_cuda or relocatable:
        return None
    digest = hashlib.sha1(device.cuda.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return DeviceImage(f"__ompgpu_image_{digest}", dict(device.launch_shapes), device.indirect_calls)


def image_assembly(symbol: str, image: Path, ptx: Path | None = None) -> str:
    """Assembly (GNU as, clang's integrated assembler) of an object that holds the file `image`
    (a cubin or a fatbin) under the hidden symbol `symbol`, aligned as the CUDA driver wants it,
    and the file `ptx` (or nothing: a fatbin holds its PTX) as a string under `symbol`_ptx, which
    the runtime loads where the GPU cannot run the cubin."""
    def data(name: str, body: str, align: int) -> str:
        return (f'\t.section .rodata.{name},"a",@progbits\n'
                f"\t.balign {align}\n"
                f"\t.globl {name}\n"
                f"\t.hidden {name}\n"
                f"\t.type {name},@object\n"
                f"{name}:\n"
                f"{body}"
                f"\t.size {name}, .-{name}\n")

    def incbin(path: Path) -> str:
        return '\t.incbin "' + str(path.resolve()).replace("\\", "\\\\").replace('"', '\\"') + '"\n'

    return (data(symbol, incbin(image), 64) +
            data(f"{symbol}_ptx", (incbin(ptx) if ptx else "") + "\t.byte 0\n", 8) +
            '\t.section .note.GNU-stack,"",@progbits\n')


# nvcc's relocatable device code (-rdc) in a host object: the section nvlink links.
RELOCATABLE_DEVICE_SECTION = b"__nv_relfatbin"


def has_relocatable_device_code(path: Path) -> bool:
    """Whether an object file or a static library holds nvcc's relocatable device code (an ELF
    section __nv_relfatbin, in the object or a member of the archive). A shared library links its
    own device code. Where the file cannot be read as either, True: nvcc -dlink decides."""
    if path.suffix == ".so" or ".so." in path.name:
        return False
    try:
        data = path.read_bytes()
    except OSError:
        return True
    if data.startswith(b"!<arch>\n"):
        pos, found = 8, False
        while pos + 60 <= len(data):
            header = data[pos:pos + 60]
            try:
                size = int(header[48:58].decode("ascii").strip())
            except ValueError:
                return True
            member = data[pos + 60:pos + 60 + size]
            if member.startswith(b"\x7fELF"):
                found = found or _elf_has_section(member, RELOCATABLE_DEVICE_SECTION)
            pos += 60 + size + (size & 1)
        return found
    if data.startswith(b"\x7fELF"):
        return _elf_has_section(data, RELOCATABLE_DEVICE_SECTION)
    return True


def _elf_has_section(elf: bytes, name: bytes) -> bool:
    """Whether a 64-bit little-endian ELF object has a section of that name (unreadable: True)."""
    try:
        if elf[4] != 2 or elf[5] != 1:
            return True
        shoff = int.from_bytes(elf[0x28:0x30], "little")
        shentsize = int.from_bytes(elf[0x3A:0x3C], "little")
        shnum = int.from_bytes(elf[0x3C:0x3E], "little")
        shstrndx = int.from_bytes(elf[0x3E:0x40], "little")
        strtab = shoff + shstrndx * shentsize
        names_at = int.from_bytes(elf[strtab + 0x18:strtab + 0x20], "little")
        for i in range(shnum):
            header = shoff + i * shentsize
            start = names_at + int.from_bytes(elf[header:header + 4], "little")
            if elf[start:elf.index(b"\0", start)] == name:
                return True
        return False
    except (IndexError, ValueError):
        return True
