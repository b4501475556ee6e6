"""Validation (`prio validate`): the rule registry, loading the rules (`rules`: each scheduler's
rule modules live in its package), the JSON Schema check of manifests (`schemacheck`),
suppressions and settings, and the pipeline that reads files into units, runs the checks each
scheduler registered and returns a Report of findings (`runner`). It reads documents with `io`,
reports in `prio.diagnostics` terms, and prints nothing."""
