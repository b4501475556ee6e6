"""`volcano-scheduler.conf` as Volcano's `scheduler.UnmarshalSchedulerConf` reads it (volcano-sh/
volcano pkg/scheduler/util.go, conf/scheduler_conf.go), from its YAML already decoded as go-yaml
v2 decodes it (non-strict: an unknown key is dropped without a word)."""
from __future__ import annotations

from dataclasses import dataclass, field

# The actions framework.RegisterAction knows (pkg/scheduler/actions/factory.go).
ACTIONS = ("reclaim", "allocate", "backfill", "preempt", "gangpreempt", "gangreclaim", "enqueue", "shuffle")
# The plugins framework.RegisterPluginBuilder knows (pkg/scheduler/plugins/factory.go).
PLUGINS = ("drf", "gang", "deviceshare", "predicates", "priority", "nodeorder", "conformance", "binpack",
           "resource-strategy-fit", "tdm", "overcommit", "sla", "task-topology", "numa-aware", "cdp", "rescheduling",
           "usage", "pdb", "nodegroup", "network-topology-aware", "proportion", "capacity", "extender", "resourcequota")
# The yaml keys of conf.PluginOption's flags, as spelt in its struct tags: the others are ignored.
FLAGS = ("enableJobOrder", "enableHierarchy", "enableJobReady", "enableJobPipelined", "enableTaskOrder",
         "enablePreemptable", "enableReclaimable", "enablePreemptive", "enableQueueOrder", "enabledClusterOrder",
         "enablePredicate", "enableBestNode", "enableNodeOrder", "enableTargetJob", "enableReservedNodes",
         "enableJobEnqueued", "enabledVictim", "enableJobStarving", "enabledOverused", "enabledAllocatable",
         "enabledHyperNodeOrder", "enabledSubJobReady", "enabledSubJobPipelined", "enabledSubJobOrder",
         "enabledHyperNodeGradient")
# ApplyPluginConfDefaults sets these to true when absent (enableHierarchy and enabledClusterOrder stay unset).
DEFAULTED = tuple(f for f in FLAGS if f not in ("enableHierarchy", "enabledClusterOrder"))
PLUGIN_KEYS = ("name", "arguments") + FLAGS
TOP_KEYS = ("actions", "tiers", "configurations", "metrics")

DEFAULT_ACTIONS = ("enqueue", "allocate", "backfill")
DEFAULT_TIERS = (("priority", "gang", "conformance"), ("overcommit", "drf", "predicates", "proportion", "nodeorder"))


@dataclass
class Plugin:
    name: str
    flags: dict = field(default_factory=dict)  # every flag after ApplyPluginConfDefaults
    arguments: dict | None = None

    def on(self, flag: str) -> bool:
        return self.flags.get(flag, True) is not False


@dataclass
class Config:
    source: str = "none"  # configmap, raw or none
    valid: bool = True
    error: str | None = None
    actions: tuple = DEFAULT_ACTIONS
    tiers: list = field(default_factory=list)  # [[Plugin, ...], ...]
    configurations: list = field(default_factory=list)

    def plugins(self) -> list:
        return [p for t in self.tiers for p in t]

    def plugin(self, name: str) -> Plugin | None:
        return next((p for p in self.plugins() if p.name == name), None)


def _plugin(name: str, given: dict | None = None) -> Plugin:
    given = given or {}
    flags = {f: given[f] for f in FLAGS if f in given}
    for f in DEFAULTED:
        flags.setdefault(f, True)
    args = given.get("arguments")
    return Plugin(name, flags, args if isinstance(args, dict) else None)


def default_config(source: str = "none") -> Config:
    return Config(source, True, None, DEFAULT_ACTIONS, [[_plugin(n) for n in t] for t in DEFAULT_TIERS])


def unmarshal(data, source: str) -> Config:
    """`data`: the config text decoded as go-yaml v2 decodes it (None for an empty text). The
    config Volcano runs: this one, or, when UnmarshalSchedulerConf refuses it, the default
    config with valid False and Volcano's error text (a starting scheduler keeps its default)."""
    err = refusal(data)
    if err is not None:
        cfg = default_config(source)
        cfg.valid, cfg.error = False, err
        return cfg
    data = data if isinstance(data, dict) else {}
    tiers = []
    for tier in data.get("tiers") or []:
        plugins = (tier.get("plugins") or []) if isinstance(tier, dict) else []
        tiers.append([_plugin(str(p.get("name") or ""), p) for p in plugins if isinstance(p, dict)])
    confs = data.get("configurations") if isinstance(data.get("configurations"), list) else []
    return Config(source, True, None, tuple(action_names(data)), tiers, confs)


def _type_error(data: dict) -> str:
    """What go-yaml v2 cannot decode into conf.SchedulerConfiguration ("" when it can): a
    string field takes any scalar, a list, mapping or bool field only its own kind."""
    if isinstance(data.get("actions"), (list, dict)):
        return "a collection into the string actions"
    tiers = data.get("tiers")
    if tiers is None:
        return ""
    if not isinstance(tiers, list):
        return "tiers into []conf.Tier"
    for tier in tiers:
        if tier is None:
            continue
        if not isinstance(tier, dict):
            return "a tier into conf.Tier"
        plugins = tier.get("plugins")
        if plugins is not None and not isinstance(plugins, list):
            return "plugins into []conf.PluginOption"
        for p in plugins or []:
            if p is None:
                continue
            if not isinstance(p, dict):
                return "a plugin into conf.PluginOption"
            for f in FLAGS:
                if p.get(f) is not None and not isinstance(p[f], bool):
                    return f"{p[f]!r} into the bool {f}"
            if p.get("arguments") is not None and not isinstance(p["arguments"], dict):
                return "arguments into map[string]interface {}"
    return ""


def action_names(data) -> list:
    actions = data.get("actions") if isinstance(data, dict) else None
    return [a.strip() for a in str(actions if actions is not None else "").split(",")]


def refusal(data) -> str | None:
    """Volcano's error text for a config it refuses, or None. (A YAML that does not decode is the
    loader's to say.)"""
    if data is not None and not isinstance(data, dict):
        return "yaml: unmarshal errors: cannot unmarshal into conf.SchedulerConfiguration"
    data = data or {}
    wrong = _type_error(data)
    if wrong:
        return f"yaml: unmarshal errors: cannot unmarshal {wrong}"
    for tier in data.get("tiers") or []:
        plugins = (tier.get("plugins") or []) if isinstance(tier, dict) else []
        names = [p.get("name") for p in plugins if isinstance(p, dict)]
        hdrf = any(isinstance(p, dict) and p.get("name") == "drf" and p.get("enableHierarchy") is True for p in plugins)
        if hdrf and "proportion" in names:
            return "proportion and drf with hierarchy enabled conflicts"
    actions = data.get("actions")
    for raw in str(actions if actions is not None else "").split(","):
        if raw.strip() not in ACTIONS:
            return f"failed to find Action {raw}"
    return None
