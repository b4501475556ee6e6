"""YAML as YuniKorn's decoder (go-yaml v3) sees it, with positions for every path.

PyYAML composes the node tree (libyaml when available); we then turn nodes into plain data
ourselves, because go-yaml differs from PyYAML's constructor in ways that matter here: duplicate
keys are errors, keys are their raw text, string fields keep a scalar's raw text, and aliases are
expanded under go-yaml's "excessive aliasing" budget. Every walk is bounded: nesting is checked on
the text before parsing (libyaml segfaults on deep nesting) and alias expansion is counted.
"""
from __future__ import annotations

import re

import yaml
from yaml.constructor import SafeConstructor

from prio.diagnostics import Issue
from prio.errors import InputError
from prio.io.document import GO_BOOL, YAML11_BOOL, Document, Entry, Pos

# go-yaml refuses more than 10,000 levels. prio stops far earlier: a queue tree 64 levels deep
# needs about 130, and Python's recursion (in the schema validator) cannot go near 10,000.
MAX_DEPTH = 400

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_resolve = _Base.resolve


class _Parser(_Base):
    """The safe loader with its tag resolution asked once per distinct scalar: without path
    resolvers (prio adds none) a node's implicit tag depends on its text and style alone, and a
    config repeats its keys and values thousands of times (a 10,000-queue file: 38,000 scalars,
    resolving them was a fifth of the parse)."""

    def __init__(self, stream):
        super().__init__(stream)
        self._tags: dict = {}

    def resolve(self, kind, value, implicit):
        if kind is not yaml.ScalarNode or self.yaml_path_resolvers:
            return _resolve(self, kind, value, implicit)
        key = (value, implicit)
        tag = self._tags.get(key)
        if tag is None:
            tag = self._tags[key] = _resolve(self, kind, value, implicit)
        return tag


_scalar = SafeConstructor()
_T = "tag:yaml.org,2002:"
_FLOW = re.compile(r"[\[\]{}]")
_LEAD = re.compile(r"^[ -]*", re.M)
_STRIP = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"\\]|\\.)*\"|#[^\n]*")


def check_depth(name: str, text: str, limit: int = MAX_DEPTH) -> None:
    """Refuse text nested deeper than `limit` before any parser recurses into it.

    Counts flow brackets outside quotes and comments, plus block indentation levels and
    compact `- - -` sequences; an over-estimate is fine, an under-estimate is not. Each count
    is skipped when a cheaper over-estimate is within the limit: the number of opening
    brackets, and the longest run of spaces and dashes that starts a line (every level of the
    block count takes a column of it), plus one.
    """
    if text.count("[") + text.count("{") > limit:
        depth = 0
        for m in _FLOW.finditer(_STRIP.sub("", text)):
            if m.group() in "[{":
                depth += 1
                if depth > limit:
                    line = text.count("\n", 0, m.start()) + 1 if depth == limit + 1 else None
                    raise InputError(name, f"YAML nested more than {limit} levels deep; prio refuses it before parsing", line)
            else:
                depth -= 1
    if max(map(len, _LEAD.findall(text)), default=0) + 1 <= limit:
        return
    stack = [-1]
    for lineno, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip(" ")
        if not stripped or stripped[0] == "#":
            continue
        indent = len(line) - len(stripped)
        while stack[-1] >= indent:
            stack.pop()
        stack.append(indent)
        dashes = 0
        while stripped.startswith("- ") or stripped == "-":
            dashes += 1
            stripped = stripped[2:].lstrip(" ")
        if len(stack) - 1 + dashes > limit:
            raise InputError(name, f"YAML nested more than {limit} levels deep; prio refuses it before parsing", lineno)


# libyaml's words for a syntax error -> what a person fixing the file needs to hear. Matched on
# the problem (and the context where it matters); `{start}` is where the unclosed thing began.
_PLAIN = (
    ("tab character that violates indentation", None, "tabs are not allowed for indentation: indent with spaces"),
    ("found character '\\t' that cannot start any token", None, "tabs are not allowed for indentation: indent with spaces"),
    ("did not find expected ',' or ']'", None, "a ',' or the closing ']' is missing (the list opened {start})"),
    ("did not find expected ',' or '}'", None, "a ',' or the closing '}}' is missing (the mapping opened {start})"),
    ("found unexpected end of stream", "quoted scalar", "a quoted string is never closed (it opened {start})"),
    ("found unexpected end of stream", None, "the file ends in the middle of a value (cut short?)"),
    ("mapping values are not allowed", None, "a ':' YAML cannot place here: a line above may lack its ':', or a value "
                                             "holding ': ' needs quotes"),
    ("did not find expected key", None, "this line's indentation does not match the keys above it"),
    ("did not find expected '-' indicator", None, "this line's indentation does not match the list items above it"),
    ("expected <block end>", None, "this line's indentation does not match the lines above it"),
    ("could not find expected ':'", None, "a key without ':' (or a value continued with the wrong indentation)"),
    ("found undefined alias", None, "an alias (*name) with no anchor (&name) defined before it"),
    ("that cannot start any token", None, "a plain value cannot start with this character: quote the value"),
)


