"""The shared corpus's checker (../shared/testdata/volcano/README.md, "The output prio must
print"): the fields a prediction must agree on, against the pinned outcome or any alternative."""
from __future__ import annotations


def _cycles(cycles) -> list:
    return [(c["cycle"], frozenset((p["podGroup"], p["from"], p["to"]) for p in c["phaseChanges"]),
             tuple((b["pod"], b["node"]) for b in c["binds"]),
             tuple((e["pod"], e["node"], e["action"], e["preemptor"]) for e in c["evictions"]),
             frozenset((p["pod"], p["node"]) for p in c["pipelined"])) for c in cycles]


def outcome(d: dict) -> tuple:
    return (d["cyclesRun"], d["stopReason"], _cycles(d["cycles"]),
            [(g["podGroup"], g["queue"], g["priority"], g["phase"], g["inSession"], g["running"], g["pending"], g["evicted"])
             for g in d["podGroups"]],
            [(p["pod"], p["state"], p["node"], p["boundInCycle"], p["evictedInCycle"], p["nominatedNode"]) for p in d["pods"]])


def config_key(c: dict) -> tuple:
    return (c["valid"], tuple(c["actions"]), tuple(tuple(p["name"] for p in t) for t in c["tiers"]))


def agrees(got: dict, want: dict) -> str:
    """'' when `got` agrees with the recording (pinned or an alternative), else what differs first."""
    if config_key(got["config"]) != config_key(want["config"]):
        return f"config {config_key(got['config'])} != {config_key(want['config'])}"
    mine = outcome(got)
    for alt in [want] + list(want.get("alternatives") or []):
        if outcome(alt) == mine:
            return ""
    ref = outcome(want)
    names = ("cyclesRun", "stopReason", "cycles", "podGroups", "pods")
    for n, a, b in zip(names, mine, ref):
        if a != b:
            if isinstance(a, list):
                for x, y in zip(a, b):
                    if x != y:
                        return f"{n}: got {x} want {y}"
                return f"{n}: length {len(a)} != {len(b)}"
            return f"{n}: got {a} want {b}"
    return "?"


def messages(d: dict) -> tuple:
    """What the README reports beside agreement: every PodGroup's conditions and every pod's
    pendingReason and pendingMessage, as Volcano wrote them."""
    return ([(g["podGroup"], g["conditions"]) for g in d["podGroups"]],
            [(p["pod"], p["pendingReason"], p["pendingMessage"]) for p in d["pods"]])


def messages_differ(got: dict, want: dict) -> str:
    """'' when `got`'s messages equal those of the recorded outcome (pinned or alternative) its
    decisions agree with, else the first that differs."""
    mine = outcome(got)
    for alt in [want] + list(want.get("alternatives") or []):
        if outcome(alt) == mine:
            for a, b in zip(messages(got), messages(alt)):
                for x, y in zip(a, b):
                    if x != y:
                        return f"got {x} want {y}"
            return ""
    return "no recorded outcome agrees"
