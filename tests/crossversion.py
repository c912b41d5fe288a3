"""Same input, same output, whatever release of pycparser, lark and jinja2 is installed.

`python3 tests/crossversion.py emit DIR` translates every run-and-check program and
benchmark (front end, planner and code generation, in both execution modes) and writes
the host C and device CUDA it produces to DIR. `python3 tests/crossversion.py compare A B`
fails, naming the files, when two such folders differ. CI emits once with the newest
dependencies and once with the oldest that pyproject allows, and compares the two.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "tests" / "programs").glob("*.c")) + sorted((ROOT / "bench").glob("*/*.c"))


def emit(out: Path) -> int:
    from ompgpu.driver import translate
    from ompgpu.errors import OmpgpuError
    from ompgpu.options import Options

    out.mkdir(parents=True, exist_ok=True)
    for src in SOURCES:
        for mode in ("auto", "generic"):
            stem = f"{src.parent.name}-{src.stem}-{mode}"
            try:
                t = translate(str(src.relative_to(ROOT)), Options(inputs=[str(src)], mode=mode, offload="emu"))
            except OmpgpuError as exc:  # a program that must be rejected: its message is its output
                (out / f"{stem}.error").write_text(exc.render() + "\n")
                continue
            (out / f"{stem}.host.c").write_text(t.host_c, encoding="utf-8", errors="surrogateescape")
            (out / f"{stem}.device.cu").write_text(t.device_cu or "", encoding="utf-8", errors="surrogateescape")
    print(f"emitted {len(SOURCES)} programs x 2 modes into {out}")
    return 0


def compare(a: Path, b: Path) -> int:
    names = sorted({p.name for p in a.iterdir()} | {p.name for p in b.iterdir()})
    differ = [n for n in names if not (a / n).exists() or not (b / n).exists()
              or (a / n).read_bytes() != (b / n).read_bytes()]
    for n in differ:
        print(f"differs: {n}")
    print(f"{len(names) - len(differ)} of {len(names)} generated files identical")
    return 1 if differ else 0


def main(argv: list[str]) -> int:
    import os

    paths = [Path(p).resolve() for p in argv[1:]]
    os.chdir(ROOT)  # coordinates in the output are relative to the repository
    if len(argv) == 2 and argv[0] == "emit":
        return emit(paths[0])
    if len(argv) == 3 and argv[0] == "compare":
        return compare(paths[0], paths[1])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
