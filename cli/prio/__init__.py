"""prio: priority-scheduling policy analysis for YuniKorn (and the schedulers of prio.backends)."""

__version__ = "0.1.0"
