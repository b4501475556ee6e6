"""The registry of scheduler backends (issue 47): one row per scheduler package, as
kube-scheduler's NewInTreeRegistry lists its plugins. A row names the package's backend module
(its `BACKEND`, the prio.backend.Backend protocol) and its lint rule modules; nothing here imports
them until a command asks (`get`, `lint_modules`), so a YuniKorn run never loads another
scheduler.

Adding a scheduler is one row here (see docs/architecture.md, "Add a scheduler"); which
documents are its own its package says by content (its `recognise` module, which
prio.io.documents asks). A leaf: it imports nothing of prio, so every layer may read the table."""
from __future__ import annotations

from importlib import import_module


class Entry:
    """One row. A plain class, not a NamedTuple: every run reads the table, and typing (which
    NamedTuple needs) is not otherwise loaded by validate's fast path."""

    __slots__ = ("name", "title", "inputs", "manifests", "module", "lint", "options", "samples", "schemas", "view", "style", "recognise", "reader", "judge")

    def __init__(self, name: str, title: str, inputs: str, manifests: str, module: str, lint: tuple,
                 options: str = "", samples: tuple = (), schemas: tuple = (), view: str = "", recognise: str = "", style: str = "", reader: str = "",
                 judge: str = ""):
        # DEFAULT's row: `inputs` and `manifests` are never said (its documents are the ones no
        # other row claims), its lint modules register first
        self.name = name  # the key prio.io.gather.Gathered.backend holds
        self.title = title
        self.inputs = inputs  # what its inputs are called in messages and help: "Kueue objects"
        self.manifests = manifests  # what validate lints of it, before "manifests": "Armada queue"
        self.module = module  # the module whose BACKEND implements prio.backend.Backend
        self.lint = lint  # its lint rule modules (each registers its checks with prio.lint.registry)
        # the module declaring the options only its inputs take (its OPTIONS, prio.optspec's Opt);
        # given with other inputs, one is refused (prio.cli.backend_run.foreign_option). DEFAULT's
        # are not refused by name: each other backend refuses those that do not apply to it in
        # its own words (its `refused`), and PRIO_ENGINE or PRIO_YUNIKORN_VERSION in the
        # environment never stops another scheduler's run
        self.options = options
        self.samples = samples  # its bundled samples (--sample NAME), each claimed by it alone (tests/arch/test_backends.py)
        # its outputs' JSON Schemas by command (schemas/NAME); a command it offers without one is a
        # gap the contract test lists
        self.schemas = schemas
        self.view = view  # its HTML report's view, a script file of its package (prio.render.html puts it in the page)
        self.style = style  # its view's own stylesheet, a file of its package (after report.css in the page's style)
        # the module that recognises its documents by content (prio.io.documents asks it: `early`,
        # `kind`, `unit_kind`, `beside`, `whole_file`, KINDS, CHECKED, LABELS, TOP_KEYS); a leaf
        # that imports nothing of prio. None for DEFAULT: its documents are the ones no row claims
        self.recognise = recognise
        # DEFAULT's alone: the module that reads the documents no row claims, file by file
        # (prio.io.gather names what it offers)
        self.reader = reader
        # DEFAULT's alone: the module whose `judge` runs, on what the reader read, the cheap
        # checks a command runs before it schedules (the loaders run no lint rule): `judge` below
        self.judge = judge


# YuniKorn's rule modules, in the order validate registers them. `checks` registers what validate
# checks of its documents.
YUNIKORN_LINT = tuple(f"prio.yunikorn.lint.{m}" for m in (
    "checks", "decoding", "structure", "resources", "limits", "acl", "placement", "nodesort", "properties", "priority",
    "preemption", "priorityclass", "crosscheck", "gangs", "configmap", "upgrade"))

# The default row first: YuniKorn's, the backend of the inputs no other row claims by content.
DEFAULT = Entry("yunikorn", "YuniKorn", "YuniKorn inputs", "YuniKorn queue config", "prio.yunikorn.backend", YUNIKORN_LINT,
                "prio.yunikorn.options",
                samples=("walkthrough", "priorityclasses", "pods", "preemption", "cluster", "quota", "gang"),
                schemas=(("explain", "yunikorn-explain.schema.json"), ("simulate", "yunikorn-simulate.schema.json"),
                         ("diff", "yunikorn-diff.schema.json"), ("preempt", "yunikorn-preempt.schema.json"),
                         ("snapshot", "yunikorn-snapshot.schema.json")), reader="prio.yunikorn.load.files",
                judge="prio.yunikorn.lint.judged")
