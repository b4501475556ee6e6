"""JSON inputs read by the json module, whatever their size, with positions only when a message
needs one.

The positional YAML pass (yamlnodes.load) costs twenty times json.loads. For JSON that both read
the same way, `read` returns the json module's data in a LazyDocument: its position index, raw
texts and decoding issues are those of the YAML pass, computed the first time anything asks
for them (an error message, a REST dump's positions), so every message keeps its line:column.
Where the two could read the text differently, `read` returns None and the caller takes the YAML
pass as before: a duplicate key (an error there, the last value in json), NaN/Infinity, a number
with an exponent (YAML 1.1 reads 1e3 as a string), a surrogate escape, a character YAML does
not allow or reads as a line break (NEL, LS, PS) or a BOM, tabs, a string of 900 characters or
more or a colon on the line after its key (YAML's implicit keys are one line, under 1024
characters), data nested deeper than the YAML pass takes (it refuses it, with the line), or any
json error (the YAML pass words it).

`item_lines` gives the line where each element of a top-level array starts without the pass
(the native snapshot records each application's line for later messages).
"""
from __future__ import annotations

import json
import re

from prio.io.document import Document

# What could make the YAML pass read a text json accepts differently, looked for with the
# cheapest search that finds it (_doubt): a character YAML does not allow or reads as a line
# break (NEL, LS, PS, a BOM) - in ASCII text json itself refuses every control character but tab
# (in a string or between tokens), so only tab and DEL are left to find -, a surrogate escape, a
# key YAML cannot take (its colon on another line). A number with an exponent (YAML 1.1 reads 1e3
# as a string) is refused by the json parse itself (_float), NaN and Infinity too (_constant).
# (the class of characters YAML allows takes 7 ms to compile: only for text that is not ASCII)
_NOT_YAML = r"[^\x0A\x0D\x20-\x7E\xA0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD\U00010000-\U0010ffff]"
_SURROGATE = re.compile(r"\\u[dD][89abAB]")
_KEY_LINE = re.compile(r'"\s*\n\s*:')
# ... or a long one: searched only where the data holds a string of LONG_DECODED characters or
# more (a raw string of 900 takes at least 150 decoded: an escape is at most six of them)
_LONG = re.compile(r'"(?:[^"\\]|\\.){900}')
LONG_DECODED = 150


class _Dup(Exception):
    pass


def _pairs(pairs):
    d = dict(pairs)
    if len(d) != len(pairs):
        raise _Dup
    return d


def _constant(name):
    raise _Dup  # NaN, Infinity: not JSON, and YAML reads them as strings


def _float(text: str) -> float:
    if "e" in text or "E" in text:
        raise _Dup  # 1e3: YAML 1.1 reads it as a string
    return float(text)


def _doubt(text: str) -> bool:
    """Whether the text holds something the two passes could read differently (see above); the
    json parse refuses the rest."""
    if "\t" in text or "\x7f" in text:
        return True
    if not text.isascii() and re.search(_NOT_YAML, text):
        return True
    if "\\u" in text and _SURROGATE.search(text):
        return True
    return "\n" in text and _KEY_LINE.search(text) is not None


