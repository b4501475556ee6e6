"""How YuniKorn's decoder reads the YAML: strict keys, duplicate keys, types, documents, tags.

These findings come from the loader and the JSON Schema rather than from check functions."""
from prio.lint.registry import declare

declare("PRIO000", "unreadable-input", "error", "decoding", """
    An input prio could not check: unreadable, not YAML or JSON, not something validate checks
    (a REST dump, a snapshot, a pod list), or a directory with nothing to check in it.

    The run exits 2 and every output format records the file and the reason as an error-level
    entry, so a CI report never shows a clean run for a file nobody checked. It cannot be
    suppressed, ignored or given another severity.

    Example (fails): `prio validate rest-queues.json` (explain and simulate read REST dumps).
    Fix: follow the message; pass validate the queue configs and manifests it checks.
    """)

declare("PRIO001", "unknown-key", "error", "decoding", """
    A key that YuniKorn's strict decoder does not know.

    YuniKorn decodes queues.yaml with go-yaml's KnownFields(true): every key must be a field of
    its Go struct, spelled as the field name in lower case (maxapplications, placementrules,
    submitacl). Any other key rejects the whole configuration. Maps (properties, guaranteed,
    max, maxresources, resourceweights) accept any key.

    Example (fails):
        queues:
          - name: root
            maxApplications: 10
    Fix: spell it as YuniKorn does:
            maxapplications: 10
    """)

declare("PRIO002", "duplicate-key", "error", "decoding", """
    A mapping key given twice.

    go-yaml refuses duplicate keys in any mapping ("mapping key already defined"), so YuniKorn
    rejects the config. PyYAML and many editors silently keep the last value, which hides it.

    Example (fails):
        properties:
          priority.offset: "10"
          priority.offset: "20"
    Fix: keep one of them.
    """)

declare("PRIO003", "wrong-type", "error", "decoding", """
    A value of the wrong kind: a scalar where a mapping or a list belongs, a word in a boolean,
    a negative or oversized maxapplications.

    YuniKorn's decoder cannot unmarshal it into the Go struct and rejects the config. Note that
    any scalar is fine in a string field (it keeps its raw text), booleans accept the YAML 1.1
    forms (yes/no, on/off, y/n) and maxapplications is an unsigned 64-bit integer.

    Example (fails):
        nodesortpolicy: fair
    Fix:
        nodesortpolicy:
          type: fair
    """)

declare("PRIO004", "ignored-document", "warning", "decoding", """
    A second YAML document in a queues.yaml: YuniKorn decodes only the first.

    Everything after the first `---` separator is never read or validated by YuniKorn, so
    changes made there have no effect.

    Example (warns): a file with `partitions: ...` then `---` and more partitions.
    Fix: merge the documents into one, or split them into separate files.
    """)

declare("PRIO005", "schema-violation", "error", "decoding", """
    The configuration does not match the published JSON Schema of queues.yaml.

    The schema (schemas/yunikorn-queues.schema.json) mirrors YuniKorn's config structs; a value it
    rejects is one YuniKorn's decoder rejects as well. Unknown keys are reported as PRIO001 and
    wrong types or out-of-range numbers as PRIO003; this rule is for any other kind of constraint
    (none in the schema prio ships today, which has only those two kinds).

    Example (fails, under a schema that asks for at least one partition):
        partitions: []
    Fix: follow the message; the schema can also drive your editor (docs/commands/validate.md).
    """)

declare("PRIO006", "unsupported-tag", "error", "decoding", """
    A YAML tag YuniKorn does not decode, such as !!python/object.

    YuniKorn's go-yaml decoder only knows the standard tags. prio never constructs tagged
    objects; it reads the raw text and reports the tag.

    Example (fails):
        name: !!python/object:os.system root
    Fix: remove the tag.
    """)

declare("PRIO007", "embedded-position-approximate", "info", "decoding", """
    The queues.yaml inside a ConfigMap is not a literal block (`|`), so prio cannot map lines
    inside it exactly; findings point at the ConfigMap key.

    Example (informs):
        data:
          queues.yaml: "partitions:\\n  - name: default\\n"
    Fix: write the embedded config as `queues.yaml: |` followed by the indented file.
    """)
