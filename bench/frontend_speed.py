"""Front-end speed benchmark (issue 2: parse a 5,000-line C file in under 2 s).

Synthesises a deterministic C file of N lines (default 5000) made of many functions with
target regions, loops, structs and clauses, then times `ompgpu cc -fsyntax-only` on it
in-process (preprocessing with real headers included). Prints lines, seconds and lines/s.

    python bench/frontend_speed.py [--lines 5000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from ompgpu.cli import main as ompgpu_main

HEADER = """#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <stdint.h>
#include <stdbool.h>
#include <omp.h>
struct point { double x, y, z; int tag; };
"""

FUNCTION = """
static double kernel_{i}(int n, double *restrict a, const double *b, struct point *pts) {{
  double sum = 0.0;
  int count = 0;
  #pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: b[0:n]) \\
      reduction(+: sum) num_teams(64) thread_limit(128)
  for (int i = 0; i < n; i++) {{
    double t = a[i] * b[i] + {i}.0;
    a[i] = t > 0 ? sqrt(t) : -t;
    sum += a[i];
  }}
  #pragma omp target map(tofrom: pts[0:n]) map(tofrom: count)
  {{
    int local[16];
    for (int k = 0; k < 16; k++) local[k] = k * {i};
    #pragma omp parallel for schedule(dynamic, 4) num_threads(64)
    for (int i = 0; i < n; i++) {{
      pts[i].x += local[i % 16] * 0.5;
      pts[i].y = pts[i].x * pts[i].z;
      if (pts[i].tag == {i}) {{
        #pragma omp atomic
        count++;
      }}
    }}
  }}
  for (int i = 0; i < n; i++) {{
    switch (i % 3) {{
      case 0: sum += a[i]; break;
      case 1: sum -= b[i]; break;
      default: sum *= 1.0001;
    }}
  }}
  return sum + count;
}}
"""


def make_source(lines: int) -> str:
    parts = [HEADER]
    i = 0
    while sum(p.count("\n") for p in parts) < lines:
        parts.append(FUNCTION.format(i=i))
        i += 1
    parts.append("int main(void) { return 0; }\n")
    return "".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    src = make_source(args.lines)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.c"
        path.write_text(src)
        n = src.count("\n")
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            rc = ompgpu_main(["cc", "-fsyntax-only", str(path)])
            times.append(time.perf_counter() - t0)
            assert rc == 0
        best = min(times)
        print(f"{n} lines: best {best:.2f} s of {args.repeat} ({n / best:.0f} lines/s); all: "
              + ", ".join(f"{t:.2f}" for t in times))


if __name__ == "__main__":
    main()
