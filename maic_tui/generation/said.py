"""A generation's problem lines in two languages: English is what the model is told when a stage is asked again and
what a kept draft (``<output>.partial.json``) records; ``shown`` is the same line in the interface's language,
for the person watching ``new`` or ``regen`` (and the New dialog)."""

from __future__ import annotations

from maic_tui.i18n import _


class Said(str):
    """The English line, carrying the line a person reads as ``shown``."""

    shown: str

    def __new__(cls, english: str, shown: str | None = None) -> Said:
        line = super().__new__(cls, english)
        line.shown = english if shown is None else shown
        return line


def said(message: str, **fields: object) -> Said:
    """A message marked with ``N_`` and its named fields: English, and shown translated."""
    return Said(message.format(**fields), _(message).format(**fields))


def shown(line: str) -> str:
    """What a person reads for a problem line (a line that is not ``Said`` is shown as it is)."""
    return line.shown if isinstance(line, Said) else line
