"""Options explain and simulate share, declared once (typer only: keep --help fast)."""
from __future__ import annotations

import typer

from prio.cli.color import Color, use_color  # noqa: F401 - typer-free, re-exported for the commands
from prio.render.formats import help_text


INPUTS = typer.Argument(None, metavar="INPUT", help="Queue config, snapshot, REST dumps, kubectl pod lists, PriorityClasses, an Armada scenario, in any order (recognised by content). None: the bundled walkthrough.")
SAMPLE = typer.Option(None, "--sample", metavar="NAME", help="Use a bundled sample: walkthrough (the default), batch, mistakes, yunikorn-configs, priorityclasses, pods, preemption, armada-current, armada-scenario, armada-reports (an unknown name lists them all).")
OUTPUT = typer.Option(None, "-o", "--output", metavar="FORMAT", help=help_text("explain", "Default from PRIO_OUTPUT"))
COLOR = typer.Option(Color.auto, "--color", case_sensitive=False, envvar="PRIO_COLOR", help="Colour the table output (auto: on a terminal, unless NO_COLOR is set; default from PRIO_COLOR).")
OUTPUT_FILE = typer.Option(None, "--output-file", metavar="PATH", help="Write the report to PATH instead of standard output (never coloured; plain unless -o says otherwise).")
PARTITION = typer.Option(None, "--partition", metavar="NAME", help="The partition (default: the snapshot's, else default).")
PRIORITY_CLASSES = typer.Option([], "--priority-classes", metavar="FILE", help="PriorityClass manifests: resolve priorityClassName, and show the range each class maps to per queue.")
ARMADA_DECAY = typer.Option("code", "--armada-decay", metavar="code|document", help="Armada scenarios: code (true half-life, default) or document (the doc's formula).")
ARMADA_WEIGHTING = typer.Option("current", "--armada-weighting", metavar="current|legacy", help="Armada scenarios: current (unknown resources weigh 0) or legacy (1).")
ARMADA_MODEL = typer.Option(None, "--armada-model", metavar="current|legacy", help="Armada scenarios: current (DRF fair share, the default) or legacy (usage decay, up to 2022); a scenario's scheduler: field says the same.")
VERBOSE = typer.Option(False, "-v", "--verbose", help="Say what each input was recognised as.")
# Reading a running YuniKorn (explain, simulate, snapshot; preempt and diff reuse them).
YUNIKORN = typer.Option(None, "--yunikorn", metavar="URL", help="Read the config, queues, applications and nodes from a running YuniKorn's REST API (read-only, GET only), e.g. http://localhost:9080. Default from PRIO_YUNIKORN_URL when no input files are given.")
YUNIKORN_DIFF = typer.Option(None, "--yunikorn", metavar="URL", help="Compare OLD and NEW on the pending work of a running YuniKorn (read-only, GET only); OLD or NEW may be the word live: the config the server runs. PRIO_YUNIKORN_URL stands in when OLD or NEW is live and no INPUT is given.")
HEADER = typer.Option([], "--header", metavar="'NAME: VALUE'", help="With --yunikorn: an HTTP header to send (repeatable), e.g. 'Authorization: Bearer TOKEN'. PRIO_YUNIKORN_HEADER adds headers too (one per line), so a token stays out of shell history.")
CACERT = typer.Option(None, "--cacert", metavar="FILE", help="With an https:// --yunikorn: the CA bundle (PEM) to verify the server with (default from PRIO_YUNIKORN_CACERT). TLS is always verified.")
TIMEOUT = typer.Option(None, "--timeout", min=0.001, metavar="SECONDS", help="With --yunikorn: seconds to wait to connect and for each read (default 10, or PRIO_YUNIKORN_TIMEOUT).")