class LazyDocument(Document):
    """A Document whose positions come from the YAML pass on first use."""

    deferred = True

    def __init__(self, data, name: str, text: str, load):
        self.data = data
        self._src = (name, text)
        self._load = load  # yamlnodes.load: the positional pass
        self._full = None

    def _pass(self) -> Document:
        if self._full is None:
            self._full = self._load(*self._src)[0]
        return self._full

    index = property(lambda self: self._pass().index, lambda self, v: setattr(self._pass(), "index", v))
    issues = property(lambda self: self._pass().issues, lambda self, v: setattr(self._pass(), "issues", v))
    start = property(lambda self: self._pass().start, lambda self, v: setattr(self._pass(), "start", v))

    def pos(self, path, at: str = "value"):
        return self._pass().pos(path, at)

    def raw(self, path):
        """A string's raw text is the string itself, and a non-zero integer's its digits (JSON
        writes both one way only); anything else asks the YAML pass."""
        v = self.data
        try:
            for k in path:
                v = v[k]
        except (KeyError, IndexError, TypeError):
            return self._pass().raw(path)
        if type(v) is str:
            return v
        if type(v) is int and v != 0:
            return str(v)
        return self._pass().raw(path)

    def item_lines(self, key: str) -> list | None:
        """The line of each element of the top-level object's `key` array, as the YAML pass
        would give it (where the element starts), or None when the text breaks lines with a
        lone CR (the YAML pass counts it; this counts LFs). Found by the json module's own
        scanner, an element at a time: the text was already read as JSON without a doubt
        (read), so its grammar is the json module's."""
        data = self.data
        if type(data) is not dict or type(data.get(key)) is not list:
            return None
        name, text = self._src
        n = len(data[key])
        if "\n" not in text and "\r" not in text:
            return [1] * n  # one line: machine-written JSON, as the REST API and json.dump write it
        if "\r" in text.replace("\r\n", ""):
            return None
        scan = _SCANNER.raw_decode
        ws = _WS.match
        at = ws(text, 0).end() + 1  # past the top-level "{"
        while True:
            at = ws(text, at).end()
            k, at = scan(text, at)  # a key (read() refused duplicates)
            at = ws(text, ws(text, at).end() + 1).end()  # past ":"
            if k == key:
                break
            _, at = scan(text, at)  # another key's value, whole
            at = ws(text, at).end() + 1  # past ","
        lines: list = []
        line, last = 1, 0
        at = ws(text, at + 1).end()  # past "["
        for _ in range(n):
            line += text.count("\n", last, at)
            last = at
            lines.append(line)
            _, at = scan(text, at)
            at = ws(text, ws(text, at).end() + 1).end()  # past "," (or "]" after the last)
        return lines


_SCANNER = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")


def read(name: str, text: str, load, max_depth: int) -> LazyDocument | None:
    """The document of a JSON text, or None where the YAML pass (`load`, yamlnodes.load) must
    read it (see above), and where the data is nested deeper than `max_depth` (the YAML pass
    refuses it, with the line: yamlnodes.check_depth)."""
    if _doubt(text):
        return None
    try:
        data = json.loads(text, parse_float=_float, parse_constant=_constant)
    except (ValueError, _Dup, RecursionError):
        return None
    depth, longest, pairs = _shape(data)
    if depth > max_depth or (longest >= LONG_DECODED and _LONG.search(text)):
        return None
    if pairs != text.count(":"):
        # Every pair of the text has its colon, so with no colon inside a string the counts
        # differ only where a key came twice (json keeps the last): json's hook says which.
        try:
            json.loads(text, object_pairs_hook=_pairs, parse_float=_float, parse_constant=_constant)
        except _Dup:
            return None
    return LazyDocument(data, name, text, load)


def _shape(data) -> tuple:
    """How deep the containers of `data` nest (a bracket level each: a scalar alone is 0), the
    length of its longest string, key or value, and how many key-value pairs its objects hold.
    Walked a level at a time: the depth is the number of levels, and a container is only
    collected for the next one."""
    t = type(data)
    if t is not dict and t is not list:
        return 0, len(data) if t is str else 0, 0
    depth = longest = pairs = 0
    level = [data]
    while level:
        depth += 1
        deeper: list = []
        push = deeper.append
        for x in level:
            if type(x) is dict:
                pairs += len(x)
                for k in x:
                    if len(k) > longest:
                        longest = len(k)
                x = x.values()
            for v in x:
                tv = type(v)
                if tv is str:
                    if len(v) > longest:
                        longest = len(v)
                elif tv is dict or tv is list:
                    push(v)
        level = deeper
    return depth, longest, pairs
