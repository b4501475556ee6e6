"""The options explain, simulate, preempt and diff (and snapshot) share, declared once (issue 27),
as data (prio.optspec): a command names the shared ones it takes, in its --help order, beside
its own, and gets one frozen options object that its runner takes alone.

COMMON options go to every analysis command (explain, simulate, preempt, diff), after its own:
one more such option is one declaration here. No typer (prio.cli.options derives the typer
signature), no renderers: --help stays fast."""
from __future__ import annotations

import os
import sys

from prio import backends
from prio.cli import color
from prio.optspec import Arg, Opt, Options, options_class, opts
from prio.render.formats import help_text
from prio.yunikorn import releases

_DECLS = (
    Arg("inputs", "INPUT", "Queue config, snapshot, REST dumps, kubectl pod lists, PriorityClasses, "
                           f"{', '.join(e.inputs for e in backends.CLAIMED)}, in any order (recognised by content). None: the bundled walkthrough."),
    Opt("sample", ("--sample",), "Use a bundled sample: walkthrough (the default), batch, mistakes, yunikorn-configs, "
                                 f"{', '.join(backends.DEFAULT.samples[1:])}, {', '.join(s for e in backends.CLAIMED for s in e.samples)} "
                                 "(an unknown name lists them all).", metavar="NAME"),
    Opt("output", ("-o", "--output"), help_text("explain", "Default from PRIO_OUTPUT"), metavar="FORMAT"),
    Opt("color", ("--color",), "Colour the table output (auto: on a terminal, unless NO_COLOR is set; default from PRIO_COLOR).",
        choices=color.CHOICES, default=color.CHOICES[0], envvar="PRIO_COLOR"),
    Opt("output_file", ("--output-file",), "Write the report to PATH instead of standard output (never coloured; plain unless "
                                           "-o says otherwise, html for a PATH named .html).", metavar="PATH"),
    Opt("priority_classes", ("--priority-classes",), "PriorityClass manifests: resolve priorityClassName, and show the range "
                                                     "each class maps to per queue.", multiple=True, metavar="FILE"),
    Opt("limit", ("--limit",), "Pending asks to list in table, plain and markdown output (default: 200 in table, all otherwise; "
                               "json lists all).", type=int, min=0, metavar="N"),
    Opt("verbose", ("-v", "--verbose"), "Say what each input was recognised as.", type=bool, default=False),
)
# and every backend's own options (prio.backends: each declared in its package's options module,
# YuniKorn's too: prio.yunikorn.options)
SHARED = {d.name: d for d in _DECLS} | {d.name: d for d in backends.declarations()}

# the backends' options a command takes in one place of its --help, by the place's name
group = backends.group


# What every analysis command (explain, simulate, preempt, diff) takes after its own options.
COMMON = (SHARED["yunikorn_version"], SHARED["engine"])


