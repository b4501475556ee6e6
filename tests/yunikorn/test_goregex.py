"""Go's regexp syntax as Python reads it (yunikorn/goregex.py): what YuniKorn's placement filters
match, for the syntax the two read differently."""
import warnings

import pytest

from prio.yunikorn import goregex


@pytest.mark.parametrize("go,py", [
    ("^team-.*", "^team-.*"),  # the common case: unchanged
    ("[[:alpha:]]+", "[A-Za-z]+"),  # POSIX classes: ASCII in Go
    ("[a[:digit:]_]", "[a0-9_]"),
    ("[[:^digit:]]", "[^0-9]"),
    ("[^[:space:]]", "[^\\t\\n\\v\\f\\r ]"),
    ("a\\z", "a\\Z"),  # end of text
    ("\\Qa.b*\\E+", "a\\.b\\*+"),  # literal text
    ("\\Qa.b", "a\\.b"),  # \Q to the end
    ("(?<id>x)", "(?P<id>x)"),
    ("\\x{41}\\x{1F600}", "\\U00000041\\U0001f600"),
    ("a{,2}", "a\\{,2}"),  # no repetition in Go: literal
    ("a{2}b{1,}c{1,3}", "a{2}b{1,}c{1,3}"),
    ("[[]", "[\\[]"),  # a literal [ in a bracket (Python would warn of a nested set)
    ("(?i)abc", "(?i)abc"),
])
def test_translate(go, py):
    assert goregex.translate(go) == py


@pytest.mark.parametrize("go", ["\\pL+", "\\p{Greek}", "[\\PL]", "(?U)a+", "\\C", "\\012", "[a[:^digit:]]", "[[:nope:]]",
                                "\\x{110000}", "[unclosed", "trailing\\"])
def test_what_cannot_be_said_in_python_is_none(go):
    assert goregex.translate(go) is None
    assert goregex.compile_go(go) is None


@pytest.mark.parametrize("go", ["(?=a)", "(?!a)", "(?<=a)b", "(?<!a)b", "(a)\\1", "a\\Z"])
def test_what_go_refuses(go):
    assert goregex.go_refuses(go)
    assert goregex.compile_go(go) is None


@pytest.mark.parametrize("go,name,match", [
    ("^[[:alpha:]]+$", "staff", True), ("^[[:alpha:]]+$", "staff1", False),
    ("\\d", "\u0663", False),  # Go's \d is ASCII: an Arabic-Indic digit is not one
    ("\\w+$", "caf\u00e9", False), ("^\\Qa.b\\E$", "a.b", True), ("^\\Qa.b\\E$", "axb", False),
    ("a{,2}", "a{,2}", True), ("a{,2}", "aa", False), ("x\\z", "x", True), ("^(?<g>t)eam", "team", True),
])
def test_compiled_as_go_matches(go, name, match):
    assert (goregex.compile_go(go).search(name) is not None) == match


def test_no_warning_escapes():
    """Python warns of syntax it may read otherwise one day ([[, a nested set): prio's
    compiles never print it."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert goregex.compile_go("[[:alpha:]]") is not None
        assert goregex.compile_python("[[a]") is not None
