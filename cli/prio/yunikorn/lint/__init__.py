"""YuniKorn's lint rules, one module per family (and Kubernetes' PriorityClass and the shim's
ConfigMap rules, which the shim reads): each registers its checks with prio.lint.registry as it
is imported (its row of prio.backends.REGISTRY names them, in run order). `checks` registers what
validate checks of YuniKorn's documents and holds the refusal check explain and simulate run
(`config_errors`); `context` is the decoded config the queue rules read; `schema` the queue
config's JSON Schema check."""
