"""YuniKorn's own options (issue 47: a backend declares its options), as data (prio.optspec):
the commands name them by their names where they take them (prio.cli.analysis_options.SHARED
holds every backend's, through prio.backends). Unlike the other rows', they are not refused by
name with other inputs: the registry's default row reads the inputs no other row claims, and
each other backend refuses the ones that do not apply to it in its own words (its `refused`).
--yunikorn and --kube are where inputs come from, not options of inputs."""
from __future__ import annotations

from prio.optspec import Opt
from prio.yunikorn import releases

OPTIONS = (
    Opt("partition", ("--partition",), "The partition (default: the snapshot's, else default).", metavar="NAME"),
    Opt("priority_classes", ("--priority-classes",), "PriorityClass manifests: resolve priorityClassName, and show the range "
                                                     "each class maps to per queue.", multiple=True, metavar="FILE"),
    # Reading a running YuniKorn (explain, simulate, snapshot, preempt, diff).
    Opt("yunikorn", ("--yunikorn",), "Read the config, queues, applications and nodes from a running YuniKorn's REST API "
                                     "(read-only, GET only), e.g. http://localhost:9080. Default from PRIO_YUNIKORN_URL when no "
                                     "input files are given.", metavar="URL"),
    Opt("header", ("--header",), "With --yunikorn: an HTTP header to send (repeatable), e.g. 'Authorization: Bearer TOKEN'. "
                                 "PRIO_YUNIKORN_HEADER adds headers too (one per line), so a token stays out of shell history.",
        multiple=True, metavar="'NAME: VALUE'"),
    Opt("cacert", ("--cacert",), "With an https:// --yunikorn: the CA bundle (PEM) to verify the server with (default from "
                                 "PRIO_YUNIKORN_CACERT). TLS is always verified.", metavar="FILE"),
    Opt("timeout", ("--timeout",), "With --yunikorn: seconds to wait to connect, for each read and for a response's "
                                   "headers; a response gets 10 times as long, the whole run 30 times (default 10, or "
                                   "PRIO_YUNIKORN_TIMEOUT).", type=float, min=0.001, metavar="SECONDS"),
    # Reading a cluster through the user's kubectl (explain, simulate, preempt, snapshot, diff; prio.cli.kube).
    Opt("kube", ("--kube",), "Read the cluster of your kubeconfig through kubectl (read-only, get only): YuniKorn's "
                             "ConfigMaps, the pods (YuniKorn's, and the room other schedulers' pods take), the nodes, "
                             "the PriorityClasses. kubectl prio turns it on.", type=bool,
        default=False),
    Opt("context", ("--context",), "With --kube: the kubeconfig context to read (default: kubectl's current one).", metavar="NAME"),
    Opt("namespace", ("--yunikorn-namespace",), "With --kube: the namespace of YuniKorn's ConfigMaps (default yunikorn).",
        metavar="NS"),
    # the option's first spelling: kubectl users read -n/--namespace as the pods' namespace, so
    # it is hidden and said to be renamed when used
    Opt("namespace_old", ("--namespace",), "With --kube: the old spelling of --yunikorn-namespace.", metavar="NS", hidden=True),
    # The YuniKorn release whose rules apply (issue 46; prio.yunikorn.releases): validate's too.
    Opt("yunikorn_version", ("--yunikorn-version",), f"The YuniKorn release to judge for: {', '.join(releases.NAMES)} (a patch "
                                                      f"such as 1.6.3 is its minor). Default: the newest ({releases.NEWEST.name}), or "
                                                      "PRIO_YUNIKORN_VERSION.", envvar="PRIO_YUNIKORN_VERSION", metavar="X.Y"),
    # Which engine schedules (yunikorn/engine.ENGINES): for debugging and bug reports, so hidden.
    Opt("engine", ("--engine",), "The engine that schedules: auto (the fast ones where they support the input), fast, "
                                 "or reference (YuniKorn's rules as written, slow).", choices=("auto", "fast", "reference"),
        envvar="PRIO_ENGINE", hidden=True),
    # the questions explain answers
    Opt("queue", ("--queue",), "Only this queue's subtree.", metavar="PATH"),
    Opt("why", ("--why",), "Explain how this queue's priority was derived.", metavar="QUEUE"),
    Opt("why_ask", ("--why-ask",), "Why this ask waits where it does (an ask id, or APP/ASK): its step in the simulated order, "
                                   "and the decisive comparison with the ask placed before it.", metavar="ASK"),
    Opt("behind", ("--behind",), "With --why-ask: compare with this ask instead of the one placed just before.", metavar="ASK"),
    Opt("pending", ("--pending",), "Why asks stay pending: each reason code with how many asks, per queue, and the first few "
                                   "(--limit N of them; 3 by default).", type=bool, default=False),
    # how simulate runs, and preempt's one ask
    Opt("steps", ("--steps",), "Stop after this many steps.", type=int, min=0, metavar="N"),
    Opt("no_preemption", ("--no-preemption",), "With nodes: leave YuniKorn's preemption out of the order (an ask "
        "that finds no room waits, as if the partition's preemption were off).", type=bool, default=False),
    Opt("ask", ("--ask",), "Only this ask (an ask id, or APP/ASK).", metavar="ID"),
)
