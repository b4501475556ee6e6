"""`.prio.yaml`: which rules run, at which severity, and which paths ignore which rules (and why).

```yaml
select: [PRIO1, PRIO201]          # optional: only these rules (ids, slugs, id prefixes, ALL)
ignore: [PRIO210]                 # optional: never these
severity:                         # optional: per-rule severity overrides
  PRIO104: info
  unknown-property: error
per-path-ignores:                 # optional: each entry needs a reason
  - paths: ["vendor/**", "charts/upstream/*.yaml"]
    rules: [PRIO201]              # optional: all rules when absent
    reason: upstream chart, tracked in OPS-123
yunikornVersion: "1.8"            # optional: the YuniKorn release to judge for (default: the newest)
allow-no-rules: false             # optional: true lets select/ignore leave no rule on
```

The file is found upward from the working directory (`.prio.yaml`, then `.prio.yml`, in each
directory) up to the repository root, the first directory holding `.git` (a directory, or the
file of a worktree); outside a repository only the working directory is searched. A file planted
in a parent folder (/tmp, a home directory) therefore applies to no project below it. Or it is
given with `--config`. Settings that leave no rule on are refused (validate would check nothing
and pass) unless `allow-no-rules: true` says it is meant (prio.cli.validate_run). `paths` patterns are relative to
the directory holding the config file: `*` and `?` stay within one path segment, `**` spans
segments, a trailing `/` means everything below, and a pattern without `/` matches a file name
in any directory. Anything wrong in the file is a one-line error and exit 2: prio never guesses.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from prio.diagnostics import SEVERITIES as SEVERITY_LEVELS
from prio.lint.settings_file import CONFIG_NAMES, find, repository_root  # noqa: F401 - the search, as settings.find

KEYS = ("select", "ignore", "severity", "per-path-ignores", "yunikornVersion", "allow-no-rules")
ENTRY_KEYS = ("paths", "rules", "reason")


class SettingsError(Exception):
    """A config file prio cannot use. str() is the one-line message (without the `prio: ` prefix)."""


@dataclass(frozen=True)
class PathIgnore:
    patterns: tuple  # of the patterns as written
    rules: frozenset | None  # rule ids; None: every rule
    reason: str
    globs: tuple = ()  # of PathGlob

    def matches(self, relpath: str) -> bool:
        return any(g.match(relpath) for g in self.globs)


@dataclass
class Settings:
    path: str | None = None  # the config file, None when there is none
    base: str = "."  # the directory per-path patterns are relative to
    select: frozenset | None = None  # rule ids; None: every rule
    ignore: frozenset = frozenset()
    severity: dict = field(default_factory=dict)  # rule id -> level
    per_path_ignores: list = field(default_factory=list)
    yunikorn_version: str | None = None  # yunikornVersion: the release judged for, as written (--yunikorn-version wins)
    allow_no_rules: bool = False  # select/ignore may leave no rule on (said in the file)

    def enabled(self, rule_id: str) -> bool:
        return (self.select is None or rule_id in self.select) and rule_id not in self.ignore

    def path_ignore(self, file: str, rule_id: str) -> PathIgnore | None:
        """The first per-path ignore that covers `rule_id` in `file`."""
        if not self.per_path_ignores or file == "<stdin>":
            return None
        rel = _relative(file, self.base)
        for p in self.per_path_ignores:
            if (p.rules is None or rule_id in p.rules) and p.matches(rel):
                return p
        return None


def _relative(file: str, base: str) -> str:
    path = os.path.abspath(file)
    try:
        rel = os.path.relpath(path, os.path.abspath(base))
    except ValueError:  # another drive on Windows
        rel = path
    return rel.replace(os.sep, "/")


class PathGlob:
    """A path pattern (see the module doc) matched over `/`-separated relative paths by a set of
    positions moved one character at a time (Thompson's construction), so matching takes time
    linear in the path whatever the pattern: `**/` thirty times over a deep path is no regex
    backtracking for minutes (issue 43, item 3). No regex and no fnmatch: a class such as `[z-a]`
    is refused when read, with a message, never an internal error or a Python warning."""

    __slots__ = ("pattern", "_atoms")

    def __init__(self, pattern: str, atoms: tuple):
        self.pattern = pattern
        # each atom: (test, loops, skip): `test(c)` says whether it takes character c; a looping
        # atom takes any number of them; `skip` is how many atoms may be passed over unmatched
        self._atoms = atoms

    def _closure(self, states: set) -> set:
        todo, seen = list(states), set(states)
        while todo:
            i = todo.pop()
            if i == len(self._atoms):
                continue
            _, loops, skip = self._atoms[i]
            for j in ((i + 1,) if loops else ()) + ((i + skip,) if skip else ()):
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        return seen

    def match(self, path: str) -> bool:
        atoms, end = self._atoms, len(self._atoms)
        states = self._closure({0})
        for c in path:
            nxt = set()
            for i in states:
                if i < end:
                    test, loops, _ = atoms[i]
                    if test(c):
                        nxt.add(i if loops else i + 1)
            if not nxt:
                return False
            states = self._closure(nxt)
        return end in states


def _any(c: str) -> bool:
    return True


def _in_segment(c: str) -> bool:
    return c != "/"


def _char_class(pattern: str, body: str):
    """The test of `[body]` (`!` or `^` first negates, `a-z` a range); a bad class is an error."""
    negate = body[:1] in ("!", "^")
    if negate:
        body = body[1:]
    ranges, i = [], 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            lo, hi = body[i], body[i + 2]
            if lo > hi:
                raise SettingsError(f"bad path pattern {pattern!r}: the range {lo}-{hi} is backwards")
            ranges.append((lo, hi))
            i += 3
        else:
            ranges.append((body[i], body[i]))
            i += 1
    ranges_t = tuple(ranges)
    return lambda c: c != "/" and any(lo <= c <= hi for lo, hi in ranges_t) != negate


def glob(pattern: str) -> PathGlob:
    """A path pattern as a PathGlob (see the module doc); SettingsError for a bad one."""
    pat = pattern.replace("\\", "/")
    anywhere = "/" not in pat.rstrip("/")
    while pat.startswith("./"):
        pat = pat[2:]
    if pat.endswith("/"):
        pat += "**"
    slash = (lambda c: c == "/", False, 0)
    # a pattern without / matches a file name in any directory: an optional `anything/` first
    atoms: list = [(_any, True, 2), slash] if anywhere else []
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        if pat.startswith("**/", i):
            atoms += [(_any, True, 2), slash]  # no directory, or any number of them
            i += 3
        elif pat.startswith("**", i):
            atoms.append((_any, True, 0))
            i += 2
        elif c == "*":
            atoms.append((_in_segment, True, 0))
            i += 1
        elif c == "?":
            atoms.append((_in_segment, False, 0))
            i += 1
        elif c == "[":
            k = i + 1 + (pat[i + 1:i + 2] in ("!", "^"))
            k += pat[k:k + 1] == "]"  # a ] first is the character
            j = pat.find("]", k)
            if j == -1:
                raise SettingsError(f"bad path pattern {pattern!r}: a [ that is never closed (write [[] for the character)")
            atoms.append((_char_class(pattern, pat[i + 1:j]), False, 0))
            i = j + 1
        else:
            atoms.append(((lambda ch: lambda x: x == ch)(c), False, 0))
            i += 1
    return PathGlob(pattern, tuple(atoms))


def resolve_selectors(values, what: str, where: str = "") -> frozenset:
    """Rule ids for selectors: an id (PRIO201), a slug (offset-exceeds-system-priority), an id
    prefix (PRIO2) or ALL. An unknown selector is an error."""
    from prio.lint.rules import all_rules

    rules = all_rules()
    out: set = set()
    for v in values:
        if not isinstance(v, str) or not v.strip():
            raise SettingsError(f"{where}{what}: expected rule ids, slugs or id prefixes, found {v!r}")
        key = v.strip()
        if key.upper() == "ALL":
            out.update(rules)
            continue
        hit = [rid for rid, r in rules.items() if rid == key.upper() or r.name == key.lower()]
        if not hit:
            hit = [rid for rid in rules if rid.startswith(key.upper())] if re.fullmatch(r"[A-Za-z]+\d*", key) else []
        if not hit:
            raise SettingsError(f"{where}{what}: no rule matches {key!r} (see `prio rule` for the list)")
        out.update(hit)
    return frozenset(out)


def _list(value, what: str, where: str) -> list:
    if isinstance(value, str):
        return [s for s in re.split(r"[,\s]+", value) if s]
    if isinstance(value, list):
        return value
    raise SettingsError(f"{where}{what}: expected a list, found {type(value).__name__}")


def load(path: str | None = None, *, discover: bool = True) -> Settings:
    """The settings from `path`, or from the discovered file, or the defaults."""
    if path is None:
        path = find() if discover else None
        if path is None:
            return Settings()
        rel = os.path.relpath(path)
        if not rel.startswith(".."):
            path = rel  # shown in messages: the short form when it is below the working directory
    try:
        with open(path, "rb") as fh:
            raw = fh.read(1024 * 1024 + 1)
    except FileNotFoundError:
        raise SettingsError(f"{path}: config file not found") from None
    except OSError as e:
        raise SettingsError(f"{path}: {e.strerror or e}") from None
    if len(raw) > 1024 * 1024:
        raise SettingsError(f"{path}: config file larger than 1 MiB")
    from prio.errors import InputError
    from prio.io.source import decode

    try:
        text = decode(path, raw)  # UTF-8, or UTF-16/32 with a BOM, as every input
    except InputError as e:
        raise SettingsError(str(e)) from None
    return parse(path, text)


def parse(path: str, text: str) -> Settings:
    from prio.errors import InputError
    from prio.io import yamlnodes

    try:
        docs = yamlnodes.load(path, text)
    except InputError as e:
        raise SettingsError(str(e)) from None
    s = Settings(path=path, base=os.path.dirname(os.path.abspath(path)))
    if not docs or docs[0].data is None:
        return s
    if len(docs) > 1:
        raise SettingsError(f"{path}:{docs[1].start.line}: a config file holds one YAML document")
    doc = docs[0]

    def at(p, key=False) -> str:
        pos = doc.pos(p, "key" if key else "value")
        return f"{path}:{pos.line}:{pos.column}: " if pos else f"{path}: "

    for issue in doc.issues:
        if issue.rule == "PRIO002":
            pos = issue.pos or doc.pos(issue.path, "key")
            raise SettingsError(f"{path}:{pos.line}:{pos.column}: {issue.message}")
    data = doc.data
    if not isinstance(data, dict):
        raise SettingsError(f"{at(())}expected a mapping with {', '.join(KEYS)}")
    for k in data:
        if k not in KEYS:
            raise SettingsError(f"{at((k,), True)}unknown key {k!r}{_did_you_mean(k, KEYS)} (known: {', '.join(KEYS)})")
    if "select" in data and data["select"] is not None:
        s.select = resolve_selectors(_list(data["select"], "select", at(("select",))), "select", at(("select",)))
    if data.get("ignore") is not None:
        s.ignore = resolve_selectors(_list(data["ignore"], "ignore", at(("ignore",))), "ignore", at(("ignore",)))
    sev = data.get("severity")
    if sev is not None:
        if not isinstance(sev, dict):
            raise SettingsError(f"{at(('severity',))}severity: expected a mapping of rule to error, warning or info")
        for k, level in sev.items():
            if level not in SEVERITY_LEVELS:
                raise SettingsError(f"{at(('severity', k))}severity of {k}: expected error, warning or info, found {level!r}")
            for rid in resolve_selectors([k], "severity", at(("severity", k), True)):
                s.severity[rid] = level
    if data.get("yunikornVersion") is not None:
        from prio.backends import yunikorn_releases

        releases = yunikorn_releases()
        raw = doc.raw(("yunikornVersion",))  # as written: 1.10 is not the number 1.1
        if isinstance(data["yunikornVersion"], (dict, list)) or releases.get(raw) is None:
            raise SettingsError(f"{at(('yunikornVersion',))}yunikornVersion: expected one of {', '.join(releases.NAMES)}, found {raw or data['yunikornVersion']!r}")
        s.yunikorn_version = raw
    allow = data.get("allow-no-rules")
    if allow is not None:
        if not isinstance(allow, bool):
            raise SettingsError(f"{at(('allow-no-rules',))}allow-no-rules: expected true or false, found {allow!r}")
        s.allow_no_rules = allow
    ppi = data.get("per-path-ignores")
    if ppi is not None:
        if not isinstance(ppi, list):
            raise SettingsError(f"{at(('per-path-ignores',))}per-path-ignores: expected a list of {{paths, rules, reason}}")
        for i, entry in enumerate(ppi):
            here = ("per-path-ignores", i)
            if not isinstance(entry, dict):
                raise SettingsError(f"{at(here)}per-path-ignores: each entry is a mapping with paths, rules and reason")
            for k in entry:
                if k not in ENTRY_KEYS:
                    raise SettingsError(f"{at(here + (k,), True)}unknown key {k!r} in a per-path ignore{_did_you_mean(k, ENTRY_KEYS)} (known: {', '.join(ENTRY_KEYS)})")
            reason = entry.get("reason")
            if not isinstance(reason, str) or not reason.strip():
                raise SettingsError(f"{at(here + ('reason',) if 'reason' in entry else here)}per-path ignore without a reason: say why these findings do not apply")
            if "paths" not in entry:
                raise SettingsError(f"{at(here)}per-path ignore without paths")
            patterns = _list(entry["paths"], "paths", at(here + ("paths",)))
            if not patterns or not all(isinstance(p, str) and p.strip() for p in patterns):
                raise SettingsError(f"{at(here + ('paths',))}paths: expected one or more path patterns")
            rules = None
            if entry.get("rules") is not None:
                rules = resolve_selectors(_list(entry["rules"], "rules", at(here + ("rules",))), "rules", at(here + ("rules",)))
            s.per_path_ignores.append(PathIgnore(tuple(patterns), rules, reason.strip(), _globs(patterns, at(here + ('paths',)))))
    return s


def _globs(patterns, where: str) -> tuple:
    try:
        return tuple(glob(p.strip()) for p in patterns)
    except SettingsError as e:
        raise SettingsError(f"{where}{e}") from None


def _did_you_mean(key, known) -> str:
    """`; did you mean 'ignore'?` for a key close to a known one (`ignores`, `per_path_ignores`)."""
    import difflib

    if not isinstance(key, str):
        return ""
    norm = {k.replace("-", "_"): k for k in known}
    close = difflib.get_close_matches(key.strip().lower().replace("-", "_"), list(norm), n=1, cutoff=0.6)
    return f"; did you mean {norm[close[0]]!r}?" if close else ""
