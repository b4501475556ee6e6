"""The YuniKorn releases prio judges a config for (`--yunikorn-version 1.5` ... `1.9`, issue 46):
what each release's own code does differently with a queue config, as data, in one place. The
lint rules, explain, simulate, `prio rule` and the docs' table "what changes by release" all read
it from here (nothing else states a per-release rule).

Recorded from each release's yunikorn-core at the tag its k8shim builds against
(../shared/testdata/yunikorn-versions: its README is the specification, with the source of each
rule). Within a minor the config rules do not change, so one entry per minor. The default is the
newest; master's rules equal 1.9.0's on every recorded config."""
from __future__ import annotations

import re

from prio.yunikorn import properties as P

# The property keys every release reads (Queue.UpdateQueueProperties), and those of some only.
_SIX = P.EVERY_RELEASE
_BACKOFF = (P.BACKOFF, P.BACKOFF_DELAY)  # from 1.8
QUOTA_DELAY_18 = P.QUOTA_PREEMPTION_DELAY_18  # v1.8.0's QuotaPreemptionDelay
QUOTA_DELAY_19 = P.QUOTA_PREEMPTION_DELAY  # renamed in 1.9 (core 192f2a3f, YUNIKORN-3208)

# The partition keys only some releases' strict decoder knows, as (the mapping, the key): before
# 1.8 an unknown key anywhere refuses the whole config.
QUOTA_SWITCH = ("preemption", "quotapreemptionenabled")
RESOLVER = ("", "usergroupresolver")


# A Release's fields, in order: what it is, then what its validator and decoder do, then the
# scheduling rules that differ (the last ones, each with the newest's value as its default).
_FIELDS = ("name", "tag", "queue_name", "queue_name_chars", "queue_name_error", "user_name", "partition_keys", "properties",
           "quota_delay", "fixed_value_checked", "stateaware_policy", "bad_template_refused", "merge_key_panics", "recovery_error",
           "fair_max_share", "cancels_reservations", "resource_wise_preemption", "fence_at_projected_max",
           "quota_in_own_loop", "quota_guarantee_capped", "quota_sort_by_ask")
_DEFAULTS = {"fair_max_share": True, "cancels_reservations": True, "resource_wise_preemption": True, "fence_at_projected_max": True,
             "quota_in_own_loop": True, "quota_guarantee_capped": True, "quota_sort_by_ask": True}


