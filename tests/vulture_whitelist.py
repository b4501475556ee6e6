"""What vulture (tests/arch/test_dead_code.py, or `vulture` at the checkout's root) would report
as unused and is meant to stay, each with why. Lint rules need no entry: vulture skips functions
registered with @check (pyproject.toml, [tool.vulture]).

vulture reads this file as code that uses these names; the test also runs it, so an entry whose
name is gone fails there and the list cannot outlive what it excuses."""
from prio.cli import app, fastpath
from prio.yunikorn import config, snapshot

# typer calls the app's callback (--version, the top-level help)
app._root
# the fast path's one-value options: tests/cli/test_fastpath.py checks them against typer's
fastpath.Table(()).single

# The configuration model keeps the fields of YuniKorn's schema; the loader fills them (and
# checks their types), no rule reads them yet.
config.Queue.adminacl
config.Queue.submitacl
config.Partition.usergroupresolver
config.SchedulerConfig.checksum

# What a REST dump says of a queue (newer DAO fields): tests/loaders/test_live.py reads them.
snapshot.QueueInfo.priority_sorting
snapshot.QueueInfo.preemption_fence
snapshot.QueueInfo.preemption_delay

# Python reads these: a module's __getattr__ (PEP 562, color.Color made on demand); a generated
# typer command's __signature__, __annotations__ and __qualname__ (inspect, typer).
from prio.cli import color, explain, options, validate  # noqa: E402

color.__getattr__
options.typer_command(explain.Options, explain.run, explain.HELP).__signature__
options.typer_command(explain.Options, explain.run, explain.HELP).__annotations__
options.typer_command(explain.Options, explain.run, explain.HELP).__qualname__
# validate's -o choices as an Enum: tests/render/test_validate_formats.py compares them with the renderers
validate.OutputFormat

# The claim the fast runs' shortcut rests on, with its proof: a candidate less than every other
# is first in SliceStable's result. They apply it through gosort.dominating on the least key's
# group, which they hold already; tests/yunikorn/test_gosort.py checks least against SliceStable.
from prio.yunikorn import gosort  # noqa: E402

gosort.least

# docs/yunikorn.md's table "what changes by release": written into the page from the release data
# by tests/docs/test_releases_table.py (PRIO_UPDATE_GOLDEN=1), which fails when the page is stale.
from prio.yunikorn.render import releases as release_table  # noqa: E402

release_table.markdown_table

# A verdict's shim plugin name (empty where a PreFilter plugin rejects the pod outright) is part
# of what the shim answers, recorded pair by pair in ../shared/testdata/yunikorn-shim/predicates;
# tests/kube/test_predicates.py holds it to the corpus. Output names the kube-scheduler plugin.
from prio.kube import predicates  # noqa: E402

predicates.Verdict.shim_plugin

# docs/kueue.md's feature table is generated from this: tests/kueue/test_kueue_features.py keeps the
# page in step with the code (and rewrites it under PRIO_UPDATE_GOLDEN=1).
from prio.kueue import features  # noqa: E402

features.markdown_table

# The registry's schemas are read by the backend contract (tests/arch/test_backends.py): what each
# backend must pass is stated in its row.
from prio import backends  # noqa: E402

backends.Entry.schemas

# Why the gang walk left a run to the reference engine (Engine._from_scratch): what the gang
# properties (tests/yunikorn/test_gang_properties.py) read to know which way a run went.
from prio.yunikorn import engine  # noqa: E402

engine.Engine.gang_walk_left
