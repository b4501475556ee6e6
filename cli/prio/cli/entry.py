"""The `prio` console script and `python -m prio`: `prio --version` answers before anything is
imported (pre-commit and CI call it); everything else goes to the typer app (prio.cli.app)."""
from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:] in (["--version"], ["-V"]):  # no typer, no app: the floor is `python -c pass`
        from prio import __version__

        try:
            sys.stdout.write(f"prio {__version__}\n")
            sys.stdout.flush()
        except BrokenPipeError:  # `prio --version | true`: quiet and exit 0, as every command
            from prio.cli.common import quiet_broken_pipe

            quiet_broken_pipe()
        return
    from prio.cli.app import main as app_main

    app_main()