class Release:
    """What one YuniKorn minor does with a queue config where releases differ. Immutable.

    A plain class with slots, not a frozen dataclass: every command that reads a config imports
    this module, and the dataclass machinery (and its import) cost more than the rest of it.

    name: "1.5", what --yunikorn-version takes; tag: the yunikorn-core recorded (the one its
    k8shim builds against; the minor's others judge configs alike); queue_name: QueueNameRegExp
    (fullmatch); queue_name_chars: the characters besides letters and digits, as messages list
    them; queue_name_error: what its validator says of a name that does not match ({name}: the
    name); user_name: UserRegExp (fullmatch): users in limits and single-user placement filters;
    partition_keys: QUOTA_SWITCH, RESOLVER: the ones its decoder knows; properties: the queue
    property keys it reads (any other is "queue property skipped"); quota_delay: the
    quota-preemption delay key it reads (None: no quota preemption); fixed_value_checked:
    fixedRule.initialise checks each part of the value is a queue name; stateaware_policy:
    application.sort.policy stateaware is a policy of its own (else fifo); bad_template_refused:
    a child template that does not parse refuses the config (else: dropped); merge_key_panics: a
    << merge into a mapping with a non-scalar key panics its YAML library; recovery_error: what
    building a placement rule named recovery says.

    The scheduling rules that differ (SCHEDULING names them; the reference engine reads these, a
    fast run declines a release whose rules differ from the newest's: features.OLDER_RELEASE):
    - fair_max_share: the fair queue sort's share is getFairShare's one number, over guaranteed
      else the fair max (YUNIKORN-2678, v1.6.0); before, CompUsageRatioSeparately over the
      guarantee alone (getShares per type, the usage itself where none is guaranteed, compared
      largest first);
    - cancels_reservations: initWorkingState cancels a lower-priority reservation (not a required
      node's, not one that preempted) to free its node for the preemptor (YUNIKORN-3092, v1.8.0);
      before, a node reserved for another ask is never a candidate;
    - resource_wise_preemption: the guarantee checks of preemption look at the ask's resource
      types only (YUNIKORN-3113, v1.8.0: isAskQueueUnderGuaranteed, isVictimQueueOverGuaranteed,
      FitInActual); before, at every type of the remaining guarantee;
    - fence_at_projected_max: findPreemptionFenceRoot stops at a queue its usage plus the ask
      would take past its max (YUNIKORN-3241, v1.9.0); before, at a queue whose usage equals its
      own max exactly (resources.Equals(sq.maxResource, sq.allocatedResource)).
    The quota preemptor's (read by preemption.quota, where quota preemption exists: from 1.8,
    YUNIKORN-3193; 1.5 to 1.7 keep the newest's values, which nothing reads there):
    - quota_in_own_loop: quota preemption runs in a loop of its own over every armed queue, once
      per change (Queue.TryQuotaPreemption, YUNIKORN-3249, v1.9.0); 1.8.0 triggers it from the
      scheduling cycle (YUNIKORN-3150: Queue.TryAllocate, so only a queue with pending requests
      below it, the root with some), and a parent's start time is never cleared
      (setQuotaPreemptionState runs on its leaves), so a parent runs again each cycle while it is
      over its max;
    - quota_guarantee_capped: the amount to free is capped by the usage above the guarantees on
      the queue's path, a parent's amount is split rounded down, victims are taken while their
      total stays within the amount (YUNIKORN-3240, v1.9.0); 1.8.0: no cap, split rounded half
      to even, a victim taken while the victims before it total less than the amount and given
      back when it takes the leaf under its own guarantee;
    - quota_sort_by_ask: victims sorted by SortAllocationsBasedOnAsk (YUNIKORN-3233, v1.9.0);
      1.8.0: SortAllocations (regular pods first, then opted out, then originators; priority
      lower first; newer first; smaller first)."""

    __slots__ = (*_FIELDS, "_queue_name_re", "_user_name_re")
    name: str
    tag: str
    queue_name: str
    queue_name_chars: str
    queue_name_error: str
    user_name: str
    partition_keys: tuple
    properties: tuple
    quota_delay: str | None
    fixed_value_checked: bool
    stateaware_policy: bool
    bad_template_refused: bool
    merge_key_panics: bool
    recovery_error: str
    fair_max_share: bool
    cancels_reservations: bool
    resource_wise_preemption: bool
    fence_at_projected_max: bool
    quota_in_own_loop: bool
    quota_guarantee_capped: bool
    quota_sort_by_ask: bool
    _queue_name_re: re.Pattern | None
    _user_name_re: re.Pattern | None

    def __init__(self, name: str, tag: str, **fields):
        values = dict(_DEFAULTS, name=name, tag=tag, **fields)
        if values.keys() != set(_FIELDS):
            raise TypeError(f"Release fields: missing {set(_FIELDS) - values.keys()}, unknown {values.keys() - set(_FIELDS)}")
        for k in _FIELDS:
            object.__setattr__(self, k, values[k])
        object.__setattr__(self, "_queue_name_re", None)
        object.__setattr__(self, "_user_name_re", None)

    def __setattr__(self, key, value):
        raise AttributeError(f"Release is immutable: {key}")

    def __repr__(self) -> str:
        return f"Release({self.name!r})"

    def changed(self, **fields) -> Release:
        """A copy with `fields` changed (what dataclasses.replace did)."""
        values = {k: getattr(self, k) for k in _FIELDS}
        values.update(fields)
        return Release(**values)

    @property
    def queue_name_re(self) -> re.Pattern:
        rx = self._queue_name_re
        if rx is None:  # compiled when a rule first needs it, not at import
            rx = re.compile(self.queue_name)
            object.__setattr__(self, "_queue_name_re", rx)
        return rx

    @property
    def user_name_re(self) -> re.Pattern:
        rx = self._user_name_re
        if rx is None:
            rx = re.compile(self.user_name)
            object.__setattr__(self, "_user_name_re", rx)
        return rx

    @property
    def queue_name_message(self) -> str:
        """How the release's validator describes a valid queue name."""
        return f"names are 1-64 characters of letters, digits and {self.queue_name_chars}"


