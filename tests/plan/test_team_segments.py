"""Tier 1: a team's segment staged through shared memory for its distribute iteration
(analysis/team_staging.py team_segment, templates/team_segment.j2), and the iterations left as
written. tests/programs/team_segments.c checks the answers."""
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options

STAGED = "staged through shared memory for the iteration"


def remarks(tmp_path: Path, iteration: str, mode: str = "auto") -> tuple[str, ...]:
    src = tmp_path / "s.c"
    src.write_text(f"""#include <math.h>
float data[64 * 512], other[64];
int main(void) {{
  float *aug = data;
#pragma omp target teams distribute thread_limit(128) map(tofrom: aug[0:64*512], other)
  for (int b = 0; b < 64; b++) {{
{iteration}
  }}
  return 0;
}}
""")
    return tuple(r for r in translate(str(src), Options(mode=mode)).remarks if STAGED in r)


SWEEPS = """
    for (int k = 0; k < 16; k++) {
      const float piv = m[k * 32 + k] + 1.0f;
#pragma omp parallel for
      for (int e = 0; e < 512; e++) m[e] = m[e] / piv + sqrtf(fabsf(m[k * 16 + 3]));
    }"""


@pytest.mark.parametrize("iteration", [
    "float *m = aug + b * 512;" + SWEEPS,
    "float *m = &aug[b * 512];" + SWEEPS,
    "float *m = aug + (long)b * 512;" + SWEEPS,
    # a team-shared local array and a serial loop over it, a switch with its break
    "float *m = aug + 512 * b; float t[16];\n"
    "    for (int k = 0; k < 16; k++) {\n#pragma omp parallel for\n"
    "      for (int i = 0; i < 16; i++) t[i] = m[i * 32 + k];\n"
    "      switch (k) { case 3: break; default:\n#pragma omp parallel for collapse(2)\n"
    "        for (int i = 0; i < 16; i++) for (int j = 0; j < 32; j++) m[i * 32 + j] -= t[i]; }\n"
    "    }",
])
def test_a_team_that_works_on_its_own_segment_stages_it(tmp_path, iteration):
    found = remarks(tmp_path, iteration)
    assert len(found) == 1 and "2048 bytes" in found[0] and "stored back at its end" in found[0]


def test_a_segment_only_read_is_not_stored_back(tmp_path):
    iteration = ("const float *m = aug + b * 512; float s = 0;\n"
                 "    for (int k = 0; k < 16; k++) {\n#pragma omp parallel for reduction(+: s)\n"
                 "      for (int e = 0; e < 512; e++) s += m[e] * k;\n    }")
    found = remarks(tmp_path, iteration)
    assert len(found) == 1 and "stored back" not in found[0]


MISSED = "left in global memory, "


def missed(tmp_path: Path, iteration: str) -> list[str]:
    src = tmp_path / "s.c"
    remarks(tmp_path, iteration)   # writes s.c
    return [r.split(MISSED, 1)[1] for r in translate(str(src), Options()).remarks if MISSED in r]


@pytest.mark.parametrize("iteration, why", [
    # another array: it might alias the segment
    ("float *m = aug + b * 512;" + SWEEPS + "\n    other[b] = m[0];", "'other[b]' reaches other memory"),
    ("float *m = aug + b * 512;" + SWEEPS + "\n    m[0] = aug[0];", "'aug[0]' reaches other memory"),
    # a subscript that may leave the segment, one the compiler cannot bound
    ("float *m = aug + b * 512;" + SWEEPS.replace("m[e] = m[e]", "m[e + 1] = m[e]"), "may reach 1 to 512, outside the segment's 0 to 511"),
    ("float *m = aug + b * 512; int w = b & 7;" + SWEEPS.replace("m[e] = m[e]", "m[e] = m[w]"), "the subscript of 'm[w]' is not bounded"),
    # a segment shared between teams (b * 256 with 512 elements reached)
    ("float *m = aug + b * 256;" + SWEEPS, "outside the segment's 0 to 255"),
    # the segment's address escapes, a local pointer, a way out of the iteration
    ("float *m = aug + b * 512; float *q = m;" + SWEEPS, "the local pointer 'q'"),
    ("float *m = aug + b * 512;" + SWEEPS + "\n    *m = 1;", "'*m' reaches memory through a pointer"),
    ("float *m = aug + b * 512;" + SWEEPS + "\n    { long z = (long)(m + 1); m[1] = (float)z; }", "'m' used other than subscripted"),
    ("float *m = aug + b * 512; if (b == 3) continue;" + SWEEPS, "a 'continue' that ends the iteration"),
    # a loop variable that the loop's body changes
    ("float *m = aug + b * 512;\n    for (int k = 0; k < 16; k++) {\n#pragma omp parallel for\n"
     "      for (int e = 0; e < 512; e++) m[e] += m[k];\n      k += 100;\n    }", "the subscript of 'm[k]' is not bounded"),
    # too little reuse to pay for the copy
    ("float *m = aug + b * 512;\n#pragma omp parallel for\n    for (int e = 0; e < 512; e++) m[e] *= 2;",
     "about 1.0 times, fewer than the 4"),
])
def test_iterations_that_may_not_or_need_not_stage_say_why(tmp_path, iteration, why):
    assert remarks(tmp_path, iteration) == ()
    found = missed(tmp_path, iteration)
    assert len(found) == 1 and why in found[0], found


def test_a_task_in_the_iteration_leaves_the_segment_in_global_memory(tmp_path):
    """(Such a kernel is not lean SPMD: the staging is not asked.)"""
    assert remarks(tmp_path, "float *m = aug + b * 512;\n    for (int k = 0; k < 16; k++) {\n#pragma omp task\n"
                             "      m[k] += 1;\n    }") == ()


def test_an_offset_that_is_not_per_team_is_no_segment(tmp_path):
    assert remarks(tmp_path, "float *m = aug + 512;" + SWEEPS) == ()
    assert missed(tmp_path, "float *m = aug + 512;" + SWEEPS) == []


def test_generic_mode_leaves_the_segment_in_global_memory(tmp_path):
    assert remarks(tmp_path, "float *m = aug + b * 512;" + SWEEPS, mode="generic") == ()
