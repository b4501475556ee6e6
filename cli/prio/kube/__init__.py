"""Kubernetes itself, as pure data and functions: PriorityClasses (the dataclass, the built-in
system classes, admission's resolution of a pod's priority), resource quantities, and the
ConfigMaps the YuniKorn shim reads. Both schedulers' models build on it; it imports nothing of
prio, so what Kubernetes says about a PriorityClass is said here and nowhere else."""
