"""JSON inputs read by the json module (io/lazyjson.py): the same data, application lines,
positions, raw texts and messages as the positional YAML pass, which runs only when a message
needs a position; texts the two could read differently take the YAML pass."""
import glob
import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builders import paths_of as _walk
from conftest import SHARED, run_cli, sample
from prio.errors import InputError
from prio.io import lazyjson, yamlnodes
from prio.yunikorn.load import native
from strategies import snapshot_documents


def _snapshots():
    files = [sample("walkthrough-asks.yaml"), sample("batch-asks.yaml"), sample("preemption-asks.yaml")]
    files += sorted(glob.glob(os.path.join(SHARED, "testdata", "yunikorn-conformance", "scheduling", "*.asks.yaml")))[:40]
    for f in files:
        yield yamlnodes.load(f, open(f, encoding="utf-8").read())[0].data




@pytest.mark.parametrize("indent", [None, 2, 1])
def test_same_data_lines_positions_and_raw_texts_as_the_yaml_pass(indent):
    seen = 0
    for data in _snapshots():
        if not isinstance(data, dict) or not data.get("applications"):
            continue
        text = json.dumps(data, indent=indent, ensure_ascii=False)
        full = yamlnodes.load("s.json", text)[0]
        lazy = lazyjson.read("s.json", text, yamlnodes.load, yamlnodes.MAX_DEPTH)
        if lazy is None:
            continue
        seen += 1
        assert lazy.data == full.data
        assert lazy.item_lines("applications") == [full.pos(("applications", i)).line for i in range(len(data["applications"]))]
        for path in _walk(data):
            assert lazy.raw(path) == full.raw(path), path
        assert lazy.index == full.index and lazy.issues == full.issues and lazy.start == full.start
    assert seen > 10


def test_item_lines_on_odd_layouts():
    text = '{"partition": "x", "nodes": [{"a": ["[", "{"]}],\n "applications"  :\n [\n  {"id": "a", "queue": "root.a",\n "asks": []},\n\n  {"id": "b",\n "queue": "root.b", "asks": [{"priority": 1}]}]}\n'
    lazy = lazyjson.read("s.json", text, yamlnodes.load, yamlnodes.MAX_DEPTH)
    full = yamlnodes.load("s.json", text)[0]
    assert lazy.item_lines("applications") == [full.pos(("applications", i)).line for i in range(2)] == [4, 7]
    text = '{"applications":\n [1,\r\n  {"id": "a"}, "x"  ,\n\n[]\n]}'
    full = yamlnodes.load("s.json", text)[0]
    assert lazyjson.read("s.json", text, yamlnodes.load, yamlnodes.MAX_DEPTH).item_lines("applications") == [full.pos(("applications", i)).line for i in range(4)] == [2, 3, 3, 5]
    assert lazyjson.read("s.json", '{"applications": [1, {"id": "a"}]}', yamlnodes.load, yamlnodes.MAX_DEPTH).item_lines("applications") == [1, 1]
    assert lazyjson.read("s.json", '{"applications": \r[1]}', yamlnodes.load, yamlnodes.MAX_DEPTH).item_lines("applications") is None  # a lone CR


@pytest.mark.parametrize("text", [
    '{"a": 1, "a": 2}', '{"a": NaN}', '{"a": 1e3}', '{"a": 1.5E+3}', '{"a": "\\ud83d\\ude00"}', '{"a":\t1}',
    '{"a"\n: 1}', '{"' + "k" * 1000 + '": 1}', '{"a": "x\x85y"}', '{"a": "x\u2028y"}', '{"a": 1}\n---\n{"b": 2}',
    '{"a": 1} # comment', '{"a": "\ufeff"}', '{"a": "\x7f"}',
    # a duplicate key where colons inside strings make up the count, nested, or a key of colons
    '{"a": "x:y", "a": 1}', '{"b": {"c": 1, "c": 2}}', '{"::": 1, "::": 2}', '[{"a": 1, "a": 1}]',
    '{"a": -2E-3}', '{"a": [1, 2e0]}', '{"a": "\u000b"}', '{"a": "x\x0cy"}', '\x0c{"a": 1}',
])
def test_texts_the_two_could_read_differently_take_the_yaml_pass(text):
    assert lazyjson.read("s.json", text, yamlnodes.load, yamlnodes.MAX_DEPTH) is None


