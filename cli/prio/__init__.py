"""prio: priority-scheduling policy analysis for YuniKorn (and Armada's legacy model)."""

__version__ = "0.1.0"
