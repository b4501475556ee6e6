"""`prio explain --pending`: run the simulation and say why every ask it does not place waits."""
from __future__ import annotations

import sys


def run_pending(eng, fmt: str, limit, color: bool) -> int:
    from prio.cli.common import width
    from prio.yunikorn import reasons
    from prio.yunikorn.render import pending as pending_out

    steps = eng.run()
    asks = reasons.pending(eng)
    groups = reasons.summary(asks, first=3 if limit is None else limit)
    sys.stdout.write(pending_out.render(fmt, groups, len(steps), len(asks), width=width(), color=color))
    return 0
