"""Device images (issue 35): a file's device code compiled on its own and kept as data in its
host object, which the runtime loads per device and launches through the CUDA driver API
(runtime/host/image.cpp). Here: which files get one, the object that holds it, and where a link
still needs nvcc's device link (objects and libraries with nvcc's relocatable device code)."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ompgpu.codegen.device import DeviceOutput
from ompgpu.codegen.host.program import DeviceImage
from ompgpu.options import Options


# The program's (or shared library's) linked image of relocatable device code: the link defines
# it (nvJitLink), the host code of every file whose device code is in it names it.
LINKED_IMAGE_SYMBOL = "__ompgpu_linked_image"


def plan_device_image(device: DeviceOutput, opts: Options) -> DeviceImage | None:
    """How the file's device code reaches the GPU: as a device image where it can (issue 35: nvcc
    compiles device code only, no host pass), else None (nvcc's whole compile). Relocatable
    device code (calls into other files, or -c of a file whose device functions or variables
    other files may name) is nvcc's (-rdc, linked by nvcc -dlink), or, where the device linker
    is nvJitLink (relocatable_linker), part of the program's linked image."""
    relocatable = device.external_device_code or (opts.compile_only and device.exports_device_symbols)
    if opts.offload != "cuda" or opts.emit_cuda:
        return None
    if relocatable:
        # (declare target indirect names its table per file: not in a linked image yet)
        if relocatable_linker() != "nvjitlink" or device.indirect_calls or device.indirect_functions:
            return None
        return DeviceImage(LINKED_IMAGE_SYMBOL, dict(device.launch_shapes), False, relocatable=True)
    digest = hashlib.sha1(device.cuda.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return DeviceImage(f"__ompgpu_image_{digest}", dict(device.launch_shapes), device.indirect_calls)


def relocatable_linker() -> str:
    """Which tool links relocatable device code: "nvcc" (nvcc -rdc, nvcc -dlink) where nvcc is
    found, else "nvjitlink" (NVRTC -rdc, nvJitLink at the link) where NVRTC and nvJitLink are
    (NVIDIA's wheels alone). OMPGPU_DEVICE_LINKER=nvcc or nvjitlink chooses."""
    from ompgpu.nvjitlink import find_nvjitlink
    from ompgpu.nvrtc import find_nvrtc
    from ompgpu.toolchain import find_cuda

    chosen = os.environ.get("OMPGPU_DEVICE_LINKER", "")
    if chosen in ("nvcc", "nvjitlink"):
        return chosen
    if find_cuda(required=False) is not None:
        return "nvcc"
    return "nvjitlink" if find_nvrtc() is not None and find_nvjitlink() is not None else "nvcc"


# A relocatable image in a host object: this section holds RELOCATABLE_IMAGE_MAGIC, the cubin's
# length (8 bytes, little-endian) and the cubin, padded to 8 bytes; `ld -r` and the link
# concatenate the sections of several files (each record 8-aligned). Not loaded (no "a" flag).
RELOCATABLE_IMAGE_SECTION = b".ompgpu_rdc"
RELOCATABLE_IMAGE_MAGIC = b"OMPGRDC1"


def relocatable_image_assembly(cubin: Path) -> str:
    """Assembly of an object whose RELOCATABLE_IMAGE_SECTION holds the relocatable cubin."""
    return (f'\t.section {RELOCATABLE_IMAGE_SECTION.decode()},"",@progbits\n'
            "\t.balign 8\n"
            f'\t.ascii "{RELOCATABLE_IMAGE_MAGIC.decode()}"\n'
            f"\t.quad {cubin.stat().st_size}\n"
            f"{_incbin(cubin)}"
            "\t.balign 8, 0\n"
            '\t.section .note.GNU-stack,"",@progbits\n')


def relocatable_images(path: Path) -> list[bytes]:
    """The relocatable cubins (RELOCATABLE_IMAGE_SECTION) of an object file or of every member
    of a static library; none in a shared library (which links its own)."""
    found = []
    try:
        sections = [_elf_section(elf, RELOCATABLE_IMAGE_SECTION) for elf in _elf_objects(path) or []]
    except ValueError:
        return []
    for section in sections:
        pos = 0
        while section is not None and pos + 16 <= len(section):
            if section[pos:pos + 8] != RELOCATABLE_IMAGE_MAGIC:
                pos += 8   # padding between the records of several files
                continue
            size = int.from_bytes(section[pos + 8:pos + 16], "little")
            found.append(section[pos + 16:pos + 16 + size])
            pos += 16 + (size + 7) // 8 * 8
    return found


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

    return (data(symbol, _incbin(image), 64) +
            data(f"{symbol}_ptx", (_incbin(ptx) if ptx else "") + "\t.byte 0\n", 8) +
            '\t.section .note.GNU-stack,"",@progbits\n')


def _incbin(path: Path) -> str:
    """The assembler's line that includes the file's bytes."""
    return '\t.incbin "' + str(path.resolve()).replace("\\", "\\\\").replace('"', '\\"') + '"\n'


# nvcc's relocatable device code (-rdc) in a host object: the section nvlink links.
RELOCATABLE_DEVICE_SECTION = b"__nv_relfatbin"


def has_relocatable_device_code(path: Path) -> bool:
    """Whether an object file or a static library holds nvcc's relocatable device code (an ELF
    section __nv_relfatbin, in the object or a member of the archive). A shared library links its
    own device code. Where the file cannot be read as either, True: nvcc -dlink decides."""
    try:
        objects = _elf_objects(path)
    except ValueError:
        return True
    return True if objects is None else any(_elf_has_section(elf, RELOCATABLE_DEVICE_SECTION) for elf in objects)


def _elf_objects(path: Path) -> list[bytes] | None:
    """The ELF objects of an object file (itself) or of a static library (its ELF members); []
    for a shared library (which links its own device code); None where the file is neither or
    cannot be read; ValueError where a library's member header is damaged."""
    if path.suffix == ".so" or ".so." in path.name:
        return []
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if data.startswith(b"\x7fELF"):
        return [data]
    if not data.startswith(b"!<arch>\n"):
        return None
    members, pos = [], 8
    while pos + 60 <= len(data):
        size = int(data[pos + 48:pos + 58].decode("ascii").strip())
        member = data[pos + 60:pos + 60 + size]
        if member.startswith(b"\x7fELF"):
            members.append(member)
        pos += 60 + size + (size & 1)
    return members


def _elf_section(elf: bytes, name: bytes) -> bytes | None:
    """The contents of a 64-bit little-endian ELF object's section of that name, None where it
    has none; ValueError where it cannot be read as one."""
    try:
        if elf[4] != 2 or elf[5] != 1:
            raise ValueError("not a 64-bit little-endian ELF object")
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
                offset = int.from_bytes(elf[header + 0x18:header + 0x20], "little")
                size = int.from_bytes(elf[header + 0x20:header + 0x28], "little")
                return elf[offset:offset + size]
        return None
    except IndexError:
        raise ValueError("a damaged ELF object") from None


def _elf_has_section(elf: bytes, name: bytes) -> bool:
    """Whether a 64-bit little-endian ELF object has a section of that name (unreadable: True)."""
    try:
        return _elf_section(elf, name) is not None
    except ValueError:
        return True
