"""Kueue's admission, borrowing and preemption, offline.

`model` holds the objects a user writes (ResourceFlavor, Cohort, ClusterQueue, LocalQueue,
Workload, ...) with Kueue's CRD defaults already applied by the loader; `quantity` formats
amounts as Kueue prints them; `tree` is Kueue's cache of quota and usage (resource nodes,
`available`, `potentialAvailable`, dominant resource share); `reference` is the reference
engine: Kueue's scheduling cycle (`schedule`), flavor assignment and preemption, one function
per Kueue rule, each naming the Go function it mirrors, replayed cycle by cycle as
`../shared/testdata/kueue/README.md` states. Pure: no I/O, no presentation library."""
