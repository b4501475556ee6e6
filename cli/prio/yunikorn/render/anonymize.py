"""`prio snapshot --anonymize`: one renaming of every name the snapshot file holds, the same in the
queue config and in the pending work, that changes no answer.

What is renamed, and how (the README's snapshot section says the same for users):

- applications `app-NN`, their asks and running allocations `app-NN-MM` (one numbering per
  application), nodes `node-NN`;
- queues, users and groups share one numbering, `nNN`: a placement rule turns a user's name into
  a queue's (`user`), an application's queue into a queue (`provided`), and a user without groups
  is a member of the group named as the user, so one original name must stay one new name across
  the three. `default` (root.default takes what no rule placed) and `testuser` (the user of an
  application that names none) keep their names, and the new names sort around them (`c1`
  below `default`, `n9` above). Queue names are compared as YuniKorn compares them (lowercased, a user's `.` as
  `_dot_`); names that differ only in case get new names that differ only in case.

Every kind is numbered in the sorted order of its original names, zero-padded, so the new names
sort as the old ones did and every tie broken by name breaks the same way. Numbers (priorities,
resources, times, limits) and every order in the file are kept. Filters: a list keeps its length
(an entry that is no valid name stays one, as `-`); a regular expression becomes the alternation
of the new names of the users (or groups) in the snapshot it matched, so it matches exactly what
it matched before. ACLs keep their shape with their users and groups renamed. Comments, the
`limit` descriptions, the checksum and keys YuniKorn does not know are dropped.

Kept: partition names, resource types, property names and values, PriorityClass names, tag rule
values (a tag's key; prio never matches tag rules), `root` and the `*` wildcards.

Pure: names in, names out (the YAML node tree is pyyaml's, no I/O)."""
from __future__ import annotations

import itertools
import re

import yaml

from prio.yunikorn.placement import DEFAULT_QUEUE, GROUP_NAME, USER_NAME, expression, matcher
from prio.yunikorn.ugm import user_groups

_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
NEVER = "a^"  # a regular expression (for Go and Python alike) that matches no name


def queue_form(name: str) -> str:
    """A user's or group's name as a queue name (the user rule's replaceDot)."""
    return name.replace(".", "_dot_")


