"""Kueue's features and what prio does with each: modelled (replayed as Kueue does it), noted
(read, not replayed, and said in a note whenever an input uses it), refused (the input is
refused in one line). This table is the one place that says so: the loader takes its notes and
refusals from it, and docs/kueue.md's feature table is generated from it
(tests/kueue/test_kueue_features.py keeps the page in step)."""
from __future__ import annotations

from dataclasses import dataclass

MODELLED, NOTED, REFUSED = "modelled", "noted", "refused"


@dataclass(frozen=True)
class Feature:
    id: str
    name: str  # as Kueue's documentation names it
    status: str
    fields: str  # the objects and fields it lives in
    what: str  # what prio does, in a user's words (for noted and refused: the note's or refusal's reason)
    kinds: tuple = ()  # the object kinds that are this feature (refused ones are refused by kind)


FEATURES = (
    Feature("quota", "Quotas and cohorts", MODELLED,
            "ClusterQueue `resourceGroups` (`nominalQuota`, `borrowingLimit`, `lendingLimit`), `cohortName`; "
            "Cohort `parentName`, `resourceGroups`",
            "hierarchical cohorts with their own quota, borrowing and lending as Kueue's quota tree counts them"),
    Feature("v1beta1", "The deprecated v1beta1 API", MODELLED, "`apiVersion: kueue.x-k8s.io/v1beta1`, every kind",
            "read as Kueue serves it: pruned by the v1beta1 CRD and converted to v1beta2 by its conversion webhook's "
            "rules (`cohort` is `cohortName`, `admissionChecks` a strategy, `Borrow` and `Preempt` are `MayStopSearch`, "
            "`priorityClassName` with `priorityClassSource` is `priorityClassRef`, a `topologyAssignment`'s `domains` "
            "its slices); validate checks it against the v1beta1 CRD and warns (PRIO623)"),
    Feature("queueing", "Queueing strategies", MODELLED, "ClusterQueue `queueingStrategy`",
            "StrictFIFO and BestEffortFIFO, with Kueue's scheduling equivalence hashing"),
    Feature("namespaces", "Namespace selection", MODELLED, "ClusterQueue `namespaceSelector`; `Namespace` labels",
            "no selector admits from no namespace; a workload whose namespace is not selected is Misconfigured"),
    Feature("flavors", "Resource flavors", MODELLED,
            "ResourceFlavor `nodeLabels`, `nodeTaints`, `tolerations`; pod `nodeSelector`, required node affinity, "
            "`tolerations`",
            "flavor choice per pod set and resource group, with Kueue's messages"),
    Feature("fungibility", "Flavor fungibility", MODELLED,
            "ClusterQueue `flavorFungibility` (`whenCanBorrow`, `whenCanPreempt`, `preference`)",
            "including the scan resuming where it stopped (gate FlavorFungibilityPreserveScanProgress)"),
    Feature("preemption", "Preemption", MODELLED,
            "ClusterQueue `preemption` (`withinClusterQueue`, `reclaimWithinCohort`, `borrowWithinCohort` with "
            "`maxPriorityThreshold`)",
            "victim choice and messages; two preemptors wanting the same victim in one cycle (the second re-planned "
            "without the first one's victims)"),
    Feature("fair-sharing", "Fair sharing", MODELLED,
            "Configuration `fairSharing.preemptionStrategies`; ClusterQueue and Cohort `fairSharing.weight`",
            "the dominant-resource-share tournament and fair-sharing preemption"),
    Feature("priority", "Priorities", MODELLED,
            "Workload `spec.priority`, `priorityClassRef`, label `kueue.x-k8s.io/priority-class`; WorkloadPriorityClass; "
            "PriorityClass (`globalDefault`)",
            "resolved once, in Kueue's order"),
    Feature("pod-sets", "Several pod sets", MODELLED, "Workload `spec.podSets[]`", "each pod set its own flavors"),
    Feature("partial-admission", "Partial admission", MODELLED, "Workload `spec.podSets[].minCount`",
            "admitted with fewer pods when the full count cannot fit nor preempt (Kueue's PodSetReducer search)"),
    Feature("reclaimable-pods", "Reclaimable pods", MODELLED, "Workload `status.reclaimablePods`",
            "a running workload's finished pods no longer count against the quota"),
    Feature("stop-policy", "Stop policies", MODELLED, "LocalQueue and ClusterQueue `stopPolicy: Hold`",
            "a held queue's workloads are never admitted (reason Suspended); the rest of the cohort goes on"),
    Feature("admission-gate", "Admission gates", MODELLED, "Workload annotation `kueue.x-k8s.io/admission-gated-by`",
            "never queued (reason AdmissionGated)"),
    Feature("admission-checks", "Admission checks on a ClusterQueue", MODELLED,
            "ClusterQueue `admissionChecksStrategy`",
            "prio reads no AdmissionCheck objects, so, as Kueue does with checks that do not exist, the ClusterQueue "
            "is inactive (reason Suspended)"),
    Feature("thrashing", "Preemption thrashing (kueue#13662)", MODELLED, "-",
            "replayed as Kueue does it, up to the 200-cycle limit, and said in a note"),
    Feature("hold-and-drain", "Draining a stopped queue", NOTED, "`stopPolicy: HoldAndDrain` on a queue with running "
            "workloads",
            "the drain evicts them outside the scheduler; prio holds the queue and keeps them running"),
    Feature("deactivated", "Deactivated workloads", MODELLED, "Workload `spec.active: false`",
            "never queued: reason Deactivated, message \"The workload is deactivated\"; a running one gives its "
            "quota back before cycle 1"),
    Feature("deactivated-running", "Evicting a deactivated running workload", NOTED,
            "Workload `spec.active: false` with `status.admission`",
            "Kueue's eviction happens outside the scheduler; prio frees the quota before cycle 1"),
    Feature("finished", "A finished workload", NOTED, "Workload condition `Finished=True`",
            "Kueue holds no quota for it and never queues it (its cache counts it as finished alone): it is left out "
            "of the replay, whatever its admission and priority class"),
    Feature("backoff", "A requeue backoff", NOTED,
            "Workload condition `Requeued=False`, or `status.requeueState.requeueAt` after the replay starts",
            "Kueue sets the workload aside until its backoff ends and the Requeued condition is True again; prio "
            "queues it from the first cycle"),
    Feature("evicting", "An eviction in progress", NOTED,
            "Workload condition `Evicted=True` while `QuotaReserved=True`",
            "Kueue keeps its quota until its pods stop, then queues it again, and picks it first among preemption "
            "candidates; prio keeps it running through the replay"),
    Feature("max-execution-time", "Maximum execution time", NOTED, "Workload `spec.maximumExecutionTimeSeconds`",
            "nothing finishes during a replay"),
    Feature("wait-for-pods-ready", "waitForPodsReady", NOTED, "Configuration `waitForPodsReady`",
            "every admitted workload's pods are taken as ready at once: no eviction, no blocking admission"),
    Feature("admission-fair-sharing", "Admission fair sharing", NOTED,
            "Configuration `admissionFairSharing`; ClusterQueue `admissionScope`",
            "LocalQueue usage does not reorder a ClusterQueue's queue (a LocalQueue's `fairSharing` weighs only there)"),
    Feature("concurrent-admission", "Concurrent admission", NOTED, "ClusterQueue `concurrentAdmissionPolicy`",
            "workload variants are not replayed"),
    Feature("feature-gates", "Feature gates", NOTED, "Configuration `featureGates`",
            "prio replays Kueue's default gates at its commit"),
    Feature("configuration", "Other Configuration fields", NOTED, "Configuration fields other than `fairSharing`",
            "not read"),
    Feature("tas", "Topology-aware scheduling", MODELLED,
            "`Topology` `levels`, ResourceFlavor `topologyName`, Workload `podSets[].topologyRequest` (`required`, "
            "`preferred`, `unconstrained`), a running Workload's `topologyAssignment` (the v1beta2 slices), `Node` labels, "
            "`status.allocatable` and taints",
            "domains chosen as Kueue's tas package does (BestFit for required and preferred levels, least free capacity "
            "for unconstrained ones, a preferred level falling back to the levels above), with Kueue's messages; "
            "derived from Kueue's code, no recorded corpus holds it"),
    Feature("tas-other-pods", "Other pods on topology nodes", NOTED, "`Node` objects of a TAS flavor",
            "static and DaemonSet pods are not read: a node's free capacity is its allocatable less the topology "
            "assignments of admitted workloads"),
    Feature("tas-annotations", "Topology annotations on a Workload's pod template", NOTED,
            "pod template annotations `kueue.x-k8s.io/podset-required-topology`, `podset-preferred-topology`, "
            "`podset-unconstrained-topology` without `topologyRequest`",
            "Kueue's job integration turns them into the Workload's topologyRequest; its scheduler reads only the "
            "field, so the pod set is placed without a topology, as here"),
    Feature("tas-slices", "TAS slices and pod set groups", REFUSED,
            "Workload `topologyRequest` `podSetSliceRequiredTopology`, `podSetSliceSize`, "
            "`podsetSliceRequiredTopologyConstraints`, `podSetGroupName`",
            "topology slices and leader/worker pod set groups are not modelled by prio"),
    Feature("admission-check-objects", "Admission check controllers", REFUSED,
            "`AdmissionCheck`, `ProvisioningRequestConfig` objects", "admission check controllers are not modelled by prio",
            ("AdmissionCheck", "ProvisioningRequestConfig")),
    Feature("multikueue", "MultiKueue", REFUSED, "`MultiKueueConfig`, `MultiKueueCluster` objects",
            "MultiKueue is not modelled by prio", ("MultiKueueConfig", "MultiKueueCluster")),
)
BY_ID = {f.id: f for f in FEATURES}
REFUSED_KINDS = {k: f.id for f in FEATURES if f.status == REFUSED for k in f.kinds}


def note(feature_id: str, where: list) -> str:
    """The note said when an input uses a noted feature: where (the objects, the first few
    named), which feature, what prio does."""
    f = BY_ID[feature_id]
    shown = ", ".join(where[:3]) + (f" and {len(where) - 3} more" if len(where) > 3 else "")
    return f"{shown}: {f.name.lower()} is not replayed: {f.what}"


def refusal(feature_id: str) -> str:
    """The one line that refuses an input using a refused feature."""
    f = BY_ID[feature_id]
    return f"{f.what} ({f.fields.replace('`', '')}); remove it to replay the rest"


def markdown_table() -> str:
    """docs/kueue.md's table of features."""
    rows = ["| feature | prio | where | what prio does |", "|---|---|---|---|"]
    for f in FEATURES:
        rows.append(f"| {f.name} | {f.status} | {f.fields} | {f.what} |")
    return "\n".join(rows) + "\n"