# 1.6 in full, then each other release as what it changed (1.5: what 1.6 changed from it).
_R16 = Release("1.6", "v1.6.3", queue_name=r"[a-zA-Z0-9_:#/@-]{1,64}", queue_name_chars="- _ # @ / :",  # YUNIKORN-2657
               queue_name_error="invalid queue name, max 64 characters consisting of alphanumeric characters and "
                                "'-', '_', '#', '@', '/', ':' allowed",
               user_name=r"[_a-zA-Z][a-zA-Z0-9:#/_.@-]*[$]?", partition_keys=(), properties=_SIX, quota_delay=None,  # YUNIKORN-2656
               fixed_value_checked=True, stateaware_policy=False, bad_template_refused=True, merge_key_panics=True,  # 2483, 2482
               recovery_error="recovery rule cannot be part of the config, failing placement rule config",
               cancels_reservations=False, resource_wise_preemption=False, fence_at_projected_max=False)
_R15 = _R16.changed(name="1.5", tag="v1.5.2", queue_name=r"[a-zA-Z0-9_-]{1,64}", queue_name_chars="- _",
                    queue_name_error="invalid child name {name}, a name must only have alphanumeric characters, - or _, and be no "
                                     "longer than 64 characters",
                    user_name=r"[_a-zA-Z][a-zA-Z0-9:_.@-]*[$]?", fixed_value_checked=False, stateaware_policy=True,
                    bad_template_refused=False, recovery_error="unknown rule name specified recovery, failing placement rule config",
                    fair_max_share=False)  # YUNIKORN-2678
_R17 = _R16.changed(name="1.7", tag="v1.7.0")
# YUNIKORN-656 and 3193 (the partition keys), 3115 (backoff), go.yaml.in/yaml/v3 v3.0.4 (YUNIKORN-3114)
_R18 = _R17.changed(name="1.8", tag="v1.8.0", partition_keys=(QUOTA_SWITCH, RESOLVER), properties=_SIX + _BACKOFF + (QUOTA_DELAY_18,),
                    quota_delay=QUOTA_DELAY_18, merge_key_panics=False, cancels_reservations=True, resource_wise_preemption=True,  # 3092, 3113
                    quota_in_own_loop=False, quota_guarantee_capped=False, quota_sort_by_ask=False)  # 3150, before 3240, 3233 and 3249
_R19 = _R18.changed(name="1.9", tag="v1.9.0-1", properties=_SIX + _BACKOFF + (QUOTA_DELAY_19,), quota_delay=QUOTA_DELAY_19,  # 3208
                    fence_at_projected_max=True, quota_in_own_loop=True, quota_guarantee_capped=True, quota_sort_by_ask=True)  # 3241, 3249, 3240, 3233
RELEASES: dict[str, Release] = {r.name: r for r in (_R15, _R16, _R17, _R18, _R19)}
NAMES = tuple(RELEASES)
NEWEST = RELEASES[NAMES[-1]]


def get(text: str | None) -> Release | None:
    """The release `--yunikorn-version` names: `1.6`, `1.6.3`, `v1.6` (a patch maps to its minor);
    None (not given) is the newest. None for a text that names no recorded release."""
    if text is None or not str(text).strip():
        return NEWEST
    parts = str(text).strip().lstrip("vV").split(".")
    if len(parts) < 2 or not all(p.isdigit() for p in parts[:3]) or len(parts) > 3:
        return None
    return RELEASES.get(f"{int(parts[0])}.{int(parts[1])}")


def user_name_note(name: str, release: Release) -> str:
    """What a message adds when `release` refuses a user name that later releases take."""
    later = [r.name for r in RELEASES.values() if r.user_name_re.fullmatch(name)]
    return f" (YuniKorn {release.name} allows no # or / in user names; {span(later)} take it)" if later else ""


def reads_elsewhere(key: str, release: Release) -> list[str]:
    """The other releases that read property `key` (which `release` ignores)."""
    return [r.name for r in RELEASES.values() if r is not release and key in r.properties]


def span(names) -> str:
    """Release names as a reader says them: `1.6 to 1.9`, `1.8`, `1.5, 1.8`."""
    names = [n for n in NAMES if n in names]
    if len(names) > 1 and NAMES[NAMES.index(names[0]):NAMES.index(names[-1]) + 1] == tuple(names):
        return f"{names[0]} to {names[-1]}"
    return ", ".join(names)


