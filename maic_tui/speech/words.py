"""What a voice says for a text: words, never markup ("**", "#"), LaTeX source ("backslash frac") or a code
block read out symbol by symbol; and the text cut into sentences as they complete, each under the provider's
input limit, so speech can start on the first sentence while the message still streams."""

from __future__ import annotations

import re

from maic_tui.text_safety import terminal_safe

INPUT_LIMIT = 4_000  # characters one synthesis call takes (OpenAI's /audio/speech takes 4,096)
_FENCE = re.compile(r"```.*?(?:```|$)", re.S)
_MATH = re.compile(r"\$\$(.+?)\$\$|\$([^$\n]+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)
_MARKS = re.compile(r"(\*\*|__|[*_`#>|~]+)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_END = re.compile(r"(?<=[.!?…。！？])[\"')\]]*\s+")  # a sentence ends here, before the space that follows it
# Text that stops on a word and a full stop has ended a sentence, without waiting for the next delta (a model
# may draw on the board for seconds before it goes on); not after a number (3.) or an abbreviation (e.g.).
_ENDS_NOW = re.compile(r"([^\W\d_]{2,})[.!?…。！？][\"')\]]*$")
ABBREVIATIONS = frozenset({"eg", "ie", "dr", "mr", "mrs", "ms", "prof", "st", "vs", "etc", "cf", "al", "fig", "no"})


def latex_words(source: str) -> str:
    from pylatexenc.latex2text import LatexNodes2Text

    try:
        return str(LatexNodes2Text(math_mode="text").latex_to_text(source))
    except Exception:  # a formula pylatexenc cannot read: its letters and digits, not its backslashes
        return re.sub(r"\\[A-Za-z]+|[{}^_\\]", " ", source)


def speakable(text: str) -> str:
    """The words of ``text``: code blocks named, formulas read as text, Markdown marks and links gone."""
    text = terminal_safe(text)
    text = _FENCE.sub(" (code) ", text)
    text = _MATH.sub(lambda m: " " + latex_words(next(g for g in m.groups() if g is not None)) + " ", text)
    if "\\" in text:  # LaTeX without dollars, as small models write it
        text = re.sub(r"\\[A-Za-z]+(?:\{[^{}]*\})*", lambda m: " " + latex_words(m.group()) + " ", text)
    text = _LINK.sub(r"\1", text)
    text = _MARKS.sub(" ", text)
    return re.sub(r"\s+([,.;:!?])", r"\1", " ".join(text.split()))


def cut(sentence: str, limit: int = INPUT_LIMIT) -> list[str]:
    """A sentence longer than ``limit`` in pieces at word boundaries (a word longer than that, cut where it must)."""
    pieces, current = [], ""
    for word in sentence.split():
        while len(word) > limit:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(word[:limit])
            word = word[limit:]
        if current and len(current) + 1 + len(word) > limit:
            pieces.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        pieces.append(current)
    return pieces


class Sentences:
    """A message's text as it streams, given back sentence by sentence once each is complete."""

    def __init__(self, limit: int = INPUT_LIMIT) -> None:
        self.limit = limit
        self._text = ""

    def feed(self, delta: str) -> list[str]:
        self._text += delta
        done: list[str] = []
        while True:
            if self._text.count("```") % 2 == 1:  # inside a code block: nothing ends until it does
                return done
            fence = self._text.rfind("```")
            found = _END.search(self._text, fence + 3 if fence != -1 else 0)  # never a stop inside code
            ends = _ENDS_NOW.search(self._text)
            if found is None and ends is not None and ends.group(1).casefold() not in ABBREVIATIONS \
                    and not self._text[: ends.start(1)].endswith("."):  # "e.g." arrives as "e." then "g."
                done += [piece for piece in cut(speakable(self._text), self.limit) if piece]
                self._text = ""
                return done
            if found is None:
                if len(self._text) > self.limit:  # a run-on without a stop: spoken in pieces anyway
                    *whole, rest = cut(self._text, self.limit) or [""]
                    done += [s for piece in whole if (s := speakable(piece))]
                    self._text = rest
                return done
            sentence, self._text = self._text[: found.start()], self._text[found.end():]
            done += [piece for piece in cut(speakable(sentence), self.limit) if piece]

    def flush(self) -> list[str]:
        """What is left when the message ends."""
        rest, self._text = self._text, ""
        return [piece for piece in cut(speakable(rest), self.limit) if piece]
