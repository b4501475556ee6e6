"""`kubectl prio`: the kubectl plugin. kubectl runs any `kubectl-NAME` on PATH as `kubectl NAME`,
so the wheel's `kubectl-prio` script makes prio a kubectl command. It is prio with one default
changed: the commands that read a cluster (explain, simulate, preempt, snapshot, diff) read the
one of your kubeconfig (--kube) unless told otherwise (--yunikorn, --sample, or --help), and
`kubectl prio why POD` answers `prio explain --kube --why-ask POD`. Everything else (validate,
rule, --version) is prio's as it is. kubectl passes every argument after `prio` through, its own
global flags included, so `--context` and `--namespace` are prio's here."""
from __future__ import annotations

import sys

CLUSTER_COMMANDS = ("explain", "simulate", "preempt", "snapshot", "diff")
# Options that choose another source, or ask for help: then the command is left as it is.
_OTHER_SOURCE = ("--yunikorn", "--sample", "--help", "-h", "--kube")


def prio_args(args: list[str]) -> list[str]:
    """The prio command line `kubectl prio ARGS` stands for."""
    if args[:1] == ["why"]:
        if len(args) < 2 or args[1].startswith("-"):
            return ["explain", "--kube", "--why-ask"]  # prio says the option needs its POD
        return ["explain", "--kube", "--why-ask", args[1], *args[2:]]
    if args[:1] and args[0] in CLUSTER_COMMANDS and not any(a.split("=", 1)[0] in _OTHER_SOURCE for a in args[1:]):
        return [args[0], "--kube", *args[1:]]
    return list(args)


def main() -> None:
    sys.argv = ["kubectl prio", *prio_args(sys.argv[1:])]
    from prio.cli.entry import main as prio_main

    prio_main()
