"""Tier 1: the C headers ompgpu gives NVRTC (runtime/device/rtc) say what the host's say. Device
code and host code share data: a macro's value or type, or a type's size, alignment or sign,
that differs between them is a wrong answer (NVRTC-built code once printed a different
sizeof(max_align_t)). The host compiler prints each macro's value and type and each typedef's
layout; NVRTC must compile static assertions of the same, through the stand-ins."""
import re
import subprocess
from pathlib import Path

import pytest

from ompgpu.nvrtc import NvrtcError, find_nvrtc, image_options
from ompgpu.toolchain import DEVICE_RT, host_cc

RTC = DEVICE_RT / "rtc"
HEADERS = ("stdint.h", "stddef.h", "limits.h", "float.h", "math.h")
# Not constant expressions in NVRTC (bit patterns through device intrinsics): their types only.
TYPE_ONLY = {"INFINITY", "NAN", "HUGE_VAL", "HUGE_VALF"}
# C's NULL is ((void *)0), C++'s an integer literal: device code is C++ and uses it as such.
NOT_COMPARED = {"NULL"}
TYPES = ("int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long", "float", "double")

pytestmark = pytest.mark.skipif(find_nvrtc() is None, reason="NVRTC not installed (pip install 'ompgpu[cuda]')")


def object_macros() -> list[str]:
    names = set()
    for h in HEADERS:
        for m in re.finditer(r"^#define ([A-Z][A-Z0-9_]*)[ \t]", (RTC / h).read_text(), re.M):
            if not m.group(1).startswith("OMPGPU_") and m.group(1) not in NOT_COMPARED:
                names.add(m.group(1))
    return sorted(names)


def typedefs() -> list[str]:
    names = set()
    for h in ("stdint.h", "stddef.h"):
        names |= set(re.findall(r"\b([a-z_][a-z0-9_]*_t)\b;", (RTC / h).read_text()))
    return sorted(names)


def host_facts(tmp_path) -> list[str]:
    """Lines `macro NAME TYPE VALUE` and `type NAME SIZE ALIGN SIGNED` from the host compiler."""
    show = "\n".join(
        f'  printf("macro {n} %s %s\\n", TYPE_NAME({n}), VALUE({n}));' for n in object_macros())
    layout = "\n".join(
        f'  printf("type {t} %zu %zu %d\\n", sizeof({t}), _Alignof({t}), '
        f'{"0" if t == "max_align_t" else f"(({t})-1 < ({t})0)"});' for t in typedefs())
    generic_type = ", ".join(f'{t}: "{t}"' for t in TYPES)
    src = tmp_path / "facts.c"
    src.write_text(f"""#include <stdint.h>
#include <stddef.h>
#include <limits.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#define TYPE_NAME(x) _Generic((x), {generic_type}, default: "other")
static char buf[256][64];
static int used;
static const char *value_ll(long long v) {{ snprintf(buf[used], 64, "%lldLL", v); return buf[used++]; }}
static const char *value_ull(unsigned long long v) {{ snprintf(buf[used], 64, "%lluULL", v); return buf[used++]; }}
static const char *value_d(double v) {{ snprintf(buf[used], 64, "%a", v); return buf[used++]; }}
#define VALUE(x) _Generic((x), float: value_d, double: value_d, unsigned int: value_ull, unsigned long: value_ull, \\
                          unsigned long long: value_ull, default: value_ll)(x)
int main(void) {{
{show}
{layout}
  return 0;
}}
""")
    exe = tmp_path / "facts"
    subprocess.run([host_cc(), "-std=c11", str(src), "-o", str(exe)], check=True)
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.splitlines()


def test_the_stand_in_headers_say_what_the_hosts_say(tmp_path):
    facts = host_facts(tmp_path)
    asserts = []
    for line in facts:
        kind, name, *rest = line.split(" ", 2) if line.startswith("macro") else line.split()
        if kind == "macro":
            type_name, value = rest[0].rsplit(" ", 1) if " " in rest[0] else (rest[0], "")
            assert type_name != "other", line
            asserts.append(f'static_assert(std::is_same<decltype({name}), {type_name}>::value, "type of {name}");')
            if name not in TYPE_ONLY:   # value: an integer with its suffix, or a hexadecimal float
                asserts.append(f'static_assert({name} == ({type_name}){value}, "value of {name}");')
        else:
            size, align, signed = rest
            asserts.append(f'static_assert(sizeof({name}) == {size} && alignof({name}) == {align}, "layout of {name}");')
            if name != "max_align_t":
                asserts.append(f'static_assert((({name})-1 < ({name})0) == {bool(int(signed))}, "sign of {name}");'
                               .replace("True", "true").replace("False", "false"))
    assert len(asserts) > 60, facts
    source = "\n".join(["#include <stdint.h>", "#include <stddef.h>", "#include <limits.h>", "#include <float.h>",
                        "#include <math.h>", "#include <type_traits>", *asserts,
                        'extern "C" __global__ void ompgpu_headers_probe(void) {}'])
    try:
        find_nvrtc().compile(source, "headers_probe.cu", image_options("sm_90"))
    except NvrtcError as exc:
        pytest.fail("NVRTC's headers differ from the host's:\n" +
                    "\n".join(l for l in exc.log.splitlines() if "error" in l or "static assertion" in l))


def test_offsetof_through_the_stand_ins(tmp_path):
    source = ("#include <stddef.h>\nstruct particle { char tag; double x; int id[3]; };\n"
              'extern "C" __global__ void probe(size_t *out) { out[0] = offsetof(struct particle, id[2]); }\n')
    find_nvrtc().compile(source, "offsetof_probe.cu", image_options("sm_90"))


def test_nvrtc_compiles_in_parallel_where_it_can():
    # split compilation from NVRTC 12.4 on (ompgpu/nvrtc.py SPLIT_COMPILE_FROM); older ones lack the option
    assert "-split-compile=0" in image_options("sm_90", version="13.0")
    assert "-split-compile=0" in image_options("sm_90", version="12.4")
    assert "-split-compile=0" not in image_options("sm_90", version="12.2")
    assert "-split-compile=0" not in image_options("sm_90")
