"""Tier 1: the memory order of device atomics. CUDA's atomics are relaxed; release and
acquire (and seq_cst, acq_rel, and `requires atomic_default_mem_order`) become fences."""
import re

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options


def device_code(tmp_path, clauses: str, requires: str = "") -> str:
    src = tmp_path / "m.c"
    src.write_text(f"{requires}\nint main(void) {{\n  int c = 0;\n#pragma omp target map(tofrom: c)\n"
                   f"  {{\n#pragma omp atomic update {clauses}\n    c += 2;\n  }}\n  return c;\n}}\n")
    cu = translate(str(src), Options()).device_cu
    m = re.search(r"((?:__threadfence\(\);\s*)?)ompgpu_atomic_update\(ompgpu::ATOMIC_ADD, &\(c\), 2\);\s*((?:__threadfence\(\);)?)", cu)
    assert m, cu
    return ("fence " if m.group(1) else "") + "op" + (" fence" if m.group(2) else "")


@pytest.mark.parametrize("clauses, requires, shape", [
    ("", "", "op"),
    ("relaxed", "", "op"),
    ("release", "", "fence op"),
    ("acquire", "", "op fence"),
    ("acq_rel", "", "fence op fence"),
    ("seq_cst", "", "fence op fence"),
    ("", "#pragma omp requires atomic_default_mem_order(seq_cst)", "fence op fence"),
    ("relaxed", "#pragma omp requires atomic_default_mem_order(seq_cst)", "op"),
])
def test_memory_order_places_fences(tmp_path, clauses, requires, shape):
    assert device_code(tmp_path, clauses, requires) == shape


def test_what_ompgpu_meets_is_left_out_of_the_host_code(tmp_path):
    """unified_address (gcc 12: sorry, unimplemented) and dynamic_allocators (gcc 11 likewise;
    only device code needs it) are ompgpu's to meet; the memory order stays the host's."""
    src = tmp_path / "u.c"
    src.write_text("#pragma omp requires unified_address, dynamic_allocators, atomic_default_mem_order(seq_cst)\n"
                   "int main(void) { return 0; }\n")
    host = translate(str(src), Options()).host_c
    line = next(l for l in host.splitlines() if "requires" in l)
    assert "unified_address" not in line and "dynamic_allocators" not in line
    assert "atomic_default_mem_order(seq_cst)" in line
