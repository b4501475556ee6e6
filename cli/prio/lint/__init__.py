"""Validation (`prio validate`): the rule registry, the rules (`rules`), the JSON Schema check,
suppressions and settings, and the pipeline that reads files into units, runs the checks and
returns a Report of findings (`runner`). It reads documents with `io` and decodes them with the
`loaders`, reports in `prio.diagnostics` terms, and prints nothing."""
