"""What reaches a terminal: text from inputs and servers (application and ask ids, queue names,
reasons, server error texts) shown with its control characters escaped, so a tenant who names an
application `x\\x1b]0;...\\x07` cannot move an operator's cursor, retitle the window, clear the
screen or hide a line. The one place of that rule for every human format:

- `printable(text)`: the escape itself (`\\x1b`, `\\x9b`, `\\u202e`); `\\n` and `\\t` are kept
  where whole outputs are escaped (the renderers' own line breaks), escaped in a single value.
- `Console(...)`: rich's Console for every renderer's `table` (and validate's text), whose strings
  and Text are escaped before rich measures and draws them, so the only escape sequences in its
  output are the colours rich itself writes.
- `for_terminal`: the decorator on each renderer's `render`: every chunk of a human format is
  escaped (JSON is left alone: its encoder escapes control characters already); with colour on,
  the colour sequences rich wrote are kept and nothing else.

JSON keeps the real ids (`\\u001b` in JSON text): machines read those, not terminals.

One escaping function per output kind, each used by every renderer of that kind (issue 43,
item 2: a newline in a name must never start a line, where GitHub would read `::error::` or
`::stop-commands::` as its own workflow command):

- terminal and plain text, and XML values (junit: ElementTree escapes the markup itself):
  `printable(value)`: every control character written out, `\\n` included;
- markdown (PR comments, step summaries): `markdown(value)`: printable, then HTML and the
  characters that open markup (`<` and `&`, `|`, backtick, the `](` of a link or an image) escaped, so `<!--` in an
  id cannot hide the rest of a comment nor `![x](url)` fetch an image;
- GitHub workflow commands: prio.render.validate.github's escape_data and escape_property (the
  Actions toolkit's escaping of line breaks and separators), the other control characters then
  written out by for_terminal over the whole output;
- tables: `cell(value, tablefmt)`, which prio.render.align.grid applies to every cell.
- HTML: the page's own script writes text nodes only (prio.render.html); JSON: its encoder."""
from __future__ import annotations

import functools
import inspect
import re

# C0 controls, DEL, C1 controls (0x9b is CSI on terminals that read 8-bit controls) and the Unicode
# bidirectional overrides and isolates, which reorder what a reader sees ("Trojan source").
_OTHERS = "\\x7f-\\x9f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069"
_ANY = re.compile(f"[\\x00-\\x1f{_OTHERS}]")
_BUT_LINES = re.compile(f"[\\x00-\\x08\\x0b-\\x1f{_OTHERS}]")  # keeps \t and \n
# Select Graphic Rendition, the only sequence rich writes for colour and style.
_SGR = re.compile(r"\x1b\[[0-9;]*m")


def _escape(m) -> str:
    c = m.group()
    return f"\\x{ord(c):02x}" if ord(c) <= 0xff else f"\\u{ord(c):04x}"


def printable(text: str, lines: bool = False) -> str:
    """`text` with its control characters written out (`\\x1b`); `lines`: keep line breaks and
    tabs (a whole rendered output, whose line breaks are the renderer's own)."""
    pattern = _BUT_LINES if lines else _ANY
    return pattern.sub(_escape, text) if pattern.search(text) else text


_MARKDOWN = {"&": "&amp;", "<": "&lt;", "|": "\\|", "`": "\\`", "](": "]\\("}
# HTML opens with < (a comment, a tag, an autolink), a link or an image with ](; a > opens nothing
# inside a line (a value never starts one), and [ alone links nothing
_MARKDOWN_SPECIAL = r"[&<|`]|\]\("  # compiled by re's cache when first used: only -o markdown reads it


def markdown(text: str) -> str:
    """A value in markdown (prose or a table cell): its control characters written out (a line
    break included: a value never starts a line), and every character that opens markup or HTML
    escaped, so the value reads as the text it is."""
    text = printable(text)
    return re.sub(_MARKDOWN_SPECIAL, lambda m: _MARKDOWN[m.group()], text) if re.search(_MARKDOWN_SPECIAL, text) else text


def cell(value, tablefmt: str) -> str:
    """A table cell, or a line of prose holding names, of a plain (`plain`) or markdown
    (`github`, tabulate's name) output, escaped for its kind."""
    text = value if isinstance(value, str) else str(value)
    return markdown(text) if tablefmt == "github" else printable(text)


def _colour_kept(text: str) -> str:
    """A coloured output: rich's colour sequences kept, every other control character escaped."""
    if not _BUT_LINES.search(text):
        return text
    out, last = [], 0
    for m in _SGR.finditer(text):
        out.append(printable(text[last:m.start()], lines=True))
        out.append(m.group())
        last = m.end()
    out.append(printable(text[last:], lines=True))
    return "".join(out)


def for_terminal(render):
    """Decorate a renderer (returning a str, or yielding chunks): its human output is escaped.
    The format and colour are read from its `fmt` and `color` parameters when it has them (a
    renderer without `fmt` renders a human format; without `color`, no colour)."""
    sig = inspect.signature(render)

    def settings(args, kwargs):
        bound = sig.bind_partial(*args, **kwargs)
        bound.apply_defaults()
        fmt = bound.arguments.get("fmt")
        # colour is rich's, and only `table` (and validate's text, which has no fmt) draws with rich
        return fmt, bool(bound.arguments.get("color", False)) and fmt in (None, "table")

    if inspect.isgeneratorfunction(render):
        @functools.wraps(render)
        def chunks(*args, **kwargs):
            fmt, color = settings(args, kwargs)
            if fmt == "json":
                yield from render(*args, **kwargs)
                return
            escape = _colour_kept if color else functools.partial(printable, lines=True)
            for c in render(*args, **kwargs):
                yield escape(c)
        return chunks

    @functools.wraps(render)
    def whole(*args, **kwargs):
        fmt, color = settings(args, kwargs)
        text = render(*args, **kwargs)
        if fmt == "json" or not isinstance(text, str):
            return text
        return _colour_kept(text) if color else printable(text, lines=True)
    return whole


def Console(*args, **kwargs):
    """rich's Console, its text escaped before it is measured and drawn (so columns stay aligned
    and a tenant's colour codes are text, even with colour on)."""
    from rich.console import Console as Rich
    from rich.text import Text

    class _Printable(Rich):
        def render_str(self, text, **kw):
            return super().render_str(printable(text, lines=True), **kw)

        def render(self, renderable, options=None):
            if isinstance(renderable, Text) and _BUT_LINES.search(renderable.plain):
                renderable = Text(printable(renderable.plain, lines=True), style=renderable.style,
                                  justify=renderable.justify, overflow=renderable.overflow,
                                  no_wrap=renderable.no_wrap, end=renderable.end)
            return super().render(renderable, options)

    return _Printable(*args, **kwargs)