class Names:
    """The renaming. Off: every method returns its argument. On: `see_*` first (every name of
    every kind, from the config and the snapshot), then `freeze()`, then the lookups."""

    def __init__(self, enabled: bool = False, keep_queues: bool = False, keep_nodes: bool = False):
        self.on = enabled
        self.keep_queues = keep_queues
        self.keep_nodes = keep_nodes
        self._apps: set = set()
        self._asks: dict = {}
        self._nodes: set = set()
        self._forms: dict = {}  # lowercased queue form -> the exact forms seen
        self._queue_keys: set = set()  # keys seen as queue names (kept with keep_queues)
        # names that stay whatever the options: root.default, where an application no rule placed goes
        self._fixed: set = {DEFAULT_QUEUE.split(".")[-1]}
        self.relative_is_one = False  # a relative queue is one name (placement rules), not a path
        self.apps: dict = {}
        self.asks: dict = {}
        self.nodes: dict = {}
        self.shared: dict = {}  # exact queue form -> new name
        self._users: set = set()  # users and groups as given, for filters and messages
        self._groups: set = set()

    # ---- seeing ------------------------------------------------------------------------------
    def see_app(self, app: str) -> None:
        self._apps.add(app)

    def see_ask(self, app: str, key: str) -> None:
        self._apps.add(app)
        self._asks.setdefault(app, set()).add(key)

    def see_node(self, name: str) -> None:
        if name:
            self._nodes.add(name)

    def _see_form(self, form: str, queue: bool = False) -> None:
        if not form or form == "*":
            return
        self._forms.setdefault(form.lower(), set()).add(form)
        if queue:
            self._queue_keys.add(form.lower())

    def keep(self, name: str) -> None:
        """A name that must stay as it is (the user YuniKorn assumes for an application without one)."""
        self._fixed.add(queue_form(name).lower())

    def see_user(self, name: str) -> None:
        if name and name != "*":
            self._users.add(name)
            self._see_form(queue_form(name))

    def see_group(self, name: str) -> None:
        if name and name != "*":
            self._groups.add(name)
            self._see_form(queue_form(name))

    def see_queue(self, path: str, relative_is_one: bool = False) -> None:
        for i, part in enumerate(_parts(path, relative_is_one)):
            if not (i == 0 and part.lower() == "root" and _absolute(path)):
                self._see_form(part, queue=True)

    def see_component(self, name: str, top: bool = False) -> None:
        if not (top and name.lower() == "root"):
            self._see_form(name, queue=True)

    # ---- numbering ---------------------------------------------------------------------------
    def freeze(self) -> Names:
        if not self.on:
            return self
        self.apps = _numbered(sorted(self._apps), "app-")
        for app, keys in self._asks.items():
            self.asks[app] = _numbered(sorted(keys), self.apps[app] + "-")
        self.nodes = {n: n for n in self._nodes} if self.keep_nodes else _numbered(sorted(self._nodes), "node-")
        kept = (self._queue_keys if self.keep_queues else set()) | (self._fixed & set(self._forms))
        base = _between(sorted(k for k in self._forms if k not in kept), sorted(kept))
        for key, forms in self._forms.items():
            if key in kept:
                self.shared.update({f: f for f in forms})
                continue
            variants = sorted(forms)
            if len(variants) == 1:
                self.shared[variants[0]] = base[key]
            else:  # differ only in case: new names that differ only in case, in the same order
                bits = max(1, (len(variants) - 1).bit_length())
                cases = sorted("".join(p) for p in itertools.product("Xx", repeat=bits))
                for f, c in zip(variants, cases):
                    self.shared[f] = f"{base[key]}-{c}"
        return self

    # ---- lookups -----------------------------------------------------------------------------
    def app(self, name: str) -> str:
        return self.apps.get(name, name) if self.on else name

    def ask(self, app: str, key: str) -> str:
        return self.asks.get(app, {}).get(key, key) if self.on else key

    def node(self, name: str) -> str:
        return self.nodes.get(name, name) if self.on else name

    def _form(self, form: str) -> str:
        if form in ("", "*"):
            return form
        return self.shared.get(form, form)

    def user(self, name: str) -> str:
        if not self.on or name in ("", "*"):
            return name
        new = self._form(queue_form(name))
        return name if new == queue_form(name) else new  # kept (a queue's name): as written

    group = user

    def component(self, name: str, top: bool = False) -> str:
        if not self.on or (top and name.lower() == "root"):
            return name
        return self._form(name)

    def queue(self, path: str, relative_is_one: bool = False) -> str:
        """A queue path: absolute (root.a.b), or relative, which a `provided` rule takes as one
        name (`relative_is_one`: its dots become _dot_) and a placed application as a path."""
        if not self.on or not path:
            return path
        parts = _parts(path, relative_is_one)
        out = [p if i == 0 and p.lower() == "root" and _absolute(path) else self._form(p) for i, p in enumerate(parts)]
        return ".".join(out)

    def text(self, s: str) -> str:
        """A message (a rejection reason, a note) with every name in it renamed. A word that is
        also a name is renamed too: better an odd message than a leak."""
        if not self.on or not s:
            return s
        table = self._text_table()
        if not table:
            return s
        return self._text_re.sub(lambda m: table[m.group(0)], s)

    def _text_table(self) -> dict:
        if getattr(self, "_table", None) is None:
            table: dict = {}
            for old in self._users | self._groups:
                table[old] = self.user(old)
            table.update({f: n for f, n in self.shared.items()})
            table.update(self.nodes)
            for per in self.asks.values():
                table.update(per)
            table.update(self.apps)
            table = {k: v for k, v in table.items() if k and k != v}
            self._table = table
            if table:
                alts = "|".join(re.escape(k) for k in sorted(table, key=lambda k: (-len(k), k)))
                self._text_re = re.compile(rf"(?<![\w-])(?:{alts})(?![\w-])")
        return self._table

    # ---- filters -----------------------------------------------------------------------------
    def filter_entries(self, entries: list, groups: bool, candidates) -> list:
        """A placement filter's users or groups, renamed so they match what they matched."""
        valid = GROUP_NAME if groups else USER_NAME
        if expression(entries) is not None:
            match = matcher(entries, valid)
            hits = sorted({self.user(c) for c in candidates if match(c)})
            if not hits:
                return [NEVER]
            return ["^(?:" + "|".join(re.escape(h) for h in hits) + ")$"]
        return [self.user(e) if valid.fullmatch(e) else "-" for e in entries]


def _absolute(path: str) -> bool:
    return path.lower() == "root" or path.lower().startswith("root.")


