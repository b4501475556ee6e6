"""The choices Armada's options take (--armada-decay, --armada-weighting, --armada-model): apart
from the model so that checking them (every explain and simulate run) makes none of its
dataclasses."""
from __future__ import annotations

DECAY_CODE = "code"
DECAY_DOCUMENT = "document"
WEIGHTING_CURRENT = "current"
WEIGHTING_LEGACY = "legacy"
DECAYS = (DECAY_CODE, DECAY_DOCUMENT)
WEIGHTINGS = (WEIGHTING_CURRENT, WEIGHTING_LEGACY)
MODELS = ("current", "legacy")  # Armada's schedulers: DRF fair share (today), usage decay (up to 2022)
