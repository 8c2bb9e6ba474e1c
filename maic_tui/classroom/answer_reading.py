"""A learner's answer read as people type it (ARCHITECTURE.md, *The lesson*): an option by its letter with or without
punctuation (``b``, ``B)``, ``(b)``, ``b.``), by its number or ordinal as the numbered lists show them (``1``,
``(1)``, ``option 2``, ``the second one``, ``1 and 3``), its label or value with spacing, case and punctuation ignored
(``2,3,4`` is ``2, 3, 4``), a picked line (``B) label``), several in plain language (``A and C``, ``speed and
acceleration``, ``a, c``) after an opening such as "I think"; a short answer compared with the accepted forms the
same way; a guess against a question's expected answers (``says_expected``); a reply that only asks to go on
(``GO_ON``). Nothing typed is ever run: answers are only compared as text."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from maic_tui.classroom.lesson import QuizQuestion

# A reply that only asks to go on (at a pause, or after Q&A): the lesson continues without a turn, and a pause's
# option that says so is no answer to take up.
GO_ON = re.compile(r"^\s*(go on|continue|continue the lesson|next|ok(ay)?|carry on|move on|"
                   r"let'?s (go|go on|move on|continue)|ready|got it|no(pe)?|no questions?)\s*[.!]*\s*$", re.IGNORECASE)
# What people put before an answer; dropped before reading it.
_OPENING = re.compile(r"^(?:i\s+think|i'?d\s+say|i\s+would\s+say|i\s+guess|i\s+choose|i\s+pick|maybe|probably|"
                      r"my\s+answer\s+is|the\s+answer\s+is|answer\s*:|it'?s|it\s+is|both|all\s+of)\s*:?\s*",
                      re.IGNORECASE)
# What people put after an answer ("evaporation i think?"); dropped too.
_CLOSING = re.compile(r"[\s,]*(?:\b(?:i\s+think|i\s+guess|maybe|probably|right|no|i\s+believe)\b)?\s*[?!.]*\s*$",
                      re.IGNORECASE)
# Between several answers: punctuation, "and", "&", "plus", "as well as".
_BETWEEN = re.compile(r"\s*(?:[;,/&+]|\band\b|\bplus\b|\bas\s+well\s+as\b)\s*", re.IGNORECASE)
_LETTER = re.compile(r"^[(\[]?\s*([A-Za-z])\s*[)\].:]?$")  # a, A), (b), [c], d., e:
_PICKED = re.compile(r"^[(\[]?([A-Za-z])[)\].:]\s+(.+)$")  # "B) label", as the app's option list sends a pick
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
# An option by its place: "1", "(1)", "#2", "no. 2", "option 2", "the second one", "2nd", "letter b"
_PLACE = re.compile(r"^(?:the\s+)?(?:(?:options?|choices?|answers?|numbers?|no\.?|letters?|#)\s*)?[(\[]?\s*"
                    r"(?P<place>\d{1,2}|[a-z]|\d{1,2}(?:st|nd|rd|th)|" + "|".join(_ORDINALS) + r")"
                    r"\s*[)\].:]?(?:\s+(?:one|option|choice|answer))?$", re.IGNORECASE)


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


def no_answer(question: QuizQuestion, reply: str | Sequence[str]) -> bool:
    """A reply that only asks to go on ("go on", "next", "ok") and names no option nor an accepted form: at a
    question asked, it is no answer to grade."""
    if not isinstance(reply, str) or not GO_ON.match(reply):
        return False
    known = {option.value for option in question.options}
    named = _option(question, reply.strip().rstrip(".!")) is not None  # an option called "No" or "Next"
    return not named and not accepted(question, reply) and not known.intersection(read_choices(question, reply))


def read_choices(question: QuizQuestion, reply: str | Sequence[str]) -> list[str]:
    """Option values from the learner's reply; an item that names no option is kept as typed (graded wrong)."""
    if not isinstance(reply, str):
        return [_option(question, item) or item for item in reply]
    text = reply.strip()
    for _ in range(3):  # "I think it's …": one opening after another
        text = _OPENING.sub("", text).strip()
    text = _CLOSING.sub("", text).rstrip(".!")
    whole = _option(question, text)
    if whole is not None:
        return [whole]
    items = [item for item in _BETWEEN.split(text) if item.strip()]
    if len(items) == 1 and all(_LETTER.match(word) or word.isdigit() for word in text.split()):
        items = text.split()  # "a c", "1 3"
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
    place = place_named(item)  # an option's own label ("2") is read first, its place only after
    return question.options[place].value if place is not None and place < len(question.options) else None


def place_named(item: str, letters: bool = True) -> int | None:
    """The index of the option an item names by its number (from 1), ordinal or (with ``letters``) letter, as a
    numbered list of options or suggestions shows them ("2", "(2)", "option 2", "the second one"); None if none."""
    found = _PLACE.match(item.strip())
    if found is None:
        return None
    place = found.group("place").casefold()
    if not letters and place.isalpha() and len(place) == 1:
        return None
    if place in _ORDINALS:
        return _ORDINALS.index(place)
    digits = place.rstrip("stndrh")
    if digits.isdigit():
        return int(digits) - 1 if int(digits) >= 1 else None
    return ord(place) - ord("a") if len(place) == 1 else None


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_TERM = re.compile(r"[^\W_]+(?:[\^.][^\W_]+)*|[\^]")
FUZZY_WORD = 85  # rapidfuzz ratio at which a longer word is read as the expected one ("precipitaton")


def _terms(text: str) -> list[str]:
    """A reply's words and terms, case and the spacing around ``^`` and ``*`` ignored ("5 x ^ 4" is "5 x^4")."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("*", " ")
    folded = re.sub(r"\s*\^\s*", "^", folded)
    return _TERM.findall(folded)


def says_expected(expects: Sequence[str], reply: str) -> bool:
    """The reply gives one of the expected answers: its words in order, among others ("oh wait 5x^4", "evaporation,
    condensation and precipitation"), a longer word misspelt a little; an answer of numbers only with exactly those
    numbers ("6" is not "16", "0, 2, 4" is not "0, 2, 4, 6")."""
    from rapidfuzz import fuzz

    typed = _terms(reply)
    numbers = [term for term in typed if _NUMBER.fullmatch(term)]
    for form in expects:
        wanted = _terms(form)
        if not wanted:
            continue
        if all(_NUMBER.fullmatch(term) for term in wanted):
            if numbers == wanted:
                return True
            continue
        if squashed(form) and not any(ch.isdigit() for ch in form) and squashed(form) in squashed(reply):
            return True
        left = iter(typed)
        if all(any(term == word or (len(term) >= 5 and fuzz.ratio(term, word) >= FUZZY_WORD) for word in left)
               for term in wanted):
            return True
    return False
