"""Loaders: turn parsed input documents (files, REST responses, a live YuniKorn) into the models
of `yunikorn`, `armada` and `kube` (config, snapshot, scenario) and gather a command's inputs.
Edges: no printing, and no lint rule (the command runs those on what they read)."""