# The lint rules that hold for some releases only: rule id -> (the releases, why not the others),
# the releases from the fields above. Any rule not named holds for every release.
_FIFO = tuple(r.name for r in RELEASES.values() if not r.stateaware_policy)
_QUOTA = tuple(r.name for r in RELEASES.values() if r.quota_delay)
_NO_QUOTA = f"before {_QUOTA[0]} there is no quota preemption; {QUOTA_DELAY_18} is 1.8.0's delay key"
RULE_RELEASES: dict[str, tuple[tuple, str]] = {
    "PRIO205": (_FIFO, f"in {span(set(NAMES) - set(_FIFO))} stateaware is a sort policy of its own, one application starting at a time"),
    "PRIO502": (_QUOTA, _NO_QUOTA), "PRIO503": (_QUOTA, _NO_QUOTA), "PRIO506": (_QUOTA, _NO_QUOTA),
}


# The lint rules that hold for every release, but judge by each release's own rule (which the
# fields of RELEASES hold): what `prio rule` says of them.
RULE_DIFFERS: dict[str, str] = {
    "PRIO001": "1.5 to 1.7 also refuse the partition keys preemption.quotapreemptionenabled and usergroupresolver",
    "PRIO003": "1.5 to 1.7 panic on a << merge into a mapping with a key that is not a scalar",
    "PRIO106": "in 1.5 a queue name is letters, digits, - and _ only",
    "PRIO117": "1.5 allows no # or / in user names",
    "PRIO128": "1.5 allows no # or / in a single-user filter",
    "PRIO133": "1.5 does not check that a fixed rule's value is made of queue names, and words the recovery rule's error its own way",
    "PRIO136": "1.5 accepts the config and drops the template, with the rest of that queue's config (a warning there)",
    "PRIO210": "the keys each release reads differ: the backoff keys from 1.8, the quota-preemption delay 1.8.0's or 1.9's",
    "PRIO211": "only the keys the release reads",
}


def applies(rule_id: str, release: Release) -> bool:
    """Whether lint rule `rule_id` holds for `release`."""
    held = RULE_RELEASES.get(rule_id)
    return held is None or release.name in held[0]


def rule_releases(rule_id: str) -> tuple[list, str]:
    """The releases a lint rule applies to, and what `prio rule` says of them."""
    held = RULE_RELEASES.get(rule_id)
    if held is not None:
        return list(held[0]), f"YuniKorn {span(held[0])}; {held[1]}"
    differs = RULE_DIFFERS.get(rule_id)
    return list(NAMES), f"YuniKorn {span(NAMES)}" + (f", each by its own rule: {differs}" if differs else "")


class Scheduling:
    """A scheduling rule that differs by release, and whether prio's engine models it."""

    __slots__ = ("what", "releases", "modelled", "source")
    what: str
    releases: tuple
    modelled: bool
    source: str

    def __init__(self, what: str, releases: tuple, modelled: bool, source: str):
        self.what = what
        self.releases = releases  # the releases where it differs from the newest
        self.modelled = modelled
        self.source = source


# The Release fields that hold a scheduling rule (the reference engine reads them).
SCHEDULING_FIELDS = ("fair_max_share", "cancels_reservations", "resource_wise_preemption", "stateaware_policy", "fence_at_projected_max")# (The quota preemptor's, quota_in_own_loop, quota_guarantee_capped and quota_sort_by_ask, are
# read by preemption.quota: prio preempt and diff run it, no engine does.)


def schedules_as_newest(release: Release) -> bool:
    """Whether `release` schedules by the newest's rules wherever prio models a difference (then
    every engine runs it; else only the reference engine, which reads the release's fields)."""
    return all(getattr(release, f) == getattr(NEWEST, f) for f in SCHEDULING_FIELDS)


def _differ(field: str) -> tuple:
    return tuple(r.name for r in RELEASES.values() if getattr(r, field) != getattr(NEWEST, field))


