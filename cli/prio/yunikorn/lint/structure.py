"""Partition and queue structure: YuniKorn's validator (checkQueuesStructure, checkQueues) and the
checks it makes when it creates the partition."""
from __future__ import annotations

import re

from prio.diagnostics import Issue
from prio.lint.registry import check
from prio.yunikorn.config import queue_path
from prio.yunikorn.releases import NEWEST


@check("PRIO101", "duplicate-partition", "error", "structure")
def duplicate_partition(ctx):
    """Two partitions with the same name (compared case-insensitively).

    YuniKorn compares partition names ignoring case, after turning an empty name and any case of
    `default` into `default`, and rejects the config on a duplicate.

    Example (fails): partitions named `gpu` and `GPU`, or `""` and `default`.
    Fix: give each partition its own name.
    """
    seen = {}
    for i, p in enumerate(ctx.config.partitions):
        key = p.display_name.lower()
        if key in seen:
            yield Issue("PRIO101", p.path + ("name",), f"duplicate partition name {p.display_name!r} (same as partition #{seen[key] + 1}; names are compared case-insensitively)")
        else:
            seen[key] = i


@check("PRIO137", "no-partitions", "warning", "structure")
def no_partitions(ctx):
    """A config with no partitions at all: an empty file, only comments, or `partitions: []`.

    YuniKorn's validator accepts it (zero partitions are valid, and an empty document decodes to
    an empty config), yet it configures nothing: a scheduler handed an empty config runs its
    built-in default instead (one `default` partition, root open to everyone, applications placed
    by namespace). A CI lint that passes an empty queues.yaml hides a truncated or mis-mounted file.

    Example (warns):
        # queues.yaml
        partitions: []
    Fix: configure at least one partition:
        partitions:
          - name: default
            queues: [{name: root}]
    """
    if not ctx.config.partitions:
        yield Issue("PRIO137", (), "no partitions: YuniKorn accepts an empty config but configures nothing, "
                    "and a scheduler given an empty config runs its built-in default")


@check("PRIO102", "queues-not-set", "error", "structure")
def queues_not_set(ctx):
    """A partition without a `queues` list.

    YuniKorn rejects a partition whose queues are not set ("queue config is not set"). An empty
    list is fine: YuniKorn then inserts a root queue.

    Example (fails):
        partitions:
          - name: default
    Fix: add `queues: [{name: root}]`.
    """
    for p in ctx.config.partitions:
        if p.queues is None:
            yield Issue("PRIO102", p.path, f"partition {p.display_name!r} has no queues: YuniKorn rejects it with 'queue config is not set'")


@check("PRIO103", "root-resources", "error", "structure")
def root_resources(ctx):
    """The root queue sets guaranteed or max resources.

    Root's maximum is the cluster's capacity; YuniKorn refuses any `resources.guaranteed` or
    `resources.max` on root, even an empty map ("root queue must not have resource limits set").

    Example (fails):
        - name: root
          resources:
            max: {memory: 100Gi}
    Fix: move the limits to a child queue.
    """
    for _p, r in ctx.trees:
        if r.inserted:
            continue
        for kind in ("guaranteed", "max"):
            if getattr(r, kind) is not None:
                yield Issue("PRIO103", r.path + ("resources", kind), f"root queue must not have resource limits set ({kind}): root's max is the cluster capacity", at="key")


@check("PRIO104", "root-inserted", "warning", "structure")
def root_inserted(ctx):
    """YuniKorn inserts a root queue above the configured top-level queues.

    Unless there is exactly one top-level queue named root, YuniKorn wraps all top-level queues
    in a new `root`. With `[root, other]` that makes `root.root` and `root.other`, which is
    rarely meant (warning); a plain list of tenant queues is fine (info).

    Example (warns):
        queues:
          - name: root
          - name: other
    Fix: put `other` under root's `queues`.
    """
    for p, r in ctx.trees:
        if not r.inserted or not r.children:
            continue
        names = [q.name for q in r.children]
        if any(n.lower() == "root" for n in names):
            others = [n for n in names if n.lower() != "root"]
            fix = f"put {', '.join(f'`{n}`' for n in others)} under root's `queues`" if others else "keep a single queue named root"
            yield Issue("PRIO104", p.path + ("queues",), f"{len(names)} top-level queues: YuniKorn inserts a new root above them, so the queue named root becomes root.{[n for n in names if n.lower() == 'root'][0].lower()}", at="key", fix=fix)
        else:
            yield Issue("PRIO104", p.path + ("queues",), f"no single top-level root queue: YuniKorn inserts root above {', '.join(names)}", at="key", severity="info",
                        fix=f"nothing to do, or write the root yourself: `- name: root` with {', '.join(f'`{n}`' for n in names)} under its `queues`")


