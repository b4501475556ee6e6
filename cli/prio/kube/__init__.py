"""Kubernetes itself, as pure data and functions: PriorityClasses (the dataclass, the built-in
system classes, admission's resolution of a pod's priority), resource quantities, the
ConfigMaps the YuniKorn shim reads, and the node predicates the shim runs (predicates: may this
pod go on this node, in kube-scheduler's words). Both schedulers' models build on it; it imports nothing of
prio, so what Kubernetes says about a PriorityClass is said here and nowhere else."""