# Known from yunikorn-core's history (the first tag holding each change; none of them recorded in
# a corpus prio is checked against). Modelled: the reference engine schedules with the release's
# own rule (a Release field); the others are said in a note by --yunikorn-version (explain,
# simulate, preempt, diff): the engine schedules with the newest release's rules there.
SCHEDULING = (
    Scheduling("stateaware application sorting (one application starting at a time per queue; prio fires the starting timeout "
               "when nothing else can be placed)", _differ("stateaware_policy"), True,
               "stateAwareFilter and the application states in v1.5.2; YUNIKORN-2483 made it fifo in v1.6.0"),
    Scheduling("the fair queue sort's share over the guarantee alone, type by type (before YUNIKORN-2678)", _differ("fair_max_share"), True,
               "sortQueuesByPriorityAndFairness and CompUsageRatioSeparately in v1.5.2; getFairShare (guarantee, else the fair max) from v1.6.0"),
    Scheduling("preemption's guarantee checks over every resource type, not the ask's (before YUNIKORN-3113)",
               _differ("resource_wise_preemption"), True, "objects/preemption.go; isAskQueueUnderGuaranteed and FitInActual in v1.8.0"),
    Scheduling("reservations that can block a node for good: none cancelled for a preemptor (before YUNIKORN-3092)",
               _differ("cancels_reservations"), True, "Preemptor.initWorkingState; fixed in v1.8.0"),
    Scheduling("quota preemption", NAMES[:3], True,
               "YUNIKORN-3193 and its parts (3140, 3141, 3142, 3146, 3150, 3155, 3157, 3182), all new in v1.8.0: none before (its keys "
               "do nothing: read_as drops them)"),
    Scheduling("quota preemption triggered from the scheduling cycle: only a queue with pending requests below it, and a parent "
               "again in every cycle it is over its max (YUNIKORN-3150; a loop of its own from YUNIKORN-3249)", _differ("quota_in_own_loop"),
               True, "Queue.TryAllocate, shouldTriggerPreemption and setQuotaPreemptionState in v1.8.0; TryQuotaPreemption in v1.9.0"),
    Scheduling("quota preemption's amount not capped by the guarantees on the path, split rounded half to even, victims taken while "
               "those before total less than it, one given back that takes its leaf under its guarantee (before YUNIKORN-3240)",
               _differ("quota_guarantee_capped"), True,
               "quota_preemptor.go setPreemptableResources, getChildQueuesPreemptableResource, preemptVictims in v1.8.0"),
    Scheduling("quota preemption's victims sorted regular pods first, then opted out, then originators (SortAllocations, before "
               "YUNIKORN-3233)", _differ("quota_sort_by_ask"), True, "preemption_utilities.go in v1.8.0; SortAllocationsBasedOnAsk in v1.9.0"),
    Scheduling("the preemption fence root: a queue whose usage equals its own max, not one the ask would take past its max "
               "(before YUNIKORN-3241)", _differ("fence_at_projected_max"), True, "Queue.findPreemptionFenceRoot; fixed in v1.9.0"),
    Scheduling("after a config update, inherited properties missing from the queues and the dynamic queues created below them "
               "(before YUNIKORN-3285)", NAMES[:4], False,
               "updateQueues applies a queue's own properties only, fixed in v1.9.0 (MergeParentProperties). Not modelled: it changes "
               "no parsed setting (the corpus' reloadLosesInherited), only the property map the REST API shows and what a dynamic queue "
               "made below after the update inherits; prio reads a config as at start-up, and no input says which dynamic queues "
               "were made after an update"),
)


def modelled(release: Release) -> list[str]:
    """The scheduling rules of `release` that differ from the newest and prio models from the
    code (no recording checks them)."""
    return [s.what for s in SCHEDULING if release.name in s.releases and s.modelled]


def unmodelled(release: Release) -> list[str]:
    """The scheduling rules of `release` that differ from the newest and prio does not model."""
    return [s.what for s in SCHEDULING if release.name in s.releases and not s.modelled]


def reads(props: dict, release: Release) -> dict:
    """A queue's properties as `release` reads them, named as the newest names them (what the
    engine reads): a key only other releases read is dropped (it does nothing here), and the
    release's own quota-preemption delay key takes the newest's name."""
    out = {k: v for k, v in props.items() if k in release.properties or not reads_elsewhere(k, release)}
    if release.quota_delay and release.quota_delay != NEWEST.quota_delay and release.quota_delay in out:
        out[NEWEST.quota_delay] = out.pop(release.quota_delay)
    return out


