"""The `prio` console script and `python -m prio`: `prio --version` answers before anything is
imported (pre-commit and CI call it); `prio validate ...` (pre-commit's hook) and the analysis
commands are parsed without typer when prio.cli.fastpath can read their arguments exactly
(PRIO_NO_FAST_PATH=1: never);
everything else goes to the typer app (prio.cli.app). Both streams are wrapped first, so a reader
that stops early (`| head`, `| true`) never changes the exit code (prio.cli.pipes)."""
from __future__ import annotations

import os
import sys


def main() -> None:
    from prio.cli import pipes

    pipes.install()  # a closed stdout or stderr never decides the exit code (prio.cli.pipes)
    if sys.argv[1:] in (["--version"], ["-V"]):  # no typer, no app: the floor is `python -c pass`
        from prio import __version__

        sys.stdout.write(f"prio {__version__}\n")
        sys.stdout.flush()
        return
    if len(sys.argv) > 1 and not os.environ.get("PRIO_NO_FAST_PATH"):
        from prio.cli import fastpath

        if sys.argv[1] in fastpath.COMMANDS:
            fastpath.main(sys.argv[1], sys.argv[2:])  # exits, unless typer must read these arguments
    from prio.cli import lifetime
    from prio.cli.app import main as app_main

    lifetime.ACTIVE = True  # this process is prio's own: big runs may end without freeing (lifetime.py)
    app_main()
