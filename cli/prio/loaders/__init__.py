"""Loaders: turn parsed input documents (files, REST responses, a live YuniKorn) into the models
of `yunikorn` and `kube` (config, snapshot) and gather a command's inputs.
Edges: no printing, and no lint rule (the command runs those on what they read)."""
