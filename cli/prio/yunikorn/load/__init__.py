"""YuniKorn's loaders: parsed input documents (a queue config or the shim's ConfigMap, a prio
snapshot, saved REST responses, kubectl exports of pods and nodes, PriorityClasses) -> the
model of prio.yunikorn (config, snapshot), every field read through `reader.Reader`; and
`assemble`, which builds the engine from a command's inputs. Edges: no printing, and no lint
rule (the command runs those on what they read). The command's inputs are gathered by
prio.loaders.inputs, which sends each YuniKorn document here."""
