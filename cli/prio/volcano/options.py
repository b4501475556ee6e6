"""Volcano's own options (issue 47: a backend declares its options), as data (prio.optspec): the
commands name them by their names where they take them (prio.cli.analysis_options.SHARED holds
every backend's, through prio.backends), and with other inputs they are refused in one line."""
from __future__ import annotations

from prio.optspec import Opt

OPTIONS = (
    Opt("why_job", ("--why-job",), "Volcano inputs: why this job (its PodGroup, NAMESPACE/NAME) is pending or where it runs: "
                                   "each action's and plugin's verdict, Volcano's own messages, what happened to it.", metavar="NS/NAME"),
)

# where the commands take them: explain's questions ("why")
GROUPS = {"why": ("why_job",)}
