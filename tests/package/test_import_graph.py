"""The package's import graph: no module imports itself back through others at load time, and
every module imports alone in a fresh interpreter (no hidden order dependence)."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "ompgpu"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if p.name != "__main__.py"}


def load_time_imports(name: str, path: Path) -> set[str]:
    """The ompgpu modules `name` imports when it is loaded (module level, not inside functions).
    Importing a module also loads its packages' __init__ modules."""
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        for t in targets:
            parts = t.split(".")
            for i in range(1, len(parts) + 1):
                candidate = ".".join(parts[:i])
                if candidate in MODULES and candidate != name:
                    found.add(candidate)
    return found


def test_no_import_cycle():
    graph = {name: load_time_imports(name, path) for name, path in MODULES.items()}
    # A package's __init__ is loaded before its submodules: a submodule importing its own
    # package is not a cycle.
    for name in graph:
        graph[name] = {d for d in graph[name] if not name.startswith(d + ".")}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> None:
        state[n] = 1
        stack.append(n)
        for d in sorted(graph[n]):
            if state.get(d) == 1:
                cycle = stack[stack.index(d):] + [d]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if d not in state:
                visit(d)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_imports_alone(name):
    proc = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True, text=True,
                          cwd=PACKAGE.parent)
    assert proc.returncode == 0, proc.stderr
