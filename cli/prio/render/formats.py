"""Every command's output formats, in one place: the `-o` option's choices, its help text and the
dispatch to a renderer all derive from here. Pure data (no rich, no tabulate): the CLI imports it
while declaring its options, so `prio --help` stays fast."""
from __future__ import annotations

# The formats of the analysis commands: rich's table on a terminal, tabulate's plain and markdown
# tables, and the contract's JSON.
ANALYSIS = {
    "table": "a rich table (the default on a terminal)",
    "plain": "plain columns (the default elsewhere)",
    "text": "the same as plain",
    "markdown": "GitHub-flavoured markdown tables",
    "json": "the contract's JSON",
}

# explain, simulate, preempt and diff also write one self-contained HTML page (prio.render.html):
# the json document inside it, drawn by the page's own script (a backend may have no page:
# ANALYSIS are the formats every renderer of the analysis commands writes).
_REPORT = {**ANALYSIS, "html": "one self-contained HTML report to open in a browser (the json inside)"}

# --output-file NAME.html without -o writes the page (a report named so is meant for a browser).
HTML_SUFFIXES = (".html", ".htm")

FORMATS: dict[str, dict[str, str]] = {
    "validate": {
        "text": "file:line:col: CODE (slug) message, with a help: line (the default)",
        "json": "the contract's JSON: findings and a summary",
        "sarif": "SARIF 2.1.0 for code scanning",
        "github": "GitHub Actions workflow commands (annotations)",
        "gitlab": "GitLab Code Quality",
        "junit": "JUnit XML, one test case per file",
        "markdown": "a markdown report",
        "auto": "github inside GitHub Actions, else text",
    },
    "explain": _REPORT,
    "simulate": _REPORT,
    "preempt": _REPORT,
    "diff": _REPORT,
    "snapshot": {"text": "a line on stderr (the default)", "json": "a summary on stdout"},
    "rule": {"text": "plain text (the default)", "json": "JSON", "markdown": "markdown"},
}

# validate's renderers: format -> module under prio.render.validate, each with render(report, **kw).
VALIDATE_RENDERERS = {f: f"prio.render.validate.{f}" for f in FORMATS["validate"] if f != "auto"}


# Other names for a format: `-o text` is the human default of every command (validate's text,
# the analysis commands' plain columns).
ALIASES = {"text": "plain"}


def by_file_name(path, formats) -> str | None:
    """The format an --output-file's name asks for when -o is not given: html for NAME.html."""
    if path and "html" in formats and str(path).lower().endswith(HTML_SUFFIXES):
        return "html"
    return None


def names(command: str) -> tuple[str, ...]:
    return tuple(FORMATS[command])


def canonical(fmt: str) -> str:
    """The format a renderer knows: an alias resolved (text -> plain for the analysis commands)."""
    return ALIASES.get(fmt, fmt)


def help_text(command: str, tail: str = "") -> str:
    """The -o option's help: every format with what it is."""
    return "; ".join(f"{f}: {what}" for f, what in FORMATS[command].items()) + (f". {tail}" if tail else ".")
