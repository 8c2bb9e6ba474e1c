"""Speech clean-up applied while text streams: quote markers, item separators, prose fallback."""

from __future__ import annotations

import re

_LINE_START, _IN_MARKERS, _MID_LINE = 0, 1, 2


class QuoteMarkerStripper:
    """Drops ``>`` quote markers (and one space after them) at the start of every line.

    Upstream applies ``^>+\\s?`` to each chunk separately, so a chunk that begins mid-line with ``>``
    ("a " + "> b") loses a character. This keeps the line position across chunks instead.
    """

    def __init__(self) -> None:
        self._state = _LINE_START

    def reset(self) -> None:
        self._state = _LINE_START

    def feed(self, text: str) -> str:
        out: list[str] = []
        i, n = 0, len(text)
        while i < n:
            if self._state == _MID_LINE:
                j = text.find("\n", i)
                if j == -1:
                    out.append(text[i:])
                    break
                out.append(text[i : j + 1])
                i = j + 1
                self._state = _LINE_START
            elif text[i] == ">":
                i += 1
                self._state = _IN_MARKERS
            else:
                if self._state == _IN_MARKERS and text[i] in " \t":
                    i += 1
                self._state = _MID_LINE
        return "".join(out)


_FENCE = re.compile(r"^```[\w+-]*[ \t]*\n?|\n?```[ \t]*$")
# Text that is the remains of a structured answer rather than prose (as OpenMAIC's newer parser drops it).
_RESIDUE = re.compile(
    r"""^(?:
        "?type"?\s*:\s*"(?:text|action)"
      | "(?:content|name|params|action_id)"\s*:
      | [\[{]\s*(?:[\[{"\]}]|$)
    )""",
    re.VERBOSE,
)


def prose_fallback(raw: str) -> str:
    """The speech to show for output that held no structured item, or "" if it is structured residue."""
    text = _FENCE.sub("", raw.strip()).strip()
    if not text or _RESIDUE.match(text):
        return ""
    return text