def _parts(path: str, relative_is_one: bool) -> list:
    if relative_is_one and not _absolute(path):
        return [queue_form(path)]
    return path.split(".")


_LETTERS = "nmlkjihgfedcbaopqrstuvwxyz"  # n first, then the nearest


def _between(keys: list, kept: list) -> dict:
    """New names for `keys` (sorted) that sort among the `kept` names (sorted) as the keys did:
    a letter and the rank (`n07`); with kept names, each run of keys between two kept names takes
    a letter between theirs (`c01` below `default`, `n05` above it), or, when no letter fits,
    the kept name below it and `-n` (`alice-n02`), so nothing can take a kept name."""
    width = len(str(max(len(keys), 1)))
    runs: dict = {}
    for i, key in enumerate(keys, 1):
        k = sum(1 for x in kept if x < key)
        runs.setdefault(k, []).append((i, key))
    out = {}
    for k, run in runs.items():
        lo, hi = (kept[k - 1] if k else None), (kept[k] if k < len(kept) else None)
        fit = [c for c in _LETTERS if (lo is None or lo[:1] < c) and (hi is None or c < hi[:1])]
        prefix = fit[0] if fit else (lo + "-n" if lo is not None else "_n")
        out.update({key: f"{prefix}{i:0{width}d}" for i, key in run})
    if set(out.values()) & set(kept):  # a kept name shaped like a new one: the longer, safe form
        out = {key: f"{(kept[k - 1] + '-n') if k else '_n'}{i:0{width}d}"
               for i, key in enumerate(keys, 1) for k in [sum(1 for x in kept if x < key)]}
    return out


def _numbered(names: list, prefix: str) -> dict:
    width = len(str(max(len(names), 1)))
    return {n: f"{prefix}{i:0{width}d}" for i, n in enumerate(names, 1)}


def filter_candidates(apps) -> tuple[set, set]:
    """The users and groups a placement filter is asked about: each application's user ("" when
    none), and the groups YuniKorn knows that user by."""
    users, groups = set(), set()
    for a in apps:
        user = a.user or ""
        users.add(user)
        if user:
            groups.update(user_groups(user, a.groups))
    return users, groups


# ---- the queue config -----------------------------------------------------------------------

def config(text: str, names: Names, candidates=(set(), set())) -> str:
    """The queue config (its first YAML document) with every name renamed, comments dropped."""
    root = parse_config(text)
    if root is None:
        return text
    _Walk(names, rewrite=True, candidates=candidates).root(root)
    return yaml.serialize(root, Dumper=yaml.SafeDumper, allow_unicode=True, width=120)


def parse_config(text: str):
    """The first document's node tree, every alias made a copy of its own (each place is then
    renamed for what it is), or None when the text is no YAML mapping."""
    try:
        for node in yaml.compose_all(text, Loader=yaml.SafeLoader):
            return _unshare(node) if isinstance(node, yaml.MappingNode) else None
    except yaml.YAMLError:
        return None
    return None


def see_config(node, names: Names) -> None:
    _Walk(names, rewrite=False).root(node)


def _unshare(node):
    if isinstance(node, yaml.MappingNode):
        return yaml.MappingNode(node.tag, [(_unshare(k), _unshare(v)) for k, v in node.value], node.start_mark,
                                node.end_mark, node.flow_style)
    if isinstance(node, yaml.SequenceNode):
        return yaml.SequenceNode(node.tag, [_unshare(v) for v in node.value], node.start_mark, node.end_mark,
                                 node.flow_style)
    return yaml.ScalarNode(node.tag, node.value, node.start_mark, node.end_mark, node.style)


# Per mapping kind: what each known key holds. Keys not listed are dropped when renaming.
_KEYS = {
    "root": {"partitions": "partitions"},
    "partition": {"name": None, "queues": "queues", "placementrules": "rules", "limits": "limits",
                  "preemption": None, "nodesortpolicy": None, "usergroupresolver": None},
    "queue": {"name": "queue-name", "parent": None, "resources": None, "maxapplications": None, "properties": None,
              "adminacl": "acl", "submitacl": "acl", "childtemplate": None, "queues": "children", "limits": "limits"},
    "rule": {"name": None, "create": None, "value": "rule-value", "parent": "rule", "filter": "filter"},
    "filter": {"type": None, "users": "filter-users", "groups": "filter-groups"},
    "limit": {"limit": "description", "users": "limit-names", "groups": "limit-names", "maxresources": None,
              "maxapplications": None},
}


