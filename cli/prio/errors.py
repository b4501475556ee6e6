"""The one exception that ends a run with exit code 2: input prio cannot read."""
from __future__ import annotations


class InputError(Exception):
    """Unreadable or unparseable input. Rendered as one line: `file:line:col: message`."""

    def __init__(self, file: str, message: str, line: int | None = None, column: int | None = None):
        super().__init__(message)
        self.file = file
        self.message = message
        self.line = line
        self.column = column
        self.frame = ""  # the input's line and a caret under the column, for people (stderr only)

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"


class NothingToCheck(InputError):
    """An input read whole that holds nothing to check (a directory without a queue config):
    counted apart from unreadable files in validate's summary."""


def check_choice(flag: str, value, choices) -> None:
    """An option whose value must be one of `choices` (None: not given)."""
    if value is not None and value not in choices:
        raise InputError(flag, f"must be one of {', '.join(choices)}, not {value!r}")


class Refused(InputError):
    """A question refused in its own words (`--behind names the same ask as --why-ask`): what
    was asked cannot be answered, and no input is to blame, so none is named."""

    def __init__(self, message: str):
        super().__init__("", message)

    def __str__(self) -> str:
        return self.message


class APIRefusal(InputError):
    """Input the Kubernetes API server refuses too (a field of the wrong type, a number past its
    range, a list longer than the CRD allows), not only prio: a loader raises it for such a field
    so that validate can report it as a finding of the setup (PRIO621), apart from what only
    prio's analysis needs of its inputs."""

    @classmethod
    def of(cls, e: InputError) -> APIRefusal:
        return cls(e.file, e.message, e.line, e.column)
