"""How YuniKorn's decoder reads the YAML: strict keys, duplicate keys, types, documents, tags.

These findings come from the loader and the JSON Schema rather than from check functions, and,
for a release older than the newest (--yunikorn-version), from `release_issues`."""
from prio.diagnostics import Issue, format_path
from prio.lint.registry import declare
from prio.yunikorn import releases

# The Go struct that holds each partition key only some releases know, as their decoder names it.
_GO_TYPE = {releases.QUOTA_SWITCH: "PartitionPreemptionConfig", releases.RESOLVER: "PartitionConfig"}


def release_issues(doc, release) -> list:
    """What `release`'s decoder refuses that the newest's reads: a partition key its structs do not
    have (PRIO001: strict decoding refuses the whole config), and a << merge its YAML library
    panics on (PRIO003)."""
    out = []
    parts = doc.data.get("partitions") if isinstance(doc.data, dict) else None
    for i, part in enumerate(parts if isinstance(parts, list) else ()):
        for where, key in releases.QUOTA_SWITCH, releases.RESOLVER:
            holder = part.get(where) if where and isinstance(part, dict) else part
            if (where, key) in release.partition_keys or not isinstance(holder, dict) or key not in holder:
                continue
            path = ("partitions", i) + ((where,) if where else ())
            since = releases.span([r.name for r in releases.RELEASES.values() if (where, key) in r.partition_keys])
            out.append(Issue("PRIO001", path + (key,), f"unknown key {key!r} in {format_path(path)}: YuniKorn {release.name}'s strict "
                             f"decoder rejects the config (field {key} not found in type configs.{_GO_TYPE[where, key]}); "
                             f"YuniKorn {since} read{'s' if ' ' not in since else ''} it", at="key",
                             fix=f"remove `{key}`, or run YuniKorn {since}"))
    if release.merge_key_panics:
        out += [Issue("PRIO003", path, f"a << merge into a mapping with a key that is not a scalar: YuniKorn {release.name}'s YAML "
                      f"library (gopkg.in/yaml.v3 v3.0.1) panics on it (runtime error: hash of unhashable type {go_type}): the "
                      "scheduler dies, and the admission webhook's check fails", fix="write the keys out instead of merging them, with scalar keys only")
                for path, go_type in doc.merge_panics]
    return out

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

    Not reported for a ConfigMap in JSON (`kubectl get configmap -o json`): JSON has no literal
    block, every value is a quoted string.
    """)
