"""MkDocs hook: the rule reference pages, generated at build time from prio's rule registry.

One page per rule (rules/PRIO131.md) from the rule's docstring, the text `prio rule PRIO131`
prints, and an index of every rule by family (rules/index.md): the site and the command read
one source and cannot disagree. Nothing is written into docs/; the pages exist only in the
build. Needs prio importable (the `docs` extra is installed beside it)."""
from __future__ import annotations

from mkdocs.structure.files import File
from prio.cli.rule import releases_of

INDENT = "    "  # a docstring's example block: lines indented by four spaces

# What each target of the registry (prio.lint.registry.TARGETS) is, in a user's words: a new
# target fails the build here (KeyError) until it is given its words.
WHERE = {
    "queues": "queue configs (queues.yaml, the YuniKorn ConfigMaps, the Helm chart's values)",
    "priorityclass": "PriorityClass manifests",
    "priorityclass-set": "PriorityClass manifests, all of one run together",
    "queues-vs-classes": "queue configs against the PriorityClasses of the same run",
    "queues-vs-snapshot": "prio snapshots against the queue configs of the same run (gang applications)",
    "pods": "`kubectl get pods` exports whose pods carry the task-groups annotation",
    "armada-queue": "Armada Queue manifests",
    "armada-scenario": "Armada scenarios (the current scheduler)",
    "kueue": "Kueue objects (ResourceFlavor, Cohort, ClusterQueue, LocalQueue, Workload, ...), one at a time",
    "kueue-set": "Kueue objects, all of one run together (with their PriorityClasses and Namespaces)",
    "volcano-set": "Volcano objects (volcano-scheduler.conf, Queue, PodGroup, PriorityClass), all of one run together",
    "configmap": "ConfigMaps the YuniKorn shim reads, or that look meant to be",
    "decoder": "any input, while its YAML is read and checked against the schema",
    "suppressions": "`# prio: ignore` comments",
    "upgrade": "queue configs under two YuniKorn releases (`prio validate --upgrade-to`)",
}


def rule_markdown(rule) -> str:
    """One rule's page: its id, slug and severity, the docstring (its indented examples as YAML
    code blocks), what it checks and how to silence it."""
    out = [f"# {rule.id} {rule.name}", "",
           f"**{rule.severity}** · family `{rule.family}` · checks {WHERE[rule.target]}", ""]
    block: list[str] = []

    def flush() -> None:
        if block:
            out.extend(["", "```yaml", *block, "```", ""])
            block.clear()

    for line in rule.doc.split("\n"):
        if line.startswith(INDENT) and line.strip():
            block.append(line[len(INDENT):])
        else:
            flush()
            out.append(line)
    flush()
    said = releases_of(rule)[1]  # what `prio rule` says of the YuniKorn releases it applies to
    if said:
        out += ["", f"Releases: {said} ([what changes by release](../yunikorn.md#what-changes-by-release))."]
    out += ["", "## Using it", "",
            f"`prio rule {rule.id}` (or `prio rule {rule.name}`) prints this page in a terminal. "
            f"`# prio: ignore[{rule.id}]` on the line silences one finding; `.prio.yaml` selects, "
            f"ignores or re-grades rules for a whole repository ([CI and pre-commit](../ci.md)).", ""]
    return "\n".join(out)


def index_markdown(rules, families) -> str:
    out = ["# Rules", "",
           f"`prio validate` reports {len(rules)} rules. Each has a stable id and slug, a severity, and a page "
           "saying what it finds, why it matters, an example that fails and the fix; `prio rule` lists "
           "them in a terminal and `prio rule ID` prints one. These pages are generated from the same "
           "docstrings.", ""]
    for family in families:
        out += [f"## {family}", "", "| rule | name | severity | summary |", "| --- | --- | --- | --- |"]
        for r in rules:
            if r.family == family:
                summary = r.summary.replace("|", "\\|")
                out.append(f"| [{r.id}]({r.id}.md) | `{r.name}` | {r.severity} | {summary} |")
        out.append("")
    return "\n".join(out)


def on_files(files, config):
    from prio.lint.rules import all_rules

    rules = list(all_rules().values())
    families = list(dict.fromkeys(r.family for r in rules))
    files.append(File.generated(config, "rules/index.md", content=index_markdown(rules, families)))
    for r in rules:
        files.append(File.generated(config, f"rules/{r.id}.md", content=rule_markdown(r)))
    return files
