"""The Kueue objects prio reads, as the API server stores them (CRD defaults applied by the
loader). Amounts are ints in Kueue's units (`prio.kueue.quantity`); times are epoch seconds."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

# Kueue's enums (apis/kueue/v1beta2)
NEVER, LOWER_PRIORITY, LOWER_OR_NEWER_EQUAL, ANY = "Never", "LowerPriority", "LowerOrNewerEqualPriority", "Any"
STRICT_FIFO, BEST_EFFORT_FIFO = "StrictFIFO", "BestEffortFIFO"
MAY_STOP_SEARCH, TRY_NEXT_FLAVOR = "MayStopSearch", "TryNextFlavor"
DEFAULT_STRATEGIES = ("LessThanOrEqualToFinalShare", "LessThanInitialShare")


@dataclass(frozen=True)
class Quota:
    nominal: int
    borrowing_limit: int | None = None
    lending_limit: int | None = None


@dataclass
class FlavorQuotas:
    name: str
    resources: dict  # resource -> Quota


@dataclass
class ResourceGroup:
    covered: tuple
    flavors: list  # FlavorQuotas, in the order Kueue tries them


@dataclass(frozen=True)
class Taint:
    key: str
    value: str
    effect: str

    def __str__(self) -> str:
        # Kueue formats the corev1.Taint struct with %s, not Taint.ToString: the fields in order,
        # the nil TimeAdded printed as <nil> (a flavor's nodeTaints never carry one)
        return f"{{{self.key} {self.value} {self.effect} <nil>}}"


@dataclass(frozen=True)
class Toleration:
    key: str = ""
    operator: str = "Equal"
    value: str = ""
    effect: str = ""


@dataclass
class ResourceFlavor:
    name: str
    node_labels: dict = field(default_factory=dict)
    node_taints: list = field(default_factory=list)  # Taint
    tolerations: list = field(default_factory=list)  # Toleration
    topology_name: str | None = None  # topologyName: a TAS flavor


@dataclass
class Preemption:
    within_cluster_queue: str = NEVER
    reclaim_within_cohort: str = NEVER
    borrow_within_cohort: str = NEVER
    max_priority_threshold: int | None = None


@dataclass
class Fungibility:
    when_can_borrow: str = MAY_STOP_SEARCH
    when_can_preempt: str = TRY_NEXT_FLAVOR
    preference: str | None = None


@dataclass
class ClusterQueue:
    name: str
    cohort: str | None = None
    # None: no namespaceSelector (Kueue admits from no namespace); {} admits from every one
    namespace_selector: dict | None = None
    queueing_strategy: str = BEST_EFFORT_FIFO
    resource_groups: list = field(default_factory=list)
    preemption: Preemption = field(default_factory=Preemption)
    fungibility: Fungibility = field(default_factory=Fungibility)
    fair_weight: float = 1.0
    stop_policy: str = "None"
    admission_checks: tuple = ()  # admissionChecksStrategy's check names
    line: int | None = None

    def flavor_names(self) -> list:
        return [f.name for rg in self.resource_groups for f in rg.flavors]


@dataclass
class Cohort:
    name: str
    parent: str | None = None
    resource_groups: list = field(default_factory=list)
    fair_weight: float = 1.0
    declared: bool = True  # False: implied by a ClusterQueue's or Cohort's reference


@dataclass
class LocalQueue:
    namespace: str
    name: str
    cluster_queue: str
    stop_policy: str = "None"


@dataclass
class PodSet:
    name: str
    count: int
    requests: dict  # resource -> amount for one pod
    tolerations: list = field(default_factory=list)
    node_selector: dict = field(default_factory=dict)
    affinity_terms: list = field(default_factory=list)  # [[(key, operator, values)]]: required node affinity
    shape: tuple = ()  # what the pod spec is, for Kueue's scheduling equivalence hash
    min_count: int | None = None  # partial admission: the fewest pods it may be admitted with
    topology: object = None  # tas.TopologyRequest: the pod set's topologyRequest


@dataclass
class PodSetAdmission:
    name: str
    count: int
    flavors: dict  # resource -> flavor
    usage: dict  # resource -> amount (count x per pod request)
    counted: dict | None = None  # the usage the quota counts, when reclaimable pods lower it
    topology: tuple | None = None  # the topology assignment: (levels, [(values, count)]), on a TAS flavor
    per_pod: dict | None = None  # one pod's requests (what the topology assignment holds per pod)


@dataclass
class Admission:
    cluster_queue: str
    pod_sets: list  # PodSetAdmission

    def usage(self) -> dict:
        """{(flavor, resource): amount}, as Kueue's cache counts an admitted workload (worked
        out once: an admission never changes; callers only read it)."""
        return self._usage

    @cached_property
    def flavor_resources(self) -> frozenset:
        """The (flavor, resource) pairs its pod sets were given (`WorkloadUsesResources` reads them)."""
        return frozenset((f, r) for ps in self.pod_sets for r, f in ps.flavors.items())

    @cached_property
    def _usage(self) -> dict:
        out: dict = {}
        for ps in self.pod_sets:
            for res, amount in (ps.usage if ps.counted is None else ps.counted).items():
                if res in ps.flavors and amount:
                    fr = (ps.flavors[res], res)
                    out[fr] = out.get(fr, 0) + amount
        return out


@dataclass
class Workload:
    namespace: str
    name: str
    uid: str
    created: float
    queue_name: str
    pod_sets: list
    priority: int = 0
    priority_class: str | None = None
    priority_class_kind: str | None = None
    admission: Admission | None = None  # running from the start
    reserved_at: float | None = None  # QuotaReserved's lastTransitionTime
    active: bool = True
    admission_gated_by: str | None = None  # the kueue.x-k8s.io/admission-gated-by annotation
    line: int | None = None

    @cached_property
    def key(self) -> str:  # namespace and name never change: worked out once (it is asked millions of times)
        return f"{self.namespace}/{self.name}"


@dataclass
class Setup:
    """Everything one Kueue input gives: the objects, and the scheduler's options."""

    flavors: dict = field(default_factory=dict)  # name -> ResourceFlavor
    cohorts: dict = field(default_factory=dict)  # name -> Cohort (implied ones included)
    cluster_queues: dict = field(default_factory=dict)  # name -> ClusterQueue
    local_queues: dict = field(default_factory=dict)  # (namespace, name) -> LocalQueue
    namespaces: dict = field(default_factory=dict)  # name -> labels
    workloads: list = field(default_factory=list)  # Workload
    fair_sharing: bool = False
    strategies_written: list = field(default_factory=list)
    clock_start: float = 0.0
    source: str = ""
    notes: list = field(default_factory=list)  # what the input uses that prio does not replay
    topologies: dict = field(default_factory=dict)  # name -> tas.Topology
    nodes: list = field(default_factory=list)  # tas.Node
    skipped: list = field(default_factory=list)  # the objects the API server refuses, left out ("Workload ns/name")

    @property
    def strategies(self) -> tuple:
        return tuple(self.strategies_written) or DEFAULT_STRATEGIES

    def cluster_queue_of(self, wl: Workload) -> str | None:
        lq = self.local_queues.get((wl.namespace, wl.queue_name))
        return lq.cluster_queue if lq else None