class AnalysisOptions(Options):
    """What the analysis commands' options objects answer alike."""

    __slots__ = ()

    @property
    def to_file(self) -> bool:
        """--output-file names a file (not -)."""
        from prio.cli.outfile import to_file

        return to_file(self.output_file)

    def colored(self) -> bool:
        """--color against stdout; never colour in a file."""
        return color.use_color(self.color, sys.stdout) and not self.to_file

    def input_names(self) -> list:
        """Every file this run may read, as given: what --output-file must never be
        (prio.cli.outfile.refuse_inputs)."""
        names = [getattr(self, "old", None), getattr(self, "new", None), *(self.inputs or ()),
                 *(getattr(self, "priority_classes", None) or ()), self.cacert, os.environ.get("PRIO_YUNIKORN_CACERT")]
        return [n for n in names if n]

    def version_asked(self) -> str | None:
        """The YuniKorn release asked for, as written: --yunikorn-version (or PRIO_YUNIKORN_VERSION),
        else `.prio.yaml`'s yunikornVersion (found from the working directory up, as validate
        finds it), else None. A .prio.yaml that does not read is one line, exit 2."""
        if self.yunikorn_version is not None:
            return self.yunikorn_version
        from prio.lint.settings_file import find

        if find() is None:  # no file: the defaults name no release (and the reader is not imported)
            return None
        from prio.lint import settings as settings_mod

        try:
            return settings_mod.load().yunikorn_version  # none found: the defaults (None)
        except settings_mod.SettingsError as e:
            import re

            from prio.errors import InputError

            m = re.match(r"(.*?):(\d+)(?::(\d+))?: (.*)", str(e), re.DOTALL)  # SettingsError says file:line[:col]: message
            if m:
                raise InputError(m[1], m[4], int(m[2]), int(m[3]) if m[3] else None) from None
            where, _, message = str(e).partition(": ")
            raise InputError(where, message) from None

    def asked_release(self):
        """The YuniKorn release asked for (version_asked), or None when none is: then the one a
        snapshot recorded applies, else the newest (prio.backends.judge)."""
        return None if self.version_asked() is None else self.release()

    def release(self):
        """The YuniKorn release asked for (version_asked; prio.yunikorn.releases.Release; not
        given: the newest); one line and exit 2 for one prio does not know."""
        from prio.errors import InputError

        asked = self.version_asked()
        got = releases.get(asked)
        if got is None:
            raise InputError("--yunikorn-version", f"unknown YuniKorn release {asked!r} (prio knows {', '.join(releases.NAMES)})")
        return got

    def remote(self):
        """--yunikorn and its options (prio.cli.live.Remote), or None."""
        from prio.cli.live import remote

        return remote(self.yunikorn, self.header, self.cacert, self.timeout, self.inputs, getattr(self, "sample", None))


def options(name: str, *decls, common: bool = True) -> type:
    """A command's frozen options class: its arguments and options in --help order, a shared one
    by its name, its own as an Opt or Arg; then COMMON's."""
    own = tuple(SHARED[d] if isinstance(d, str) else d for d in decls)
    return options_class(name, opts(*own, *(COMMON if common else ())), base=AnalysisOptions)


def report(o, formats, body, redirect: bool = True) -> int:
    """Run `body(o, fmt)` as the analysis commands do: the format first (a bad -o or PRIO_OUTPUT
    ends the run, exit 2), then the body guarded (an input error is one line, exit 2): an
    --output-file naming an input is refused before anything is read, and the body's stdout goes
    into --output-file when `redirect` (the body writes its own file otherwise)."""
    from prio.cli.common import guarded, pick_format, say_written
    from prio.cli.outfile import redirected, refuse_inputs

    fmt = pick_format(o.output, formats, o.to_file, o.output_file)
    if fmt == "html":  # the page's header lists the notes the run says on stderr
        from prio.cli.htmlreport import listening

        body = listening(body)

    def guarded_body():
        refuse_inputs(o.output_file, o.input_names())
        return redirected(o.output_file, lambda: body(o, fmt)) if redirect else body(o, fmt)

    code = guarded(guarded_body, o.input_names())
    if code in (0, 1):  # the report is in place (a failed run leaves none)
        say_written(o.output_file)
    return code


def read_inputs(o, keep_documents: bool = False, default_sample: str | None = None) -> tuple:
    """What an analysis command reads, and the server it came from (prio.cli.live.Remote, or
    None): --yunikorn's server, else the input files or --sample (`default_sample` where neither
    is given); with -v, what each input was read as."""
    from prio.cli.common import load_inputs, say_recognised

    live = o.remote()
    if live is not None:
        from prio.cli import live as live_mod

        inp = live_mod.load(live, o)
    else:
        sample = o.sample
        if default_sample and not o.inputs and not sample:
            sample = default_sample
        inp = load_inputs(o.inputs, sample, o.priority_classes, keep_documents, o.asked_release())
    if o.verbose:
        say_recognised(inp)
    return inp, live
