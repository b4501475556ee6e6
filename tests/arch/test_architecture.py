"""The package's shape, as tests: the core imports no I/O or presentation library, and no module
imports (even lazily, inside a function) a module that imports it back."""
from __future__ import annotations

import ast
import os
import subprocess
import sys

from conftest import ROOT

PKG = os.path.join(ROOT, "cli", "prio")

# The pure core: model, engines, rules. Loaders, renderers and the typer app are the edges.
CORE = ("prio.yunikorn.engine", "prio.yunikorn.explain", "prio.yunikorn.diff", "prio.yunikorn.reasons", "prio.yunikorn.tree", "prio.yunikorn.config",
        "prio.yunikorn.snapshot", "prio.kube.priorityclass", "prio.armada.analysis", "prio.lint.rules",
        "prio.lint.registry", "prio.yunikorn.preemption", "prio.yunikorn.resources", "prio.armada.current.fairness", "prio.armada.current.round",
        "prio.yunikorn.gosort", "prio.yunikorn.placement", "prio.yunikorn.tieorder", "prio.yunikorn.classranges",
        "prio.lint.schemacheck", "prio.values", "prio.suggest", "prio.io.document", "prio.io.recognise")
EDGE_LIBRARIES = ("yaml", "rich", "typer", "tabulate", "jsonschema", "click", "pydantic")


def _modules() -> dict[str, str]:
    out = {}
    for dirpath, _dirs, files in os.walk(PKG):
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(dirpath, f), os.path.dirname(PKG))[:-3].replace(os.sep, ".")
                out[rel[: -len(".__init__")] if rel.endswith(".__init__") else rel] = os.path.join(dirpath, f)
    return out


def _imports(name: str, path: str, known: set) -> set:
    """Every prio module `name` imports, at the top or inside a function."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    package = name if path.endswith("__init__.py") else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            for a in node.names:
                found.add(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base)
    return {m for m in found if m in known and m != name}


def test_no_import_cycles():
    mods = _modules()
    known = set(mods)
    graph = {m: _imports(m, p, known) for m, p in mods.items()}
    # A package's __init__ importing its own submodules is not a cycle of concepts.
    cycles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if m.startswith(n + ".") or n.startswith(m + "."):
                continue
            if state.get(n) == 1:
                cycles.append(stack[stack.index(n):] + [n])
            elif n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_core_imports_no_edge_library():
    code = ("import sys\n"
            f"for m in {CORE!r}: __import__(m)\n"
            "from prio.lint.rules import load_all; load_all()\n"
            f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {EDGE_LIBRARIES!r})\n"
            "print(','.join(bad))\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "cli"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "", f"the core loads {out.stdout.strip()}"


def test_only_the_cli_package_imports_typer():
    mods = _modules()
    offenders = []
    for m, p in mods.items():
        if m.startswith("prio.cli"):
            continue
        tree = ast.parse(open(p, encoding="utf-8").read())
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(n.split(".")[0] in ("typer", "click") for n in names):
                offenders.append(m)
    assert not offenders, offenders