def _load(text, lazy=True, monkeypatch=None):
    docs = yamlnodes.load_fast("s.json", text)
    return native.load("s.json", docs[0])


def test_messages_keep_line_and_column(monkeypatch):
    apps = [{"id": f"app-{i}", "queue": "root.a", "asks": [{"priority": 1}]} for i in range(30)]
    apps[17]["asks"][0]["prioritty"] = 2
    text = json.dumps({"applications": apps}, indent=2)
    assert isinstance(yamlnodes.load_fast("s.json", text)[0], lazyjson.LazyDocument)
    with pytest.raises(InputError) as lazy_err:
        _load(text)
    monkeypatch.setattr(lazyjson, "read", lambda name, text, load, max_depth: None)  # the YAML pass, as before
    with pytest.raises(InputError) as full_err:
        _load(text)
    assert str(lazy_err.value) == str(full_err.value) and ":" in str(lazy_err.value).split(" ")[0]


def test_cli_messages_and_application_lines_as_before(tmp_path, monkeypatch):
    snap = tmp_path / "s.json"
    apps = [{"id": f"app-{i}", "queue": "root.leaf", "asks": [{"priority": 1}]} for i in range(5)]
    text = json.dumps({"applications": apps}, indent=2)
    lazy_lines = [a.line for a in native.load("s.json", yamlnodes.load_fast("s.json", text)[0]).apps]
    assert lazy_lines == [a.line for a in native.load("s.json", yamlnodes.load("s.json", text)[0]).apps] == [3, 12, 21, 30, 39]
    apps[3]["asks"][0]["priority"] = "high"
    snap.write_text(json.dumps({"applications": apps}, indent=2))
    lazy = run_cli("simulate", str(snap))
    monkeypatch.setattr(lazyjson, "read", lambda name, text, load, max_depth: None)
    full = run_cli("simulate", str(snap))
    assert lazy.exit_code == full.exit_code == 2
    assert lazy.stderr == full.stderr and f"{snap}:35:23:" in lazy.stderr, lazy.stderr


@settings(max_examples=30, deadline=None)
@given(snapshot_documents(), st.sampled_from([None, 1, 3]))
def test_snapshots_are_read_here_as_the_yaml_pass_reads_them(snapshot, indent):
    """A snapshot (tests/strategies.py: applications, asks, usage, users, nodes; quantities as
    ints, floats, '500m', '1Gi', -0.0) is read here, never left to the YAML pass, and gives the
    YAML pass's data and raw texts."""
    text = json.dumps(snapshot, indent=indent)
    lazy = lazyjson.read("s.json", text, yamlnodes.load, yamlnodes.MAX_DEPTH)
    full = yamlnodes.load("s.json", text)[0]
    assert lazy is not None and lazy.data == full.data
    for path in _walk(full.data):
        assert lazy.raw(path) == full.raw(path)


@pytest.mark.parametrize("text,long", [
    ('{"a": "' + "x" * 899 + '"}', False),  # under 900: read here
    ('{"a": "' + "x" * 900 + '"}', True),
    ('{"a": "' + "\\u00f1" * 190 + '"}', True),  # 190 characters, 950 in YAML's count: the YAML pass
    ('{"a": "' + "\\u00f1" * 170 + '"}', False),  # 170 characters (searched), 850 in the text
    ('{"a": ["' + "y" * 300 + '"]}', False),
])
def test_long_strings_are_measured_in_the_text(text, long):
    """A string of 900 or more in the text (escapes counted as YAML's key limit counts them) takes
    the YAML pass; the text is searched only when the data holds a string of 150 or more."""
    lazy = lazyjson.read("s.json", text, yamlnodes.load, yamlnodes.MAX_DEPTH)
    assert (lazy is None) == long
    if lazy is not None:
        assert lazy.data == yamlnodes.load("s.json", text)[0].data


