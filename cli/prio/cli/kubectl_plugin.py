"""`kubectl prio`: the kubectl plugin. kubectl runs any `kubectl-NAME` on PATH as `kubectl NAME`,
so the wheel's `kubectl-prio` script makes prio a kubectl command. It is prio with one default
changed: the commands that read a cluster (explain, simulate, preempt, snapshot, diff) read the
one of your kubeconfig (--kube) unless told otherwise (--yunikorn, --sample, or --help), and
`kubectl prio why POD [-n NAMESPACE]` (or `why NAMESPACE/POD`) answers
`prio explain --kube --why-ask NAMESPACE/POD`. Everything else (validate, rule, --version) is
prio's as it is. kubectl passes every argument after `prio` through, its own global flags
included: `--context` is prio's here, and `-n`/`--namespace` is the pod's namespace, as kubectl
users type it (YuniKorn's own namespace is `--yunikorn-namespace`)."""
from __future__ import annotations

import sys

CLUSTER_COMMANDS = ("explain", "simulate", "preempt", "snapshot", "diff")
# Options that choose another source, or ask for help: then the command is left as it is.
_OTHER_SOURCE = ("--yunikorn", "--sample", "--help", "-h", "--kube")
WHY_HELP = """Usage: kubectl prio why POD [-n NAMESPACE] [OPTIONS]
       kubectl prio why NAMESPACE/POD [OPTIONS]

  Why is this pod waiting? The pod's place in the order YuniKorn schedules the cluster's
  pending pods (read through your kubectl: YuniKorn's ConfigMaps, the pods, nodes and
  PriorityClasses), the pod placed before it and the rule that put it there; for a pod that
  is never placed, why (no queue admits it, no node passes its predicates, a limit); for a
  running pod, where it runs. The same as `prio explain --kube --why-ask NAMESPACE/POD`.

Options:
  -n, --namespace NAMESPACE   the pod's namespace (as kubectl takes it)
  --behind OTHER              compare with another pending pod instead of the one placed before
  --context NAME              the kubeconfig context to read
  --yunikorn-namespace NS     where YuniKorn's ConfigMaps are (default yunikorn)
  -o, --output FORMAT         text (default) or json
  -h, --help                  this help
"""


def _why(args: list[str]) -> list[str] | None:
    """`why ...` as prio explain arguments; None after printing the help."""
    rest, pod, ns = [], None, None
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-h", "--help"):
            sys.stdout.write(WHY_HELP)
            return None
        if a in ("-n", "--namespace") and i + 1 < len(args):
            ns, i = args[i + 1], i + 2
            continue
        if a.startswith("--namespace="):
            ns, i = a.split("=", 1)[1], i + 1
            continue
        if a.startswith("-n") and len(a) > 2:
            ns, i = a[2:], i + 1
            continue
        if not a.startswith("-") and pod is None:
            pod, i = a, i + 1
            continue
        rest.append(a)
        i += 1
    if pod is None:
        return ["explain", "--kube", "--why-ask", *rest]  # prio says the option needs its POD
    if ns is not None and "/" not in pod:
        pod = f"{ns}/{pod}"
    return ["explain", "--kube", "--why-ask", pod, *rest]


def prio_args(args: list[str]) -> list[str] | None:
    """The prio command line `kubectl prio ARGS` stands for (None: answered already)."""
    if args[:1] == ["why"]:
        return _why(args[1:])
    if args[:1] and args[0] in CLUSTER_COMMANDS and not any(a.split("=", 1)[0] in _OTHER_SOURCE for a in args[1:]):
        return [args[0], "--kube", *args[1:]]
    return list(args)


def main() -> None:
    args = prio_args(sys.argv[1:])
    if args is None:
        return
    sys.argv = ["kubectl prio", *args]
    if args in ([], ["--help"], ["-h"]):
        from prio.cli.app import PLUGIN_EPILOG, set_plugin_help

        set_plugin_help(PLUGIN_EPILOG)
    from prio.cli.entry import main as prio_main

    prio_main()
