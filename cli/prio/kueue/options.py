"""Kueue's own options (issue 47: a backend declares its options), as data (prio.optspec): the
commands name them by their names where they take them (prio.cli.analysis_options.SHARED holds
every backend's, through prio.backends), and with other inputs they are refused in one line."""
from __future__ import annotations

from prio.optspec import Opt

OPTIONS = (
    Opt("why_workload", ("--why-workload",), "Kueue inputs: why this Workload (NAMESPACE/NAME) waits or runs, in prose.",
        metavar="NS/NAME"),
)

# where the commands take them: explain's questions ("why")
GROUPS = {"why": ("why_workload",)}