@pytest.mark.parametrize("depth", [399, 400, 401, 800])
def test_json_nested_too_deeply_is_refused_as_the_yaml_pass_refuses_it(depth):
    text = "[" * depth + "1" + "]" * depth
    assert (lazyjson.read("s.json", text, yamlnodes.load, yamlnodes.MAX_DEPTH) is None) == (depth > yamlnodes.MAX_DEPTH)
    if depth > yamlnodes.MAX_DEPTH:
        with pytest.raises(InputError) as fast:
            yamlnodes.load_fast("s.json", text)
        with pytest.raises(InputError) as full:
            yamlnodes.load("s.json", text)
        assert str(fast.value) == str(full.value) and "nested more than 400 levels" in str(fast.value)
    else:
        assert yamlnodes.load_fast("s.json", text)[0].data == json.loads(text)


def test_shape_counts_every_container_and_string():
    assert lazyjson._shape({"k" * 7: [{"a": "xyz"}, [[]]], "b": 1}) == (4, 7, 3)
    assert lazyjson._shape("plain") == (0, 5, 0)
    assert lazyjson._shape([]) == (1, 0, 0)


_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                     st.floats(allow_nan=False, allow_infinity=False, width=32),
                     st.text(st.sampled_from('ab:1eE.\\"\t\n\x7f\x85\u2028\ufeffé\U0001F600'), max_size=6))
_keys = st.text(st.sampled_from("ab:eE1é"), max_size=3)
_data = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_keys, inner, max_size=3),
                     max_leaves=12)


def _shape_by_recursion(x) -> tuple:
    """_shape's three counts the obvious way: a container is one level more than its deepest
    element, and every string, key or value, is measured."""
    if isinstance(x, str):
        return 0, len(x), 0
    if isinstance(x, dict):
        inner = [_shape_by_recursion(v) for v in x.values()]
        keys = max(map(len, x), default=0)
    elif isinstance(x, list):
        inner, keys = [_shape_by_recursion(v) for v in x], 0
    else:
        return 0, 0, 0
    return (1 + max([d for d, _, _ in inner], default=0), max([keys] + [n for _, n, _ in inner]),
            (len(x) if isinstance(x, dict) else 0) + sum(p for _, _, p in inner))


@settings(max_examples=300, deadline=None)
@given(_data)
def test_shape_walked_a_level_at_a_time_counts_what_a_recursion_counts(data):
    assert lazyjson._shape(data) == _shape_by_recursion(data)


@settings(max_examples=300, deadline=None)
@given(_data, st.sampled_from([None, 1]), st.booleans(), st.booleans())
def test_whatever_json_text_this_reads_the_yaml_pass_reads_the_same(data, indent, ascii_only, dup):
    """Read here, a text gives the data, and the raw texts, the YAML pass gives; where a key comes
    twice (json keeps the last, the YAML pass refuses it) it is not read here."""
    text = json.dumps(data, indent=indent, ensure_ascii=ascii_only)
    if dup and isinstance(data, dict) and data:
        key = json.dumps(next(iter(data)), ensure_ascii=ascii_only)
        text = text[:1] + f"{key}: 0, " + text[1:]  # the same key again, first
    lazy = lazyjson.read("s.json", text, yamlnodes.load, yamlnodes.MAX_DEPTH)
    if lazy is None:
        return
    assert not (dup and isinstance(data, dict) and data)
    full = yamlnodes.load("s.json", text)[0]
    assert lazy.data == full.data
    for path in _walk(full.data):
        assert lazy.raw(path) == full.raw(path)
