"""prio.io.yamlnodes: the depth check that refuses deeply nested YAML/JSON before it is parsed
(what bad input does end to end: tests/cli/test_bad_input.py), and syntax errors in plain words
with a code frame; the parse's tags are the safe loader's."""
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from prio.io import yamlnodes


def test_the_depth_check_refuses_exactly_what_its_full_count_refuses():
    """check_depth skips its line-by-line count when a cheaper over-estimate (opening brackets;
    the longest run of spaces and dashes starting a line) is within the limit: the verdicts are
    the full count's, at the limit and around it."""
    import pytest as _pytest

    from prio.errors import InputError
    from prio.io.yamlnodes import check_depth

    def refused(text, limit=10):
        try:
            check_depth("t", text, limit)
        except InputError as e:
            assert "nested more than 10 levels" in str(e)
            return True
        return False

    assert not refused("[" * 10 + "]" * 10) and refused("[" * 11 + "]" * 11)
    assert not refused("a: [1], b: {c: 2}\n" * 50)  # many brackets, one level deep
    assert not refused("# [[[[[[[[[[[[\n'[[[[[[[[[[[[': 1\n")  # in a comment and in quotes: not nesting
    block = lambda n: "".join("  " * i + f"k{i}:\n" for i in range(n))
    assert not refused(block(10)) and refused(block(11))
    assert not refused("a: |\n" + " " * 40 + "text\n")  # deep indentation, one level
    assert not refused("- " * 9 + "x\n") and refused("- " * 11 + "x\n")
    with _pytest.raises(InputError):
        check_depth("t", block(401))
    check_depth("t", block(400))


# YAML syntax errors in plain words, with the line and a caret (issue 29, item 18).

@pytest.mark.parametrize("text,line,words,frame", [
    ("partitions:\n  - name: default\n\tqueues:\n", 3, "tabs are not allowed for indentation", "    3 | →queues:\n      | ^\n"),
    # a tab before a list item or a key at the line's start: libyaml's "found character that
    # cannot start any token" names no character; the tab is the file's
    ("partitions:\n\t- name: default\n", 2, "tabs are not allowed for indentation", "    2 | →- name: default\n      | ^\n"),
    ("a:\n\tb: 1\n", 2, "tabs are not allowed for indentation", "    2 | →b: 1\n      | ^\n"),
    ("a:\n  - x\n  \t- y\n", 3, "tabs are not allowed for indentation", "    3 |   →- y\n      |   ^\n"),
    ("a: `b\n", 1, "a plain value cannot start with this character: quote the value", "    1 | a: `b\n      |    ^\n"),
    ("a: [b, c\n", 2, "a ',' or the closing ']' is missing (the list opened at line 1)", "    1 | a: [b, c\n      |    ^\n"),
    # the mapping's words once were a format string with a lone '}': an internal error
    ("a: {b: 1\n", 2, "a ',' or the closing '}' is missing (the mapping opened at line 1)", "    1 | a: {b: 1\n      |    ^\n"),
    ('a: {b: ""9""}\n', 1, "a ',' or the closing '}' is missing", '    1 | a: {b: ""9""}\n      |          ^\n'),
    ('a: "abc\n', 2, "a quoted string is never closed (it opened at line 1)", '    1 | a: "abc\n      |    ^\n'),
    ("a:\n  b: 1\n c: 2\n", 3, "this line's indentation does not match the keys above it", "    3 |  c: 2\n      |  ^\n"),
    ("a:\n  - b\n  c: 1\n", 3, "does not match the list items above it", "    3 |   c: 1\n      |   ^\n"),
    ("x: a: b\n", 1, "a value holding ': ' needs quotes", "    1 | x: a: b\n      |     ^\n"),
    ("a: *x\n", 1, "an alias (*name) with no anchor (&name)", "    1 | a: *x\n      |    ^\n"),
])
def test_syntax_errors_in_plain_words_with_a_caret(text, line, words, frame):
    from prio.errors import InputError
    from prio.io.yamlnodes import parse

    with pytest.raises(InputError) as e:
        parse("q.yaml", text)
    assert e.value.line == line and words in e.value.message, e.value.message
    assert "while " not in e.value.message and "scanning" not in e.value.message
    assert e.value.frame == frame


def test_a_syntax_error_on_the_command_line_shows_its_frame(tmp_path):
    from conftest import run_cli

    q = tmp_path / "q.yaml"
    q.write_text("partitions:\n  - name: default\n\tqueues:\n")
    for cmd in ("validate", "simulate"):
        r = run_cli(cmd, str(q))
        assert r.exit_code == 2
        assert r.stderr.startswith(f"prio: {q}:3:1: invalid YAML: tabs are not allowed for indentation: indent with spaces\n"
                                   "    3 | →queues:\n      | ^\n"), r.stderr
    r = run_cli("validate", "-o", "json", str(q))  # machine output: the message alone
    assert "tabs are not allowed" in r.stdout and "→" not in r.stdout


_SCALARS = ["1", "yes", "~", "null", "<<", "=", "1e3", "1.5", "'1'", '"yes"', "!!str 1", "!!int '7'", "2001-12-14",
            "a", "0x1F", "-.inf", "|\n      literal", "on", "'<<'", "!custom x"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_SCALARS), st.sampled_from(_SCALARS), st.booleans()), min_size=1, max_size=12))
def test_the_parse_resolves_tags_as_the_safe_loader_does(entries):
    """Tags are resolved once per distinct scalar (yamlnodes._Parser): every node gets the tag,
    value and style PyYAML's safe loader gives it, repeats and explicit tags included."""
    lines = []
    for i, (k, v, in_list) in enumerate(entries):
        lines.append(f"k{i}:" if in_list else f"k{i}: {v}")
        if in_list:
            lines += [f"  - {v}", f"  - {k}"]
    text = "\n".join(lines) + "\n"
    plain = yaml.compose_all(text, Loader=yamlnodes._Base)  # the same loader, unmemoized

    def flat(n):
        if isinstance(n, yaml.ScalarNode):
            return [(n.tag, n.value, n.style)]
        items = n.value if isinstance(n, yaml.SequenceNode) else [x for pair in n.value for x in pair]
        return [(n.tag,)] + [t for x in items for t in flat(x)]

    assert [flat(n) for n in yamlnodes.parse("t.yaml", text)] == [flat(n) for n in plain]
