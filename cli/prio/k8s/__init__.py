"""Kubernetes priority: PriorityClass resolution (as the Priority admission plugin does it)."""
