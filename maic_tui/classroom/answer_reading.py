"""A learner's answer read as people type it (ARCHITECTURE.md, *The lesson*): an option by its letter with or without
punctuation (``b``, ``B)``, ``(b)``, ``b.``), its label or value with spacing, case and punctuation ignored
(``2,3,4`` is ``2, 3, 4``), a picked line (``B) label``), several in plain language (``A and C``, ``speed and
acceleration``, ``a, c``) after an opening such as "I think"; a short answer compared with the accepted forms the
same way. Nothing typed is ever run: answers are only compared as text."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from maic_tui.classroom.lesson import QuizQuestion

# What people put before an answer; dropped before reading it.
_OPENING = re.compile(r"^(?:i\s+think|i'?d\s+say|i\s+would\s+say|i\s+guess|i\s+choose|i\s+pick|maybe|probably|"
                      r"my\s+answer\s+is|the\s+answer\s+is|answer\s*:|it'?s|it\s+is|both|all\s+of)\s*:?\s*",
                      re.IGNORECASE)
# Between several answers: punctuation, "and", "&", "plus", "as well as".
_BETWEEN = re.compile(r"\s*(?:[;,/&+]|\band\b|\bplus\b|\bas\s+well\s+as\b)\s*", re.IGNORECASE)
_LETTER = re.compile(r"^[(\[]?\s*([A-Za-z])\s*[)\].:]?$")  # a, A), (b), [c], d., e:
_PICKED = re.compile(r"^[(\[]?([A-Za-z])[)\].:]\s+(.+)$")  # "B) label", as the app's option list sends a pick


def squashed(text: str) -> str:
    """A text with case, spacing and punctuation ignored: only its letters and digits, in order."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


def compact(text: str) -> str:
    """A short answer with case and spacing ignored, and the punctuation around it: a code answer keeps its
    operators (``n*2`` is not ``n+2``), while ``[n*2 for n in [1,2,3]]`` is ``[n * 2 for n in [1, 2, 3]]``."""
    folded = unicodedata.normalize("NFKC", text).casefold().strip().strip("`'\"“”‘’").strip()
    return "".join(folded.rstrip(".!?").split())


def accepted(question: QuizQuestion, text: str) -> bool:
    """The short answer is one of the question's accepted forms (or its model answer)."""
    typed = compact(text)
    return bool(typed) and any(typed == compact(form) for form in (*question.accept, *question.answer))


def read_choices(question: QuizQuestion, reply: str | Sequence[str]) -> list[str]:
    """Option values from the learner's reply; an item that names no option is kept as typed (graded wrong)."""
    if not isinstance(reply, str):
        return [_option(question, item) or item for item in reply]
    text = reply.strip()
    for _ in range(3):  # "I think it's …": one opening after another
        text = _OPENING.sub("", text).strip()
    text = text.rstrip(".!")
    whole = _option(question, text)
    if whole is not None:
        return [whole]
    items = [item for item in _BETWEEN.split(text) if item.strip()]
    if len(items) == 1 and all(_LETTER.match(word) for word in text.split()):
        items = text.split()  # "a c"
    values = [_option(question, item) or item.strip() for item in items]
    return list(dict.fromkeys(values))  # a repeat counts once


def _option(question: QuizQuestion, item: str) -> str | None:
    item = item.strip()
    letter = _LETTER.match(item)
    picked = _PICKED.match(item)
    typed = squashed(item)
    for number, option in enumerate(question.options):
        own_letter = chr(ord("a") + number)
        if letter is not None and letter.group(1).casefold() == own_letter:
            return option.value
        if picked is not None and picked.group(1).casefold() == own_letter and (
                squashed(picked.group(2)) == squashed(option.label)):
            return option.value
        if typed and typed in (squashed(option.label), squashed(option.value)):
            return option.value
    return None
