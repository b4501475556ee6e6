"""`-o html`: one self-contained page a person opens in a browser, offline.

The page is the command's own `-o json` document, embedded whole in a
`<script type="application/json" id="prio-data">` element, plus a context element
(`id="prio-context"`: what was analysed, the notes, the queue tree with its resources and `--why`
text, and per command what its JSON leaves out: see context.py), then the page's stylesheet and
script (report.css beside this module, the script built from its parts: report/core.js says which), which draw the header, the queue tree, the
timeline and the tables from those two documents. Nothing is fetched: no CDN, no web fonts, and a
Content-Security-Policy that forbids any request. `page` streams: a million steps go through
chunk by chunk, as with -o json.

Inside a script element only `</script` (and `<!--`) can end or confuse the data, and in JSON text
`<` can only stand inside a string, so every `<` is written `\\u003c`: JSON.parse gives back the
very document -o json prints."""
from __future__ import annotations

import html
import json
from importlib import resources

from prio import __version__

# Nothing leaves the page: no request of any kind, and no script or style but the page's own, each
# pinned by its hash (issue 43, item 7): a script or style element that reached the page by any
# other way would not apply, where 'unsafe-inline' would apply it. The page's script sets styles
# through CSSOM (element.style), which style-src does not govern; no markup carries a style
# attribute. The data elements are not scripts to CSP.
_CSP = ("default-src 'none'; style-src '{style}'; script-src '{script}'; img-src data:; base-uri 'none'; "
        "form-action 'none'")


def _sha256(text: str) -> str:
    import base64
    import hashlib

    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


# The parts of the page's one script, in order (report/core.js says what each holds): YuniKorn's
# views between the core and the page, each backend's view (a row of prio.backends names its file)
# after them.
PARTS = ("report/core.js", "report/yunikorn.js")
END = "report/page.js"


def _own(field: str) -> list[str]:
    """The backends' own page files (prio.backends: a row's `view` or `style`, a file of its package)."""
    from prio import backends

    return [resources.files(e.module.rsplit(".", 1)[0]).joinpath(getattr(e, field)).read_text(encoding="utf-8")
            for e in backends.REGISTRY if getattr(e, field)]


def script_parts() -> list[str]:
    """The page's script, part by part (what the static check reads: tests/render/test_report_lint.py)."""
    return [asset(p) for p in PARTS] + _own("view") + [asset(END)]


def script_text() -> str:
    """The text of the page's one script element, exactly as written (what its hash is of)."""
    return "".join(f"\n{part}" for part in script_parts())


def style_parts() -> list[str]:
    """The page's stylesheet, part by part: report.css, then each backend's own (a row's `style`)."""
    return [asset("report.css")] + _own("style")


def style_text() -> str:
    """The text of the page's one style element, exactly as written (what its hash is of)."""
    return "".join(f"\n{part}" for part in style_parts())


def csp() -> str:
    """The page's Content-Security-Policy, its script and its stylesheet pinned by SHA-256."""
    return _CSP.format(script=_sha256(script_text()), style=_sha256(style_text()))

TITLES = {"explain": "queue priorities", "simulate": "scheduling order", "preempt": "preemption", "diff": "config change"}


def asset(name: str) -> str:
    """A file of this package (the page's stylesheet or script)."""
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")


def embed(text: str) -> str:
    """JSON text made safe inside a script element (see the module's docstring)."""
    return text.replace("<", "\\u003c")


def page(command: str, chunks, context: dict, titles: dict | None = None):
    """The page, in chunks: `chunks` is the command's -o json output, `context` what the page
    shows beside it (prio.yunikorn.render.html and the command's header); `titles`: the page's
    title per command, a backend's own (default: YuniKorn's)."""
    what = ", ".join([i["name"].replace("bundled sample ", "").rsplit("/", 1)[-1] for i in context.get("inputs") or ()] or [context.get("live") or ""])
    titles = titles or TITLES
    title = f"prio {command}: {titles.get(command, command)}" + (f" ({what})" if what else "")
    yield ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           f"<meta http-equiv=\"Content-Security-Policy\" content=\"{csp()}\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<meta name=\"color-scheme\" content=\"light dark\">\n"
           f"<meta name=\"generator\" content=\"prio {html.escape(__version__)}\">\n"
           f"<title>{html.escape(title)}</title>\n<style>{style_text()}</style>\n</head>\n"
           f"<body data-command=\"{html.escape(command)}\">\n"
           "<noscript><p>This report is drawn by its own script, which is off in this browser. Its data is the "
           "<code>-o json</code> document in the element <code>prio-data</code> of this file.</p></noscript>\n"
           "<div id=\"app\" aria-live=\"polite\">Loading the report…</div>\n"
           "<script type=\"application/json\" id=\"prio-data\">")
    for c in chunks:
        yield embed(c)
    yield "</script>\n<script type=\"application/json\" id=\"prio-context\">"
    yield embed(json.dumps(context, separators=(",", ":")))
    yield f"</script>\n<script>{script_text()}</script>\n</body>\n</html>\n"
