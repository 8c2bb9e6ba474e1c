"""A message with two readers: ``Said`` is its English (what a program, a record or a model reads, what a check
compares) and carries ``shown``, the same message in the interface's language for a person. A classroom file's
problems are made so: the loader folds and groups them by their English, ``generation`` tells the model the
English, and ``validate`` and ``edit`` print what is shown."""

from __future__ import annotations

from collections.abc import Iterable
from typing import overload

from maic_tui.i18n.catalogs import _


class Said(str):
    """English text (its ``str``) with the interface's words for it (``shown``); any string operation on it gives
    plain English, so a message built from it without ``said`` reads English everywhere, never a key."""

    shown: str

    def __new__(cls, english: str, shown: str | None = None) -> Said:
        self = super().__new__(cls, english)
        self.shown = english if shown is None else shown
        return self


def said(message: str, /, **fields: object) -> Said:
    """A message marked with ``N_`` and its named fields: its English, and shown translated (a field that is
    itself ``Said`` is shown translated too)."""
    return Said(message.format(**fields), _(message).format(**{name: shown(value) for name, value in fields.items()}))


@overload
def shown(text: str) -> str: ...
@overload
def shown(text: object) -> object: ...
def shown(text: object) -> object:
    """What a person is shown of ``text``: a ``Said``'s translation; anything else as it is."""
    return text.shown if isinstance(text, Said) else text


def joined(parts: Iterable[str], separator: str) -> Said:
    """``separator.join(parts)``, shown with each part's translation."""
    items = list(parts)
    return Said(separator.join(items), separator.join(str(shown(part)) for part in items))
