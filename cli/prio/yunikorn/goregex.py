"""Go's regular expressions (package regexp, RE2 syntax) as Python's re can read them: YuniKorn
compiles a placement filter's one-entry expression with regexp.Compile and matches it unanchored
(MatchString). Pure.

The two syntaxes mostly agree; where they do not, `translate` rewrites what it can say exactly
in Python and gives up (None) on the rest:
- rewritten: POSIX classes in brackets (`[[:alpha:]]`, `[[:^digit:]]` alone in its brackets:
  ASCII in Go, so exact ranges), `\\z` (end of text: Python's `\\Z`), `\\Q...\\E` (literal text),
  `(?<name>` (Python's `(?P<name>`), `\\x{...}` (a code point), and a `{` that opens no repetition
  Go knows (`a{,2}` is literal in Go, a repetition in Python); Go's `\\d \\w \\s \\b` are ASCII,
  so the pattern is compiled with re.ASCII (`pattern`);
- not said (None): Unicode classes (`\\p`, `\\P`), `\\C`, a digit escape (octal in Go, a
  backreference in Python), the ungreedy flag `U`, and POSIX classes mixed with other members
  when negated;
- refused by Go and read by Python (lookaround, backreferences, `\\Z`): `go_refuses`.
"""
from __future__ import annotations

import re

# POSIX classes: ASCII only in Go (regexp/syntax perl_groups.go)
_POSIX = {
    "alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": "\\x00-\\x7f", "blank": "\\t ", "cntrl": "\\x00-\\x1f\\x7f",
    "digit": "0-9", "graph": "!-~", "lower": "a-z", "print": " -~", "punct": "!-/:-@\\[-`{-~",
    "space": "\\t\\n\\v\\f\\r ", "upper": "A-Z", "word": "0-9A-Za-z_", "xdigit": "0-9A-Fa-f",
}
_REPEAT = re.compile(r"\{[0-9]+(?:,[0-9]*)?\}")  # the repetitions Go reads; any other { is literal
_GO_REFUSES = re.compile(r"\(\?[=!]|\(\?<[=!]|\\[1-9]|\\Z")  # lookaround, backreferences, \Z


def go_refuses(expr: str) -> bool:
    """Syntax Go's regexp refuses where Python's re reads something: lookaround,
    backreferences, `\\Z`."""
    return _GO_REFUSES.search(expr) is not None


def translate(expr: str) -> str | None:
    """The Python pattern that matches what Go's regexp matches with `expr`, or None where this
    cannot tell (see the module)."""
    out = []
    i, n = 0, len(expr)
    while i < n:
        c = expr[i]
        if c == "\\":
            if i + 1 >= n:
                return None  # a trailing backslash: an error in both, worded by each
            d = expr[i + 1]
            if d == "Q":
                end = expr.find("\\E", i + 2)
                text = expr[i + 2:] if end < 0 else expr[i + 2:end]
                out.append(re.escape(text))
                i = n if end < 0 else end + 2
                continue
            if d == "z":
                out.append("\\Z")
            elif d == "x" and expr.startswith("{", i + 2):
                end = expr.find("}", i + 3)
                digits = expr[i + 3:end] if end > 0 else ""
                if not digits or not all(h in "0123456789abcdefABCDEF" for h in digits) or int(digits, 16) > 0x10FFFF:
                    return None
                out.append("\\U%08x" % int(digits, 16))
                i = end + 1
                continue
            elif d in "pPC" or d.isdigit():
                return None
            else:
                out.append(c + d)
            i += 2
            continue
        if c == "[":
            got = _bracket(expr, i)
            if got is None:
                return None
            text, i = got
            out.append(text)
            continue
        if c == "(" and expr.startswith("(?", i):
            if expr.startswith("(?<", i) and not expr.startswith(("(?<=", "(?<!"), i):
                out.append("(?P<")
                i += 3
                continue
            flags = re.match(r"\(\?([a-zA-Z-]*)[:)]", expr[i:])
            if flags and "U" in flags.group(1):
                return None
        if c == "{" and not _REPEAT.match(expr, i):
            out.append("\\{")
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _bracket(expr: str, i: int):
    """The bracket expression opening at expr[i], as Python reads it, and where it ends; None
    where this cannot tell."""
    j = i + 1
    negated = expr.startswith("^", j)
    if negated:
        j += 1
    out = ["[^" if negated else "["]
    first = True
    while j < len(expr):
        c = expr[j]
        if c == "]" and not first:
            out.append("]")
            return "".join(out), j + 1
        first = False
        if expr.startswith("[:", j):
            end = expr.find(":]", j + 2)
            name = expr[j + 2:end] if end > 0 else ""
            neg = name.startswith("^")
            ranges = _POSIX.get(name[1:] if neg else name)
            if ranges is None:
                return None  # Go refuses an unknown class: not ours to word
            if neg:
                # [[:^alpha:]] alone: all but those; mixed with other members Python has no union
                if negated or expr[end + 2:end + 3] != "]" or len(out) > 1:
                    return None
                return "[^" + ranges + "]", end + 3
            out.append(ranges)
            j = end + 2
            continue
        if c == "\\":
            if j + 1 >= len(expr):
                return None
            d = expr[j + 1]
            if d in "pPQCz" or d.isdigit() or d == "x" and expr.startswith("{", j + 2):
                return None
            out.append(c + d)
            j += 2
            continue
        if c == "[":
            out.append("\\[")  # a literal [ in Go; Python warns of a nested set
        else:
            out.append(c)
        j += 1
    return None  # not closed: an error in both


def compile_python(pattern: str):
    """A translated pattern compiled (ASCII classes, as Go's), or None where Python refuses it."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # FutureWarnings of syntax Go reads otherwise: translated before
        try:
            return re.compile(pattern, re.ASCII)
        except (re.error, OverflowError, RecursionError):
            return None


def compile_go(expr: str):
    """Go's regexp.Compile(expr) as a compiled Python pattern, or None where Go refuses it,
    Python refuses its translation, or this cannot tell (translate)."""
    if go_refuses(expr):
        return None
    py = translate(expr)
    return None if py is None else compile_python(py)
