"""The caps on the work a small input can ask for (issue 43, item 1), each checked before the
work, so a 5 KB snapshot cannot make prio expand half a billion asks nor a 1 MB ConfigMap unpack
to gigabytes. One line naming the input, exit 2, when an input passes one; each default allows
the largest real clusters, and an environment variable raises it for the run:

| cap | default | environment |
| --- | --- | --- |
| asks (and pods) of every snapshot, REST answer and pod list of a run, counts expanded; a Volcano file's pods | 2,000,000 | PRIO_MAX_ASKS |
| jobs of a scenario, counts expanded | 100,000 | PRIO_MAX_JOBS |
| objects of one kind read from a cluster or a server (nodes, applications, queues), a backend's objects of a run (a Volcano file's besides its pods) | 2,000,000 | PRIO_MAX_OBJECTS |
| bytes a ConfigMap's binaryData unpacks to | 16 MiB | PRIO_MAX_UNPACKED_BYTES |
| bytes of a snapshot, REST answer, pod list (any input but a config), kubectl's output | 1 GiB | PRIO_MAX_INPUT_BYTES |
| bytes of a config file | 16 MiB | PRIO_MAX_CONFIG_BYTES |
| bytes of one YuniKorn server answer (prio.io.http; its parsed size in proportion) | 256 MiB | PRIO_MAX_RESPONSE_BYTES |

Totals are over every input of the run (several snapshots, pod lists and --kube merge into one
analysis): a loader is told how many earlier inputs gave (`already`). docs/security.md states
them; a value that is not a whole number above 0 is refused."""
from __future__ import annotations

import os

from prio.errors import InputError


class Cap:
    """One cap: the environment variable that raises it, its default, and what it counts. A plain
    class, not a frozen dataclass: every prio process imports this module, and making the
    dataclass cost about 4 M instructions of each start (issue 50's round)."""

    __slots__ = ("env", "default", "what")

    def __init__(self, env: str, default: int, what: str) -> None:
        self.env = env
        self.default = default
        self.what = what  # what is counted, in messages ("asks", "bytes")

    def __repr__(self) -> str:
        return f"Cap({self.env!r}, {self.default!r}, {self.what!r})"

    def value(self) -> int:
        """The cap for this run: the environment's, else the default."""
        raw = os.environ.get(self.env, "").strip().replace("_", "")
        if not raw:
            return self.default
        if not raw.isdigit() or int(raw) < 1 or len(raw) > 19:
            raise InputError(self.env, f"must be a whole number above 0, not {os.environ[self.env]!r}")
        return int(raw)

    def exceeded(self, found: int, of: str = "", what: str | None = None) -> str:
        """The message for `found` over the cap (`of`: what holds them, "in total"; `what`: the
        things counted when they are not the cap's own, "pods" of the asks cap)."""
        return (f"{found} {what or self.what}{f' {of}' if of else ''}, more than prio reads ({self.value()}); "
                f"{self.env}=N raises the cap")

    def check(self, name: str, found: int, of: str = "", what: str | None = None) -> None:
        """InputError naming the input `name` when `found` is over the cap (before the work)."""
        if found > self.value():
            raise InputError(name, self.exceeded(found, of, what))


def in_total(already: int) -> str:
    """How a total over several inputs is said: the earlier inputs' part named when there is one."""
    return f"in total with the {already} of the inputs before it" if already else "in total"


ASKS = Cap("PRIO_MAX_ASKS", 2_000_000, "asks")
JOBS = Cap("PRIO_MAX_JOBS", 100_000, "jobs")
OBJECTS = Cap("PRIO_MAX_OBJECTS", 2_000_000, "objects")
UNPACKED_BYTES = Cap("PRIO_MAX_UNPACKED_BYTES", 16 * 1024 * 1024, "bytes")
INPUT_BYTES = Cap("PRIO_MAX_INPUT_BYTES", 1024 * 1024 * 1024, "bytes")
CONFIG_BYTES = Cap("PRIO_MAX_CONFIG_BYTES", 16 * 1024 * 1024, "bytes")
RESPONSE_BYTES = Cap("PRIO_MAX_RESPONSE_BYTES", 256 * 1024 * 1024, "bytes")
