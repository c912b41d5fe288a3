"""Tier 1: device images (issue 35). A file's device code compiled on its own is kept as data of
its host object, and its host code launches the kernels through the runtime: the host code's
stubs, the image object, and when a file keeps nvcc's whole compile instead. No GPU needed."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ompgpu.codegen.device.program import device_global_symbol
from ompgpu.device_image import image_assembly
from ompgpu.driver import _nvrtc_failure, translate
from ompgpu.errors import ToolchainError, UnsupportedError
from ompgpu.nvrtc import NvrtcError, find_nvrtc
from ompgpu.options import Options
from ompgpu.toolchain import find_cuda

PROGRAMS = Path(__file__).resolve().parents[1] / "programs"

SOURCE = """#include <stdio.h>
int counter = 5;
#pragma omp declare target to(counter)
int main(void) {
  int a[64];
  #pragma omp target teams distribute parallel for map(from: a)
  for (int i = 0; i < 64; i++) a[i] = i + counter;
  #pragma omp target teams num_teams(8) thread_limit(32) map(tofrom: a)
  { a[omp_get_team_num()] += 1; }
  printf("%d\\n", a[63]);
  return 0;
}
"""


def _translate(tmp_path, **options):
    src = tmp_path / "img.c"
    src.write_text("#include <omp.h>\n" + SOURCE)
    return translate(str(src), Options(offload="cuda", **options))


def test_host_code_launches_an_image_through_the_runtime(tmp_path):
    t = _translate(tmp_path)
    assert t.device_image and re.fullmatch(r"__ompgpu_image_[0-9a-f]{16}", t.device_image)
    host = t.host_c
    assert f'extern const unsigned char {t.device_image}[] __attribute__((visibility("hidden")));' in host
    assert f"static ompgpu_device_image __ompgpu_image = {{ {t.device_image}, {t.device_image}_ptx, 0 }};" in host
    # one kernel record and two static stubs per kernel: nothing is left for a device object to define
    # (params, packed, team_threads, scratch, combine, cooperative, generic)
    record_of = lambda host, kname: re.search(rf'static ompgpu_image_kernel __ompgpu_ik_{kname} = {{ &__ompgpu_image, '  # noqa: E731
                                              rf'"{kname}", (\d+), (\d+), (\d+), ([01]), ([01]), ([01]), ([01]) }};', host)
    for _, kname in t.kernels:
        record = record_of(host, kname)
        assert record, kname
        assert int(record.group(1)) >= 1   # the mapped array at least
        assert record.group(7) == "0"      # SPMD: no team thread limit after the parameters
        assert f"static int __ompgpu_launch_{kname}(" in host and f"static int __ompgpu_occupancy_{kname}(" in host
        assert f"extern int __ompgpu_launch_{kname}" not in host
    # a generic kernel takes its team's thread limit last (runtime/host/image.cpp)
    generic = _translate(tmp_path, mode="generic")
    for _, kname in generic.kernels:
        record = record_of(generic.host_c, kname)
        assert record and record.group(7) == "1", kname
    # the declare target variable: its device address by its mangled name in the image
    assert f'ompgpu_image_global(&__ompgpu_image, "{device_global_symbol("counter")}")' in host
    assert device_global_symbol("counter") == "_ZN11ompgpu_user7counterE"
    # the device code keeps its host side for nvcc's whole compile only
    assert "#ifndef OMPGPU_DEVICE_IMAGE\nextern \"C\" int __ompgpu_launch_" in t.device_cu


def test_files_that_keep_nvccs_whole_compile(tmp_path, monkeypatch):
    # -c: the device code may be called from other files (relocatable device code, nvcc -dlink;
    # with nvJitLink as the device linker, the program's linked image: tests/driver/test_device_link.py)
    monkeypatch.setenv("OMPGPU_DEVICE_LINKER", "nvcc")
    assert _translate(tmp_path, compile_only=True).device_image is None
    monkeypatch.setenv("OMPGPU_DEVICE_LINKER", "nvjitlink")
    relocatable = _translate(tmp_path, compile_only=True)
    assert relocatable.device_image == "__ompgpu_linked_image" and relocatable.device_image_relocatable
    assert 'extern const unsigned char __ompgpu_linked_image[] __attribute__((visibility("hidden"), weak));' in relocatable.host_c
    monkeypatch.delenv("OMPGPU_DEVICE_LINKER")
    # the emulator compiles the device code with its launch stubs
    assert _translate(tmp_path).device_image is not None
    src = tmp_path / "img.c"
    assert translate(str(src), Options(offload="emu")).device_image is None

def test_an_image_of_declare_target_indirect(tmp_path):
    # device code that calls through pointers: the runtime writes the device's table into the
    # module before its first launch; the file's indirect functions' device addresses are read
    # from the image by name
    t = translate(str(PROGRAMS / "declare_target_indirect.c"), Options(offload="cuda"))
    assert t.device_image is not None
    assert f"{t.device_image}_ptx, 1 }};" in t.host_c
    assert 'ompgpu_image_read(&__ompgpu_image, "__ompgpu_indirect_function_0", (void *)&out[0], sizeof(void *));' in t.host_c
    # each function's address a variable of its own type (a constant initializer to NVRTC 13.0 too)
    assert re.search(r'extern "C" OMPGPU_DEVICE decltype\(&ompgpu_user::(\w+)\) __ompgpu_indirect_function_0 = '
                     r'&ompgpu_user::\1;', t.device_cu)


def test_image_object_holds_the_file_under_a_hidden_symbol(tmp_path):
    data = bytes(range(256)) * 5 + b"\x00tail"
    blob = tmp_path / 'odd "name".bin'
    blob.write_bytes(data)
    ptx = tmp_path / "image.ptx"
    ptx.write_bytes(b".version 9.0\n.target sm_90\n")
    asm = tmp_path / "image.s"
    asm.write_text(image_assembly("__ompgpu_image_0123456789abcdef", blob, ptx))
    obj = tmp_path / "image.o"
    subprocess.run(["gcc", "-c", str(asm), "-o", str(obj)], check=True)
    symbols = subprocess.run(["readelf", "-sW", str(obj)], capture_output=True, text=True, check=True).stdout
    line = next(l for l in symbols.splitlines() if l.endswith(" __ompgpu_image_0123456789abcdef"))
    fields = line.split()
    assert int(fields[2]) == len(data) and fields[3] == "OBJECT" and fields[4] == "GLOBAL" and fields[5] == "HIDDEN"
    section = tmp_path / "section.bin"
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.rodata.__ompgpu_image_0123456789abcdef", str(obj),
                    str(section)], check=True)
    assert section.read_bytes() == data
    # the PTX beside it, as a C string (the runtime loads it where the GPU cannot run the cubin)
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.rodata.__ompgpu_image_0123456789abcdef_ptx", str(obj),
                    str(section)], check=True)
    assert section.read_bytes() == ptx.read_bytes() + b"\0"
    # a fatbin holds its own PTX: an empty string beside it
    asm.write_text(image_assembly("__ompgpu_image_0123456789abcdef", blob))
    subprocess.run(["gcc", "-c", str(asm), "-o", str(obj)], check=True)
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.rodata.__ompgpu_image_0123456789abcdef_ptx", str(obj),
                    str(section)], check=True)
    assert section.read_bytes() == b"\0"
    # no executable stack from this object
    assert ".note.GNU-stack" in subprocess.run(["readelf", "-SW", str(obj)], capture_output=True, text=True).stdout


@pytest.mark.toolchain
@pytest.mark.skipif(find_nvrtc() is None and find_cuda(required=False) is None, reason="no device compiler")
def test_a_program_links_its_image_and_no_device_object(tmp_path):
    src = tmp_path / "img.c"
    src.write_text("#include <omp.h>\n" + SOURCE)
    exe = tmp_path / "img"
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "-save-temps", str(src), "-o", str(exe)], capture_output=True,
                       text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    symbols = subprocess.run(["nm", str(exe)], capture_output=True, text=True, check=True).stdout
    # read-only data; a hidden symbol, which gold (the linker where installed) makes local: r or R
    assert re.search(r" [rR] __ompgpu_image_[0-9a-f]{16}$", symbols, re.M)
    assert not re.search(r" T __ompgpu_launch_", symbols)   # the stubs are the host code's own (static)
    image = (tmp_path / "img.cubin") if find_nvrtc() else (tmp_path / "img.fatbin")
    assert image.exists() and image.stat().st_size > 0   # -save-temps keeps it beside the .device.cu
    if find_nvrtc():
        assert image.read_bytes()[:4] == b"\x7fELF"   # NVRTC's cubin
        assert b".target sm_90" in (tmp_path / "img.ptx").read_bytes()   # and its PTX


@pytest.mark.toolchain
@pytest.mark.skipif(find_nvrtc() is None or find_cuda(required=False) is None, reason="needs NVRTC and nvcc")
def test_code_nvrtc_rejects_goes_to_nvcc(tmp_path):
    # a flexible array member (GNU C++ in nvcc, not in NVRTC)
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "-v", str(PROGRAMS / "c_not_cpp.c"), "-o",
                        str(tmp_path / "c_not_cpp")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "NVRTC cannot compile the device code of" in r.stderr and "-fatbin" in r.stderr


def test_without_nvcc_a_flexible_array_member_is_named_where_it_is_written():
    # NVRTC compiles C++, which has no flexible array members; with no nvcc to fall back on, the
    # error names the member in the user's file (not a line of the generated device code)
    src = PROGRAMS / "c_not_cpp.c"
    t = translate(str(src), Options())
    err = _nvrtc_failure(t, Options(), NvrtcError('c_not_cpp.device.cu(39): error: incomplete type "int []" is not allowed'))
    assert isinstance(err, UnsupportedError)
    assert err.render().startswith(f"{src}:17:7: error: flexible array member 'items' in device code"), err.render()
    other = _nvrtc_failure(t, Options(), NvrtcError("c_not_cpp.device.cu(12): error: identifier \"x\" is undefined"))
    assert isinstance(other, ToolchainError) and "identifier" in other.message


@pytest.mark.toolchain
def test_relocatable_device_code_is_found_in_objects_and_archives(tmp_path):
    from ompgpu.device_image import has_relocatable_device_code
    plain = tmp_path / "plain.o"
    (tmp_path / "plain.c").write_text("int plain(void) { return 1; }\n")
    subprocess.run(["gcc", "-c", str(tmp_path / "plain.c"), "-o", str(plain)], check=True)
    assert not has_relocatable_device_code(plain)
    subprocess.run(["ar", "rcs", str(tmp_path / "libplain.a"), str(plain)], check=True)
    assert not has_relocatable_device_code(tmp_path / "libplain.a")
    garbage = tmp_path / "odd.o"
    garbage.write_bytes(b"not an object")
    assert has_relocatable_device_code(garbage)   # unknown: nvcc -dlink decides, as before
    cuda = find_cuda(required=False)
    if cuda is None:
        return
    (tmp_path / "f.cu").write_text("__device__ int f(int x) { return x + 1; }\n")
    subprocess.run([str(cuda.nvcc), "-rdc=true", "-arch=sm_90", "-c", str(tmp_path / "f.cu"), "-o", str(tmp_path / "f.o")],
                   check=True)
    assert has_relocatable_device_code(tmp_path / "f.o")
    subprocess.run(["ar", "rcs", str(tmp_path / "libmixed.a"), str(plain), str(tmp_path / "f.o")], check=True)
    assert has_relocatable_device_code(tmp_path / "libmixed.a")


@pytest.mark.toolchain
@pytest.mark.skipif(find_nvrtc() is None and find_cuda(required=False) is None, reason="no device compiler")
def test_separate_compilation_of_files_that_export_no_device_code_links_no_device_code(tmp_path, monkeypatch):
    monkeypatch.setenv("OMPGPU_DEVICE_LINKER", "nvcc")   # (nvJitLink's: tests/driver/test_device_link.py)
    # -c of a file whose device code nothing else can name (kernels, static helpers): an image in
    # the object, and the link needs no device link (no nvcc -dlink)
    (tmp_path / "kern.c").write_text("static int twice(int x) { return 2 * x; }\n"
                                     "void fill(int *a, int n) {\n"
                                     "  #pragma omp target teams distribute parallel for map(from: a[0:n])\n"
                                     "  for (int i = 0; i < n; i++) a[i] = twice(i);\n}\n")
    (tmp_path / "main.c").write_text("#include <stdio.h>\nvoid fill(int *a, int n);\n"
                                     "int main(void) { int a[4]; fill(a, 4); printf(\"%d\\n\", a[3]); return 0; }\n")
    for f in ("kern", "main"):
        r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "-c", f"{f}.c", "-o", f"{f}.o"], capture_output=True,
                           text=True, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    symbols = subprocess.run(["nm", "kern.o"], capture_output=True, text=True, cwd=tmp_path).stdout
    # read-only data; a hidden symbol, which gold (the linker where installed) makes local: r or R
    assert re.search(r" [rR] __ompgpu_image_[0-9a-f]{16}$", symbols, re.M)
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "-v", "kern.o", "main.o", "-o", "prog"], capture_output=True,
                       text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "-dlink" not in r.stderr
    # a declare target function another file may call keeps relocatable device code
    (tmp_path / "lib.c").write_text("#pragma omp declare target\nint inc(int x) { return x + 1; }\n"
                                    "#pragma omp end declare target\n")
    if find_cuda(required=False) is not None:
        r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "-c", "lib.c", "-o", "lib.o"], capture_output=True,
                           text=True, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        from ompgpu.device_image import has_relocatable_device_code
        assert has_relocatable_device_code(tmp_path / "lib.o")


# Tier 3, on a GPU: the images run, from either device compiler, and from their PTX.
GPU_PROGRAMS = ["vec_add", "declare_target", "declare_target_indirect", "packed_teams", "api_queries"]


def _build_and_run(src: Path, exe: Path, *flags: str, env: dict | None = None) -> str:
    import os
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", *flags, str(src), "-o", str(exe)], capture_output=True,
                       text=True, env={**os.environ, **(env or {})})
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "OMP_TARGET_OFFLOAD": "MANDATORY"})
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.gpu
@pytest.mark.parametrize("compiler", ["nvrtc", "nvcc"])
@pytest.mark.parametrize("name", GPU_PROGRAMS)
def test_images_run_on_the_gpu(name, compiler, tmp_path):
    if compiler == "nvrtc" and find_nvrtc() is None or compiler == "nvcc" and find_cuda(required=False) is None:
        pytest.skip(f"no {compiler}")
    env = {"OMPGPU_DEVICE_COMPILER": "nvcc"} if compiler == "nvcc" else {}
    out = _build_and_run(PROGRAMS / f"{name}.c", tmp_path / name, env=env)
    assert out == (PROGRAMS / f"{name}.expected").read_text()


@pytest.mark.gpu
@pytest.mark.skipif(find_nvrtc() is None, reason="NVRTC not installed")
def test_an_image_for_an_older_gpu_runs_from_its_ptx(tmp_path):
    # sm_80's cubin does not run on sm_90 and later: the runtime loads the PTX beside it
    out = _build_and_run(PROGRAMS / "vec_add.c", tmp_path / "vec_add", "--offload-arch=sm_80")
    assert out == (PROGRAMS / "vec_add.expected").read_text()


def test_a_file_without_device_code_names_no_image(tmp_path):
    # (its host code named an image no object defined: at -O0 the link failed)
    src = tmp_path / "plain.c"
    src.write_text('#include <stdio.h>\nint main(void) { printf("plain\\n"); return 0; }\n')
    t = translate(str(src), Options(offload="cuda"))
    assert t.device_image is None and "__ompgpu_image" not in t.host_c
    if find_cuda(required=False) is None and find_nvrtc() is None:
        return
    for level in ("-O0", "-O2"):
        r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", level, str(src), "-o", str(tmp_path / "plain")],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert subprocess.run([str(tmp_path / "plain")], capture_output=True, text=True).stdout == "plain\n"
