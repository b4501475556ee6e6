"""prio.io.yamlnodes: the depth check that refuses deeply nested YAML/JSON before it is parsed
(what bad input does end to end: tests/cli/test_bad_input.py)."""


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
    block = lambda n: "".join("  " * i + f"k{i}:\n" for i in range(n))  # noqa: E731
    assert not refused(block(10)) and refused(block(11))
    assert not refused("a: |\n" + " " * 40 + "text\n")  # deep indentation, one level
    assert not refused("- " * 9 + "x\n") and refused("- " * 11 + "x\n")
    with _pytest.raises(InputError):
        check_depth("t", block(401))
    check_depth("t", block(400))
