"""`prio explain`: the effective priority tree and the order pending asks are considered in."""
from __future__ import annotations

import sys

from prio.cli import analysis_options as shared
from prio.render.formats import names

FORMATS = names("explain")


SHORT_HELP = "Each queue's effective priority, offset and fence, and why."

HELP = """Show each queue's effective priority, offset and fence, and why."""

Options = shared.options(
    "ExplainOptions", "inputs", "sample", "output", "output_file", "color", "partition",
    "queue", "why", "why_ask",
    *shared.group("why"),
    "behind",
    "limit", "priority_classes", *shared.group("model"), "verbose", "yunikorn", "header", "cacert", "timeout", "kube", "context", "namespace", "namespace_old",
    "pending",
)


def run(o: Options) -> int:
    return shared.report(o, FORMATS, _explain)



def _explain(o: Options, fmt: str) -> int:
    """Load the inputs, refuse options that do not apply to them, and answer the one question
    asked through the inputs' backend (prio.backends; YuniKorn's: --pending, --why-ask, --why,
    or the tree and the asks)."""
    refused = _refused_together(o)
    if refused is not None:
        return refused
    from prio.cli.kube import with_cluster

    o = with_cluster(o)  # --kube: the cluster's objects as inputs
    from prio.cli.backend_run import answer, foreign_option

    # the documents kept with inp: the parsed snapshot is freed with the process
    inp, live = shared.read_inputs(o, keep_documents=True)
    refused = foreign_option(o, inp)
    if refused is not None:
        sys.stderr.write(f"prio: {refused}\n")
        return 2
    return answer("explain", o, inp, fmt, live)


def _refused_together(o: Options) -> int | None:
    """2 (said on stderr) where options that do not go together are given, before anything is
    read (a cluster, a server, a file): each question goes alone, and --behind with --why-ask.
    None where they go together."""
    if o.pending and (o.why or o.why_ask or o.queue):
        sys.stderr.write("prio: --pending goes alone (not with --why, --why-ask or --queue)\n")
        return 2
    if o.behind and not o.why_ask:
        sys.stderr.write("prio: --behind goes with --why-ask\n")
        return 2
    if o.why_ask and (o.why or o.queue):
        sys.stderr.write("prio: --why-ask goes alone (not with --why or --queue)\n")
        return 2
    return None
