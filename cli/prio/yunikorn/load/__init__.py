"""YuniKorn's loaders: parsed input documents (a queue config or the shim's ConfigMap, a prio
snapshot, saved REST responses, kubectl exports of pods and nodes, PriorityClasses) -> the
model of prio.yunikorn (config, snapshot), every field read through `reader.Reader`; and
`assemble`, which builds the engine from a command's inputs. Edges: no printing, and no lint
rule (the command runs those on what they read). The command's inputs are gathered by
prio.io.gather, which hands the documents no other backend claims to `files` (the registry's
default reader), file by file: it sends each YuniKorn document to its loader, into one
`inputs.Inputs`; `live` reads a running YuniKorn's REST API into the same, `restdump` a
directory of its saved responses."""