class _Walk:
    def __init__(self, names: Names, rewrite: bool, candidates=(set(), set())):
        self.n = names
        self.rewrite = rewrite
        self.users, self.groups = candidates

    def root(self, node) -> None:
        self._mapping(node, "root", top=False)

    def _pairs(self, node):
        """A mapping's (key, value) pairs, those of `<<` merges included."""
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.tag == _MERGE:
                for m in (v.value if isinstance(v, yaml.SequenceNode) else [v]):
                    if isinstance(m, yaml.MappingNode):
                        yield from self._pairs(m)
            else:
                yield k, v

    def _mapping(self, node, kind: str, top: bool = False, rule_kind: str = "") -> None:
        if not isinstance(node, yaml.MappingNode):
            return
        if kind == "rule":
            for k, v in self._pairs(node):
                if isinstance(k, yaml.ScalarNode) and k.value == "name" and isinstance(v, yaml.ScalarNode):
                    rule_kind = v.value.lower()
        keys = _KEYS[kind]
        keep = []
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.tag == _MERGE:
                for m in (v.value if isinstance(v, yaml.SequenceNode) else [v]):
                    self._mapping(m, kind, top, rule_kind)
                keep.append((k, v))
                continue
            key = k.value if isinstance(k, yaml.ScalarNode) else None
            if key not in keys:
                continue  # dropped (only when rewriting: the node is left as it is otherwise)
            keep.append((k, v))
            self._value(keys[key], v, top, rule_kind)
        if self.rewrite:
            node.value = keep

    def _value(self, what, v, top: bool, rule_kind: str) -> None:
        if what is None:
            return
        if what in ("partitions", "queues", "children", "rules", "limits"):
            item = {"partitions": "partition", "queues": "queue", "children": "queue", "rules": "rule",
                    "limits": "limit"}[what]
            for x in (v.value if isinstance(v, yaml.SequenceNode) else []):
                self._mapping(x, item, top=(what == "queues"))
        elif what == "rule":
            self._mapping(v, "rule")
        elif what == "filter":
            self._mapping(v, "filter")
        elif isinstance(v, yaml.SequenceNode):
            self._list(what, v)
        elif isinstance(v, yaml.ScalarNode):
            self._scalar(what, v, top, rule_kind)

    def _set(self, node, value: str) -> None:
        if self.rewrite and value != node.value:
            node.value = value
            node.tag = _STR

    def _scalar(self, what: str, v, top: bool, rule_kind: str) -> None:
        n, s = self.n, v.value
        if what == "queue-name":
            n.see_component(s, top) if not self.rewrite else self._set(v, n.component(s, top))
        elif what == "rule-value":
            if rule_kind == "fixed":
                n.see_queue(s) if not self.rewrite else self._set(v, n.queue(s))
            elif rule_kind != "tag":
                self._set(v, "")  # no other rule reads its value
        elif what == "acl":
            self._acl(v)
        elif what == "description":
            self._set(v, "limit" if s else s)
        else:  # a single name where a list belongs: renamed as one
            n.see_user(s) if not self.rewrite else self._set(v, n.user(s))

    def _list(self, what: str, v) -> None:
        entries = [x for x in v.value if isinstance(x, yaml.ScalarNode)]
        if len(entries) != len(v.value):
            return
        n = self.n
        if what in ("filter-users", "filter-groups"):
            groups = what == "filter-groups"
            valid = GROUP_NAME if groups else USER_NAME
            values = [x.value for x in entries]
            if not self.rewrite:
                if expression(values) is None:
                    for e in values:
                        if valid.fullmatch(e):
                            n.see_user(e)
                return
            new = n.filter_entries(values, groups, self.groups if groups else self.users)
            for x, val in zip(entries, new):
                self._set(x, val)
            return
        for x in entries:  # limits: users, groups ("*" stays)
            n.see_user(x.value) if not self.rewrite else self._set(x, n.user(x.value))

    def _acl(self, v) -> None:
        """`users groups`: comma-separated lists split at the spaces, as YuniKorn splits them."""
        parts = [p.split(",") for p in v.value.split(" ")]
        if not self.rewrite:
            for p in parts:
                for e in p:
                    self.n.see_user(e)
            return
        self._set(v, " ".join(",".join(self.n.user(e) for e in p) for p in parts))
