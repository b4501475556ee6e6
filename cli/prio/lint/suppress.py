"""Suppressions: inline `# prio: ignore[...]` comments and the `.prio.yaml` settings, applied to
the findings of a run; plus PRIO901, the finding for a suppression comment that suppresses nothing.

Inline comments
  `# prio: ignore[PRIO201]`            the PRIO201 findings on this line
  `# prio: ignore[PRIO201, PRIO202]`   several rules (ids or slugs, separated by commas or spaces)
  `# prio: ignore`                     every finding on this line (a blanket ignore)
  `# prio: ignore[PRIO201] why`        text after the directive is a free-form reason
A comment after YAML content on the same line applies to that line; a comment on a line of its
own applies to the next line that holds YAML content (so several can be stacked above it).

Comments are found the way yamllint finds them: from PyYAML's tokens, in the text between one
token's end and the next one's start, so a `#` inside a quoted or block scalar is never taken
for a comment. The one exception is deliberate: the queues.yaml a ConfigMap embeds in a literal
block (`|`) is scalar content to the outer parser, yet its lines are lines of the file; the
content of every literal block that holds a directive is scanned as YAML of its own and its
comments are mapped back to the outer lines.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field, replace

RULE_ID = "PRIO901"  # declared in prio.lint.rules.suppression


_CANDIDATE = re.compile(r"#[ \t]*prio[ \t]*:[ \t]*ignore", re.I)
_DIRECTIVE = re.compile(r"#[ \t]*prio[ \t]*:[ \t]*ignore(?![A-Za-z0-9_])(?P<after>.*)\Z", re.I | re.S)
_BREAKS = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")  # line breaks as PyYAML and libyaml count them


@dataclass
class Directive:
    line: int  # 1-based line of the comment in the file
    column: int  # 1-based column of its `#`
    target: int | None  # 1-based line it applies to; None: no line follows
    text: str  # the comment as written
    rules: frozenset | None = None  # rule ids; None: every rule (blanket)
    unknown: tuple = ()  # names in the brackets that are no rule
    error: str | None = None  # why it is not a valid directive
    used: set = field(default_factory=set)


def _loader(text: str):
    import yaml

    return getattr(yaml, "CBaseLoader", yaml.BaseLoader)(text)


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in _BREAKS.finditer(text)]


def _scan(text: str):
    """(comments as (index, text), sorted lines holding a token, literal block scalars)."""
    import yaml

    comments, token_lines, blocks = [], set(), []
    loader = _loader(text)
    try:
        prev_end = 0
        while loader.check_token():
            tok = loader.get_token()
            start = tok.start_mark.index
            if start > prev_end:
                _gap_comments(text, prev_end, start, comments)
            if not isinstance(tok, (yaml.StreamStartToken, yaml.StreamEndToken, yaml.BlockEndToken)):
                token_lines.add(tok.start_mark.line)
            if isinstance(tok, yaml.ScalarToken) and tok.style in ("|", ">"):
                # The header line of a block scalar may carry a comment: `key: |  # ...`.
                eol = _BREAKS.search(text, start)
                header = text[start:eol.start() if eol else len(text)]
                m = re.match(r"[|>][0-9+-]*[ \t]+(#.*)\Z", header, re.S)
                if m:
                    comments.append((start + m.start(1), m.group(1)))
                if tok.style == "|":
                    blocks.append(tok)
            prev_end = max(prev_end, tok.end_mark.index)
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    comments.sort()
    return comments, sorted(token_lines), blocks


def _gap_comments(text: str, lo: int, hi: int, out: list) -> None:
    i = text.find("#", lo, hi)
    while i != -1:
        m = _BREAKS.search(text, i, hi)
        end = m.start() if m else hi
        out.append((i, text[i:end]))
        i = text.find("#", end, hi)


def directives(text: str) -> list[Directive]:
    """Every `# prio: ignore` directive of a YAML text, with the line it applies to (1-based)."""
    if not _CANDIDATE.search(text):
        return []
    return sorted(_directives(text, 0, 0, text), key=lambda d: (d.line, d.column))


def _directives(text: str, line_offset: int, col_offset: int, outer: str) -> list[Directive]:
    scanned = _scan(text)
    if scanned is None:
        return []
    comments, token_lines, blocks = scanned
    starts = _line_starts(text)
    out = []
    for index, comment in comments:
        if not _CANDIDATE.match(comment):
            continue
        line = bisect.bisect_right(starts, index) - 1  # 0-based
        col = index - starts[line]
        before = text[starts[line]:index]
        if before.strip():
            target = line
        else:
            k = bisect.bisect_right(token_lines, line)
            target = token_lines[k] if k < len(token_lines) else None
        d = _parse(comment.rstrip())
        if d is None:  # `# prio: ignored by ...`: an ordinary comment
            continue
        d.line, d.column = line + 1 + line_offset, col + 1 + col_offset
        d.target = None if target is None else target + 1 + line_offset
        out.append(d)
    for tok in blocks:
        if not _CANDIDATE.search(tok.value):
            continue
        # A literal block: its content line n is file line (header line + 1 + n), indented.
        first = tok.start_mark.line + 1
        indent = 0
        for ln in _BREAKS.split(text[starts[first]:] if first < len(starts) else ""):
            if ln.strip():
                indent = len(ln) - len(ln.lstrip(" "))
                break
        out.extend(_directives(tok.value, line_offset + first, col_offset + indent, outer))
    return out


def _parse(comment: str) -> Directive | None:
    from prio.lint.registry import by_name_or_id

    d = Directive(0, 0, None, comment)
    m = _DIRECTIVE.match(comment)
    if m is None:
        return None
    after = m.group("after")
    if after.startswith("["):
        close = after.find("]")
        if close == -1:
            d.error = "the '[' is not closed"
            return d
        names = [n for n in re.split(r"[,\s]+", after[1:close]) if n]
        if not names:
            d.error = "the brackets name no rule"
            return d
        ids, unknown = set(), []
        for n in names:
            r = by_name_or_id(n)
            if r is None:
                unknown.append(n)
            else:
                ids.add(r.id)
        d.rules, d.unknown = frozenset(ids), tuple(unknown)
        return d
    if after and not after[0].isspace():
        d.error = "not a prio directive"
        return d
    word = after.strip().split(maxsplit=1)[0] if after.strip() else ""
    word = word.rstrip(",;")
    if word and (by_name_or_id(word) is not None or re.fullmatch(r"PRIO\d+", word, re.I)):
        d.error = f"rule ids go in brackets: `# prio: ignore[{word}]`"
    return d


def _show(comment: str) -> str:
    c = " ".join(comment.split())
    return "`" + (c if len(c) <= 60 else c[:57] + "...") + "`"


def unused(d: Directive, enabled) -> str | None:
    """Why `d` is a PRIO901 finding, or None when it did its job (or cannot be judged)."""
    if d.error:
        return f"{_show(d.text)} is not a valid suppression ({d.error}); write `# prio: ignore[ID, ...]`"
    if d.target is None:
        return f"{_show(d.text)} applies to no line: nothing follows it"
    reasons = [f"{n!r} is not a rule" for n in d.unknown]
    if d.rules is None:
        if not d.used:
            reasons.append(f"no finding on line {d.target}")
    else:
        idle = sorted(r for r in d.rules if r not in d.used and enabled(r))
        if idle:
            reasons.append(f"no {' or '.join(idle)} finding on line {d.target}")
    if not reasons:
        return None
    return f"{_show(d.text)} suppresses nothing: " + "; ".join(reasons)


def apply(results, settings, files=None):
    """The report of a run after the settings and the inline directives.

    `results` are the checker's FileResults; returns a Report whose `suppressed` counts the
    findings that inline comments and per-path ignores hid (rules not selected do not count:
    they did not run)."""
    from prio.diagnostics import Finding, Report, sort_key
    from prio.lint.registry import RULES

    report = Report(files=list(files) if files is not None else [r.name for r in results])
    enabled = settings.enabled

    def adjust(f):
        level = settings.severity.get(f.rule)
        return replace(f, severity=level) if level and level != f.severity else f

    for res in results:
        findings = [adjust(f) for f in res.findings if enabled(f.rule)]
        ds = directives(res.text)
        by_line: dict = {}
        for d in ds:
            if d.error is None and d.target is not None:
                by_line.setdefault(d.target, []).append(d)
        kept = []
        for f in findings:
            hit = None
            for d in by_line.get(f.line, ()) if f.line else ():
                if d.rules is None or f.rule in d.rules:
                    hit = d
                    break
            if hit is not None:
                hit.used.add(f.rule)
                report.suppressed += 1
            else:
                kept.append(f)
        if enabled(RULE_ID):
            rule = RULES[RULE_ID]
            for d in ds:
                why = unused(d, enabled)
                if why:
                    kept.append(adjust(Finding(RULE_ID, rule.name, rule.severity, why, res.name, d.line, d.column, "")))
        for f in kept:
            if settings.path_ignore(f.file, f.rule) is not None:
                report.suppressed += 1
            else:
                report.findings.append(f)
    report.findings.sort(key=sort_key)
    return report