def read_as(conf, release: Release) -> None:
    """Every queue's (and child template's) properties of the decoded config `conf`
    (prio.yunikorn.config.SchedulerConfig) as `release` reads them (`reads`), in place."""
    from prio.yunikorn.config import walk

    if conf.read_for:  # read once: a second reading would drop the keys renamed by the first
        return
    conf.read_for = release.name
    for p in conf.partitions:
        root = p.root()
        for q, _ in walk(root) if root is not None else ():
            q.properties = reads(q.properties, release)
            if q.childtemplate is not None:
                q.childtemplate.properties = reads(q.childtemplate.properties, release)


def from_queue_fields(fields) -> tuple:
    """The releases whose REST API serves a queue tree with these fields (the queues of
    /ws/v1/partition/P/queues; webservice/dao/queue_info.go at each tag), from the fields that are
    there: an omitempty field that is absent proves nothing (no telling field: every release)."""
    if "childrenNames" in fields:  # renamed childNames in 1.6
        return NAMES[:1]
    if "quotaPreemptionDelay" in fields:  # from 1.8
        return NAMES[3:]
    if "isPriorityFence" in fields:  # from 1.7, never left out
        return NAMES[2:]
    if "childNames" in fields:  # 1.6: the new name, no priority fields yet
        return NAMES[1:2]
    return NAMES


# The images of YuniKorn's own pods (the Helm chart's scheduler, plugin and admission
# controller): apache/yunikorn:scheduler-1.6.3, ...:scheduler-plugin-1.6.3, ...:admission-1.6.3.
_IMAGE = r"(?:^|/)yunikorn:(?:scheduler|scheduler-plugin|admission)-v?([0-9]+\.[0-9]+(?:\.[0-9]+)?)(?:$|[-@])"


def from_image(image: str) -> str | None:
    """The YuniKorn version a container image of YuniKorn's names (`1.6.3`), or None."""
    m = re.search(_IMAGE, image or "")  # re's cache compiles it on first use, not at import
    return m.group(1) if m else None


def _yes(flag: bool, yes: str, no: str) -> str:
    return yes if flag else no


def changes_table() -> tuple[list[str], list[tuple]]:
    """The docs' table "what changes by release": (the header, rows of (what, one cell per release)),
    every cell computed from RELEASES."""
    rs = list(RELEASES.values())
    rows = [
        ("queue names", [f"`^{r.queue_name}$`" for r in rs]),
        ("user names (limits, single-user filters)", [f"`^{r.user_name}$`" for r in rs]),
        ("partition `preemption.quotapreemptionenabled`", [_yes(QUOTA_SWITCH in r.partition_keys, "read", "refuses the config") for r in rs]),
        ("partition `usergroupresolver`", [_yes(RESOLVER in r.partition_keys, "read", "refuses the config") for r in rs]),
        ("`application.unschedasks.backoff`, `.backoff.delay`", [_yes(_BACKOFF[0] in r.properties, "read", "ignored") for r in rs]),
        ("quota-preemption delay property", [f"`{r.quota_delay}`" if r.quota_delay else "none (both keys ignored)" for r in rs]),
        ("fixed placement rule value: parts must be queue names", [_yes(r.fixed_value_checked, "checked (refused on reload)", "not checked") for r in rs]),
        ("child template that does not parse", [_yes(r.bad_template_refused, "refuses the config", "dropped, with that queue's resources") for r in rs]),
        ("`application.sort.policy: stateaware`", [_yes(r.stateaware_policy, "a policy of its own", "means fifo (deprecated)") for r in rs]),
        ("`<<` merge into a mapping with a non-scalar key", [_yes(r.merge_key_panics, "the decoder panics", "refused") for r in rs]),
        ("placement rule named `recovery` (refused on reload)", [f'"{r.recovery_error.split(",")[0]}"' for r in rs]),
    ]
    rows += [(f"scheduling: {s.what}" + ("" if s.modelled else " (not modelled)") + f"; {s.source}",
              ["differs" if r.name in s.releases else "as the newest" for r in rs]) for s in SCHEDULING]
    return ["", *(f"{r.name} (`{r.tag}`)" for r in rs)], rows