REGISTRY = (
    DEFAULT,
    Entry("armada", "Armada", "an Armada scenario or queue list", "Armada queue", "prio.armada.backend", ("prio.armada.lint", "prio.armada.lint_current"),
          "prio.armada.options",
          ("armada-scenario", "armada-current", "armada-reports"), recognise="prio.armada.recognise"),
    Entry("kueue", "Kueue", "Kueue objects", "Kueue", "prio.kueue.backend", ("prio.kueue.lint",), "prio.kueue.options",
          ("kueue",), (("explain", "kueue-explain.schema.json"), ("simulate", "kueue-simulate.schema.json"),
                       ("diff", "kueue-diff.schema.json")), "view.js", "prio.kueue.recognise", "view.css"),
    Entry("volcano", "Volcano", "Volcano objects", "Volcano", "prio.volcano.backend", ("prio.volcano.lint",), "prio.volcano.options",
          ("volcano",), (("explain", "volcano-explain.schema.json"), ("simulate", "volcano-simulate.schema.json"),
                         ("diff", "volcano-diff.schema.json")), "view.js", "prio.volcano.recognise"),
)
# The rows whose inputs are claimed by content (prio.io.documents.BACKEND_OF_KIND): the
# schedulers the help names besides YuniKorn ("Armada, Kueue and Volcano").
CLAIMED = REGISTRY[1:]
BY_NAME = {e.name: e for e in REGISTRY}

YUNIKORN_RELEASES = "prio.yunikorn.releases"  # its release table: a settings file's yunikornVersion is one of its names


def yunikorn_releases():
    """YuniKorn's release table (its `get` and `NAMES`), for the layers below its slice that read a
    release's name (prio.lint.settings)."""
    return import_module(YUNIKORN_RELEASES)


def spoken(words, last: str = "and") -> str:
    """Words as a sentence lists them: "a, b and c"."""
    words = list(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1] if len(words) > 1 else "".join(words)


TITLES = spoken(e.title for e in CLAIMED)  # "Armada, Kueue and Volcano": the help's list of the schedulers besides YuniKorn


def get(name: str):
    """The backend registered as `name` (a KeyError for a name the table does not hold)."""
    return import_module(BY_NAME[name].module).BACKEND


def judge(inp, release=None, schedules: bool = True, work: bool = False):
    """What the default row's reader read (prio.io.gather.gather), judged as a command judges it
    before it runs: YuniKorn's, prio.yunikorn.lint.judged.judge (the config checked for `release`,
    None: the one a snapshot recorded, else the newest; with `work`, pending work the inputs
    promise but do not give refused). A command names the step, never the scheduler. Returns `inp`."""
    return import_module(DEFAULT.judge).judge(inp, release, schedules, work)


def declarations(entry: Entry | None = None) -> tuple:
    """The option declarations of one backend (every backend's when None), in the table's order
    (YuniKorn's first)."""
    return tuple(d for e in ((entry,) if entry else REGISTRY) if e.options for d in import_module(e.options).OPTIONS)


def group(name: str) -> tuple:
    """The names of every backend's options in one of the places a command takes them (an
    options module's GROUPS: "why" explain's questions, "run" how simulate runs, "model" which
    model reads the inputs), in the table's order: a command names the group, never a backend."""
    return tuple(n for e in REGISTRY if e.options for n in getattr(import_module(e.options), "GROUPS", {}).get(name, ()))


def recognisers() -> tuple:
    """(name, module) of every row that recognises its documents by content, in the table's
    order (the order prio.io.documents asks them in)."""
    return tuple((e.name, import_module(e.recognise)) for e in REGISTRY if e.recognise)


def lint_modules() -> tuple:
    """Every backend's lint rule modules, in the table's order (YuniKorn's first)."""
    return tuple(m for e in REGISTRY for m in e.lint)