@check("PRIO105", "root-name-case", "error", "structure")
def root_name_case(ctx):
    """The top-level queue is spelled `Root` or `ROOT` instead of `root`.

    The validator accepts any case, but creating the partition looks for exactly `root` and
    fails ("partition cannot be created without root queue"): the config passes
    /ws/v1/validate-conf and then breaks the scheduler on reload.

    Example (fails): `- name: Root`
    Fix: `- name: root`
    """
    for _p, r in ctx.trees:
        if not r.inserted and r.name != "root":
            yield Issue("PRIO105", r.path + ("name",), f"top-level queue is named {r.name!r}: YuniKorn accepts it in validation but cannot create the partition without a queue named exactly 'root'")


@check("PRIO106", "invalid-queue-name", "error", "structure")
def invalid_queue_name(ctx):
    """A queue name YuniKorn does not allow.

    Names must match ^[a-zA-Z0-9_:#/@-]{1,64}$: 1 to 64 characters, letters, digits and
    - _ # @ / : only. No dots (they separate path levels), spaces or `$`.

    Example (fails): `- name: team.a`
    Fix: `- name: team-a`
    """
    rel = ctx.release
    valid = rel.queue_name_re.fullmatch
    # each name tested once: a large config repeats its leaves' names under every parent
    bad = {n for n in {q.name for _p, q, anc in ctx.queues if anc} if not valid(n)}
    if not bad:
        return
    allowed = rel.queue_name_re.pattern[:-len("{1,64}")]  # the character class
    for _p, q, anc in ctx.queues:
        if anc and q.name in bad:
            why = "it is empty" if not q.name else "it is longer than 64 characters" if len(q.name) > 64 else "it contains " + ", ".join(repr(c) for c in sorted(set(re.sub(allowed, "", q.name))))
            fixed = re.sub(allowed.replace("[", "[^", 1), "-", q.name)[:64]
            said = rel.queue_name_message if rel is NEWEST else f"YuniKorn {rel.name}: {rel.queue_name_error.format(name=q.name)}"
            yield Issue("PRIO106", q.path + ("name",), f"invalid queue name {q.name!r}: {why}; {said}",
                        fix=f"`- name: {fixed}`" if fixed.strip("-") else f"a name of letters, digits and {rel.queue_name_chars}")


@check("PRIO107", "duplicate-queue-name", "error", "structure")
def duplicate_queue_name(ctx):
    """Two sibling queues with the same name, compared case-insensitively.

    Queue paths are lowercased at runtime, so `Batch` and `batch` under one parent collide and
    YuniKorn rejects the config ("duplicate child name found").

    Example (fails): children `batch` and `Batch` of the same parent.
    Fix: rename one.
    """
    for _p, q, anc in ctx.having("children"):
        if len({c.name.lower() for c in q.children}) == len(q.children):
            continue  # (the usual case, told without a loop in Python)
        seen = {}
        for c in q.children:
            k = c.name.lower()
            if k in seen:
                yield Issue("PRIO107", c.path + ("name",), f"duplicate child name {c.name!r} under {queue_path(q, anc)} (same as {seen[k]!r}; names are compared case-insensitively)")
            else:
                seen[k] = c.name


@check("PRIO138", "parent-false-with-children", "warning", "structure")
def parent_false_with_children(ctx):
    """`parent: false` on a queue that has child queues.

    YuniKorn makes a queue with children a parent whatever the flag says (Queue.applyConf sets
    isLeaf from `parent`, then clears it when `queues` is not empty): the flag is ignored, and no
    application can be placed in the queue.

    Example (warns): `{name: a, parent: false, queues: [{name: b}]}`.
    Fix: remove `parent: false`, or move the children elsewhere if the queue is meant to be a leaf.
    """
    for _p, q, anc in ctx.having("children"):
        if q.parent_given and not q.parent and q.queues:
            yield Issue("PRIO138", q.path + ("parent",), f"queue {queue_path(q, anc)} says parent: false but has child queues: "
                        f"YuniKorn makes it a parent anyway (applications cannot be placed in it)", at="key")
