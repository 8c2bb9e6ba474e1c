"""Make untrusted text (model output, classroom files) safe to print on a terminal."""

from __future__ import annotations

import re

# CSI and OSC sequences first (so their parameters go too), then any other C0/C1 control character.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI ... final byte
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC ... BEL or ST
    r"|\x1b[@-Z\\-_]"  # other two-byte escapes
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
)


def terminal_safe(text: str) -> str:
    """Strip escape sequences and control characters; keep newlines and tabs."""
    return _ESCAPES.sub("", text)


_PENDING_ESCAPE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*|)\Z")


def stable_prefix(text: str) -> int:
    """How much of a growing text can be made safe now: all of it, unless it ends inside an escape sequence.

    Streamed text may split ``ESC [ 2 J`` across chunks; cleaning each chunk alone would leave ``2J``
    on screen. Holding back the unfinished tail until it completes keeps the cleaned text append-only.
    """
    match = _PENDING_ESCAPE.search(text, max(0, len(text) - 256))
    return match.start() if match else len(text)


class EscapeFilter:
    """Removes escape sequences and control characters from text that arrives in pieces.

    A sequence split across pieces (``ESC [ 2`` then ``J``) goes as a whole, parameters included;
    cleaning each piece alone would leave ``2J`` on screen. An unterminated string sequence (OSC and
    kin) gives up after ``STRING_LIMIT`` characters, so a stray ESC cannot swallow a whole answer.
    """

    STRING_LIMIT = 256
    _KEEP = "\n\t"

    def __init__(self) -> None:
        self._state = "text"  # text | esc | csi | string | string_esc
        self._consumed = 0

    def feed(self, text: str) -> str:
        out: list[str] = []
        for char in text:
            code = ord(char)
            state = self._state
            if state == "text":
                if code == 0x1B:
                    self._state = "esc"
                elif code == 0x9B:
                    self._state = "csi"
                elif code in (0x90, 0x9D, 0x98, 0x9E, 0x9F):
                    self._enter_string()
                elif (code < 0x20 or 0x7F <= code <= 0x9F) and char not in self._KEEP:
                    continue
                else:
                    out.append(char)
            elif state == "esc":
                if char == "[":
                    self._state = "csi"
                elif char in "]PX^_":
                    self._enter_string()
                else:  # a two-byte escape (ESC 7, ESC c, ...): dropped with its final character
                    self._state = "text"
            elif state == "csi":
                if 0x40 <= code <= 0x7E:
                    self._state = "text"
                elif not 0x20 <= code <= 0x3F:  # not a CSI byte: the sequence was broken off
                    self._state = "text"
                    out.append(self.feed(char))
            else:  # inside an OSC/DCS/... string, which ends with BEL, ESC \ or ST
                self._consumed += 1
                if code in (0x07, 0x9C) or (state == "string_esc" and char == "\\"):
                    self._state = "text"
                elif code == 0x1B:
                    self._state = "string_esc"
                else:
                    self._state = "string"
                if self._consumed > self.STRING_LIMIT:
                    self._state = "text"
        return "".join(out)

    def _enter_string(self) -> None:
        self._state = "string"
        self._consumed = 0
