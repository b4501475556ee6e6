"""YuniKorn's scheduling, modelled purely: the queue config and tree, the snapshot of pending
and running work, the priority engine (what each queue reports, the order asks are tried),
placement rules, preemption, explanations and diffs of two runs. No I/O, printing or YAML: the
loaders build its inputs and the renderers show its results; of prio it uses only `kube`,
`values` and `errors`."""
