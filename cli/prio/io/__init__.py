"""Input, below the models' readers: files and stdin as text (`source`), YAML and JSON as
`Document`s with a position for every path (`yamlnodes`, `document`, `lazyjson`), what a
document is and how a file splits into units (`recognise`, `documents`), YuniKorn's REST
endpoints, HTTP, git revisions and the bundled data. It builds no scheduler model; of prio it
uses only `kube`'s ConfigMap facts, `diagnostics` and `errors`."""