def plain_yaml_error(e, text: str = "") -> str:
    """A PyYAML syntax error in plain words (its own words when no plainer ones are known).
    `text` is the document's: libyaml's "found character that cannot start any token" does not
    say which character, and a tab there (before `- ` or a key) is an indentation mistake."""
    problem, context = e.problem or "", e.context or ""
    if "cannot start any token" in problem and _char_at(text, e.problem_mark) == "\t":
        return _PLAIN[0][2]
    start = f"at line {e.context_mark.line + 1}" if getattr(e, "context_mark", None) is not None else "above"
    for needle, ctx, words in _PLAIN:
        if needle in problem and (ctx is None or ctx in context):
            return words.format(start=start)
    return " ".join(x for x in (context, problem) if x) or "invalid YAML"


def _char_at(text: str, mark) -> str:
    """The character of `text` at a YAML mark ('' when there is none)."""
    lines = text.splitlines()
    if mark is None or not 0 <= mark.line < len(lines) or mark.column >= len(lines[mark.line]):
        return ""
    return lines[mark.line][mark.column]


def code_frame(text: str, line: int, column: int, width: int = 100) -> str:
    """The line of `text` an error is on, numbered, and a caret under `column` (1-based); tabs
    show as '→' and other control characters as '?', so the caret stays under its character."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    src = lines[line - 1]
    col = max(column - 1, 0)
    start = max(0, col - width // 2) if len(src) > width else 0
    shown = "".join("→" if c == "\t" else "?" if (ord(c) < 32 or 127 <= ord(c) < 160) else c for c in src[start:start + width])
    gutter = f"{line:>5} | "
    return f"{gutter}{'...' if start else ''}{shown}\n{' ' * (len(gutter) - 2)}| {' ' * (col - start + (3 if start else 0))}^\n"


def parse(name: str, text: str) -> list:
    """Compose the documents of `text` into nodes. Syntax errors become InputError with a position."""
    check_depth(name, text)
    loader = _Parser(text)
    try:
        nodes = []
        while loader.check_node():
            nodes.append(loader.get_node())
        return nodes
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        msg = plain_yaml_error(e, text)
        if mark is None:
            raise InputError(name, f"invalid YAML: {msg}") from None
        err = InputError(name, f"invalid YAML: {msg}", mark.line + 1, mark.column + 1)
        at = mark
        if mark.line >= len(text.splitlines()) and e.context_mark is not None:
            at = e.context_mark  # the file ended: show where the unclosed thing began
        err.frame = code_frame(text, at.line + 1, at.column + 1)
        raise err from None
    except yaml.YAMLError as e:
        raise InputError(name, f"invalid YAML: {e}") from None
    except RecursionError:
        raise InputError(name, "YAML nested too deeply to parse") from None
    finally:
        loader.dispose()


class _AliasBudget:
    """go-yaml's excessive-aliasing check (DefaultAliasCheck): once more than 100 aliases and 1000
    decoded nodes are seen, the share of nodes reached through aliases may be 99% up to 400k
    nodes, falling linearly to 10% at 4M."""

    def __init__(self, name: str):
        self.name = name
        self.decoded = 0
        self.aliased = 0

    def ratio(self) -> float:
        if self.decoded <= 400_000:
            return 0.99
        if self.decoded >= 4_000_000:
            return 0.10
        return 0.99 - 0.89 * (self.decoded - 400_000) / 3_600_000

    def check(self, node) -> None:
        if self.aliased > 100 and self.decoded > 1000 and self.aliased / self.decoded > self.ratio():
            m = node.start_mark
            raise InputError(self.name, "document contains excessive aliasing (a YAML alias bomb?); refused as YuniKorn's decoder refuses it", m.line + 1, m.column + 1)


_GO_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_GO_INT = re.compile(r"^[-+]?(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|[0-9_]+)$")
_GO_NULL = ("", "~", "null", "Null", "NULL")
_GO_SPECIAL = {".inf": float("inf"), ".Inf": float("inf"), ".INF": float("inf"), "+.inf": float("inf"),
               "-.inf": float("-inf"), "-.Inf": float("-inf"), "-.INF": float("-inf")}


def go_resolve(value: str, yaml11_bools: bool = False):
    """A plain scalar resolved as go-yaml v3 resolves it for an untyped target: YAML 1.2 style
    (true/false only, no yes/on, no sexagesimal 1:30), ints as Go's ParseInt with base 0
    (0x, 0o, 0b, and a leading 0 means octal; underscores allowed), floats like 1e3.
    With `yaml11_bools`, as go-yaml v2 (sigs.k8s.io/yaml, what kubectl uses) also reads
    yes/no/on/off/y/n as booleans. Returns (tag, value)."""
    if value in _GO_NULL:
        return "null", None
    if value in GO_BOOL:
        return "bool", GO_BOOL[value]
    if yaml11_bools and value in YAML11_BOOL:
        return "bool", YAML11_BOOL[value]
    if _GO_INT.match(value) and any(c.isdigit() for c in value):
        plain = value.replace("_", "")
        sign = -1 if plain[0] == "-" else 1
        body = plain.lstrip("+-")
        try:
            if body[:2].lower() in ("0x", "0o", "0b"):
                return "int", sign * int(body, {"x": 16, "o": 8, "b": 2}[body[1].lower()])
            if len(body) > 1 and body[0] == "0":
                return "int", sign * int(body, 8)
            return "int", sign * int(body, 10)
        except ValueError:
            return "str", value
    if _GO_FLOAT.match(value):
        return "float", float(value)
    if value in _GO_SPECIAL:
        return "float", _GO_SPECIAL[value]
    if value in (".nan", ".NaN", ".NAN"):
        return "str", value  # a NaN would poison comparisons: keep the text, the schema says it is not a number
    return "str", value


def to_document(name: str, node, line_offset: int = 0, col_offset: int = 0, go: bool | str = False) -> Document:
    """Turn a composed node into plain data plus its position index, the go-yaml way.

    With `go`, plain scalars are resolved as go-yaml v3 resolves them (queue configs); with
    go="v2" as go-yaml v2 does (Kubernetes manifests read by kubectl); without, as PyYAML's
    YAML 1.1 resolver does (snapshots and other inputs)."""
    doc = Document(None)
    if node is None:
        return doc
    budget = _AliasBudget(name)
    seen_nodes: set[int] = set()  # nodes already walked: a second visit is an alias expansion
    index = doc.index
    issues = doc.issues
    offset = (line_offset, col_offset)
    P = lambda m: Pos(m.line + 1 + line_offset, m.column + 1 + col_offset)
    marked = Entry.marked
    doc.start = P(node.start_mark)
    # A config repeats few distinct scalars (names aside): resolve each text once per document.
    resolved: dict[str, tuple] = {}
    v2 = go == "v2"

    def walk(n, path, kmark, active):
        budget.decoded += 1
        nid = id(n)
        if nid in seen_nodes:
            budget.aliased += 1
            if nid in active:
                p = P(n.start_mark)
                raise InputError(name, "recursive alias: an anchor refers to itself", p.line, p.column)
        else:
            seen_nodes.add(nid)
        if budget.aliased > 100:
            budget.check(n)
        if isinstance(n, yaml.ScalarNode):
            tag = n.tag[len(_T):] if n.tag.startswith(_T) else n.tag
            value = n.value
            if go and not n.style and tag in ("null", "bool", "int", "float", "str", "timestamp"):
                got = resolved.get(value)
                if got is None:
                    got = resolved[value] = go_resolve(value, v2)
                index[path] = marked(n.start_mark, kmark, offset, value, got[0])
                return got[1]
            if tag == "null":
                value = None
            elif tag in ("bool", "int", "float"):
                try:
                    value = getattr(_scalar, f"construct_yaml_{tag}")(n)
                except (ValueError, IndexError, KeyError):  # `!!int` on an empty or foreign value
                    issues.append(Issue("PRIO006", path, f"{n.value!r} is not a valid !!{tag}: YuniKorn's decoder refuses it; prio reads the raw text"))
                    tag = "str"
            elif tag not in ("str", "timestamp", "binary", "merge", "value"):
                issues.append(Issue("PRIO006", path, f"unsupported YAML tag {n.tag!r}: YuniKorn's decoder does not construct it; prio reads the raw text {n.value!r}"))
                tag = "str"
            index[path] = marked(n.start_mark, kmark, offset, n.value, tag)
            return value
        active.add(nid)
        if n.tag not in (_T + "seq", _T + "map", _T + "omap", _T + "set", _T + "pairs"):
            issues.append(Issue("PRIO006", path, f"unsupported YAML tag {n.tag!r}: YuniKorn's decoder does not construct it; prio reads the plain {'list' if isinstance(n, yaml.SequenceNode) else 'mapping'}"))
        try:
            if isinstance(n, yaml.SequenceNode):
                index[path] = marked(n.start_mark, kmark, offset, None, "seq")
                return [walk(item, path + (i,), None, active) for i, item in enumerate(n.value)]
            index[path] = marked(n.start_mark, kmark, offset, None, "map")
            out: dict = {}
            first: dict = {}  # key -> the mark of its first occurrence
            merged: list = []
            for k, v in n.value:
                if k.tag == _T + "merge":
                    merged.append(v)
                    continue
                if not isinstance(k, yaml.ScalarNode):
                    issues.append(Issue("PRIO003", path, "a mapping key must be a plain scalar, found a " + ("list" if isinstance(k, yaml.SequenceNode) else "mapping")))
                    continue
                key = k.value
                km = k.start_mark
                if key in first:
                    issues.append(Issue("PRIO002", path + (key,), f"mapping key {key!r} already defined at line {P(first[key]).line}", at="key", pos=P(km)))
                    continue
                first[key] = km
                out[key] = walk(v, path + (key,), km, active)
            bad = next((k for k, _ in n.value if not isinstance(k, yaml.ScalarNode)), None) if merged else None
            if bad is not None:  # go-yaml v3.0.1's merge hashes this mapping's keys as they decode, as Go values
                doc.merge_panics.append((path, "[]interface {}" if isinstance(bad, yaml.SequenceNode) else "map[string]interface {}"))
            # `<<` merges: explicit keys win, earlier merge sources win over later ones.
            for src in merged:
                for m in (src.value if isinstance(src, yaml.SequenceNode) else [src]):
                    if not isinstance(m, yaml.MappingNode):
                        issues.append(Issue("PRIO003", path, "a << merge must name a mapping or a list of mappings"))
                        continue
                    for k, v in m.value:
                        if isinstance(k, yaml.ScalarNode) and k.tag != _T + "merge" and k.value not in out:
                            first[k.value] = k.start_mark
                            out[k.value] = walk(v, path + (k.value,), k.start_mark, active)
            return out
        finally:
            active.discard(nid)

    try:
        doc.data = walk(node, (), None, set())
    except RecursionError:
        raise InputError(name, "YAML nested too deeply to read") from None
    return doc


def load(name: str, text: str, go: bool = False) -> list[Document]:
    """All documents of a YAML/JSON text, decoded with positions."""
    return [to_document(name, n, go=go) for n in parse(name, text)]


# JSON above this size skips the positional YAML pass: json is ~50x faster on a million asks.
FAST_JSON_BYTES = 2 * 1024 * 1024


def json_error(e, text: str) -> str:
    """json's error in plain words: text that stops inside a value is "cut short" (a truncated
    download or file), anything else is invalid JSON, at line:column when there is no other
    position (json's "Unterminated string starting at" names where the string began)."""
    if e.msg.startswith("Unterminated string") or e.pos >= len(text.rstrip()):
        return f"JSON cut short: it ends after {len(text)} characters, inside a value (a truncated file or download?)"
    return f"invalid JSON: {e.msg.replace(' starting at', '')} (line {e.lineno} column {e.colno})"


def too_many_digits(name: str, text: str) -> InputError:
    """The error for a number too long to read, at its line."""
    import re

    m = re.search(r"[0-9]{4000}", text)
    line = text.count("\n", 0, m.start()) + 1 if m else None
    return InputError(name, "a number of thousands of digits: out of range for any value prio reads", line)


def load_fast(name: str, text: str) -> list[Document]:
    """Like load(), but large JSON goes through the json module: no positions (errors then name
    the path instead of a line) and, as with Go's encoding/json, a duplicate key keeps the last
    value instead of being reported."""
    head = text.lstrip()[:1]
    if len(text) >= FAST_JSON_BYTES and head in ("{", "["):
        import json

        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise InputError(name, json_error(e, text), e.lineno, e.colno) from None
        except RecursionError:
            raise InputError(name, "JSON nested too deeply") from None
        except ValueError:  # past Python's 4300 digits: out of range for anything prio reads
            raise too_many_digits(name, text) from None
        return [Document(data)]
    if head in ("{", "["):  # smaller JSON: the json module too, positions when a message needs one
        from prio.io import lazyjson

        doc = lazyjson.read(name, text, load, MAX_DEPTH)
        if doc is not None:
            return [doc]
    return load(name, text)  # (which refuses text nested too deeply first: check_depth)
