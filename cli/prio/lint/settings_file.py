"""Where the `.prio.yaml` (or `.prio.yml`) is: the search prio.lint.settings describes, in a module
of its own so that a run finding none (explain and simulate, where the file may only name a
yunikornVersion) does not import the settings' reader and its classes."""
from __future__ import annotations

import os

CONFIG_NAMES = (".prio.yaml", ".prio.yml")


def repository_root(start: str | None = None) -> str | None:
    """The first directory from `start` (the working directory) upward that holds `.git`."""
    d = os.path.abspath(start or os.getcwd())
    while True:
        if os.path.lexists(os.path.join(d, ".git")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def find(start: str | None = None) -> str | None:
    """The nearest `.prio.yaml` (or `.prio.yml`) from `start` (the working directory) upward, up
    to the repository root; outside a repository, in `start` alone."""
    d = os.path.abspath(start or os.getcwd())
    root = repository_root(d) or d
    while True:
        for name in CONFIG_NAMES:
            p = os.path.join(d, name)
            if os.path.isfile(p):
                return p
        parent = os.path.dirname(d)
        if d == root or parent == d:
            return None
        d = parent
