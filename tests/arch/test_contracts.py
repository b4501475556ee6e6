"""The layers and independences of pyproject.toml's [tool.importlinter], as tests: import-linter
checks every import (those inside functions included), and every top-level package or module of
prio must be named by some contract, so a new one cannot escape them."""
from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT

PYPROJECT = os.path.join(ROOT, "pyproject.toml")
PKG = os.path.join(ROOT, "cli", "prio")

_LINT = ("import sys\n"
         "from importlinter.cli import lint_imports\n"
         "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True))\n")


def test_import_contracts_are_kept():
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "cli"), NO_COLOR="1", COLUMNS="120")
    r = subprocess.run([sys.executable, "-c", _LINT, PYPROJECT], cwd=ROOT, env=env, capture_output=True, text=True)
    assert r.returncode == 0, f"import-linter (exit {r.returncode}):\n{r.stdout}\n{r.stderr}"


def _named_in_contracts() -> set:
    from importlinter.api import read_configuration

    names = set()
    for c in read_configuration(PYPROJECT)["contracts_options"]:
        containers = c.get("containers") or [""]
        containers = [containers] if isinstance(containers, str) else containers
        for layer in c.get("layers") or []:
            for tail in layer.replace(":", "|").split("|"):
                tail = tail.strip().strip("()").strip()
                names.update(f"{k}.{tail}" if k else tail for k in containers)
        for key in ("modules", "source_modules", "forbidden_modules"):
            v = c.get(key) or []
            names.update([v] if isinstance(v, str) else v)
    return names


def test_every_top_level_package_is_in_a_contract():
    tops = set()
    for entry in os.listdir(PKG):
        path = os.path.join(PKG, entry)
        if entry.endswith(".py") and entry != "__init__.py":
            tops.add("prio." + entry[:-3])
        elif os.path.isfile(os.path.join(path, "__init__.py")):
            tops.add("prio." + entry)
    assert {"prio.cli", "prio.yunikorn", "prio.diagnostics"} <= tops
    missing = sorted(tops - _named_in_contracts())
    assert not missing, f"not in any [tool.importlinter] contract of pyproject.toml: {', '.join(missing)}"


def _contract(cid: str) -> dict:
    from importlinter.api import read_configuration

    return next(c for c in read_configuration(PYPROJECT)["contracts_options"] if c.get("id") == cid)


def test_every_module_of_a_slice_is_core_or_edge():
    """Each scheduler's slice (prio.armada, prio.kueue, prio.volcano, prio.yunikorn): every module
    of it is either in its core (backend-cores' source modules, held pure) or is one of its edges
    (backend-cores' forbidden modules, or under one of them), so a new module cannot escape the
    pure-core check by being named in neither list."""
    cores = _contract("backend-cores")
    core = set(cores["source_modules"])
    edges = {m for m in cores["forbidden_modules"] if m.count(".") > 1}
    assert set(_contract("pure-core")["source_modules"]) >= core
    loose = []
    for slice_ in ("armada", "kueue", "volcano", "yunikorn"):
        base = os.path.join(PKG, slice_)
        for dirpath, _, files in os.walk(base):
            for f in files:
                if not f.endswith(".py"):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), PKG)[:-3].replace(os.sep, ".")
                mod = "prio." + rel.removesuffix(".__init__")
                if mod == f"prio.{slice_}":
                    continue
                if not any(mod == m or mod.startswith(m + ".") for m in core | edges):
                    loose.append(mod)
    assert not loose, f"neither core nor edge in pyproject's backend-cores: {', '.join(sorted(loose))}"
