"""Untrusted text as widgets take it: Textual ``Content`` built from a plain string (made inert by
``text_safety``), never a markup string. Labels, titles and palette entries go through here."""

from __future__ import annotations

from textual.content import Content

from maic_tui.text_safety import one_line, terminal_safe

LABEL_CHARS = 120  # one-line labels (titles, options, palette entries) never run longer than this


def plain(text: str, limit: int | None = LABEL_CHARS) -> Content:
    """One line of untrusted text as plain Content."""
    return Content(one_line(text, limit))


def plain_block(text: str) -> Content:
    """Untrusted text that may span lines, as plain Content."""
    return Content(terminal_safe(text))


def as_markup(text: str, limit: int | None = LABEL_CHARS) -> str:
    """For the few Textual APIs that only take markup strings (a palette hit's help line): every ``[``
    escaped, so that it reads literally. (``textual.markup.escape`` leaves an unclosed ``[link=…`` alone,
    and a cut line often ends in one.)"""
    return one_line(text, limit).replace("[", "\\[")
