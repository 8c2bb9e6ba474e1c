"""The one boundary for untrusted text: model output, classroom files, logs being replayed, learner input
shown back, and error lines that quote any of them.

Everything that reaches a terminal or a widget is first made inert here: escape sequences go whole
(parameters too, never a ``31m`` left behind), C0/C1 control characters go, and so do the invisible
format characters that reorder or hide text (bidi overrides, zero-width spaces) and lone surrogates
(which a UTF-8 terminal cannot even be sent). Newlines and tabs stay; ZWJ/ZWNJ stay, as scripts and emoji
need them. What this module returns is plain text: widgets show it as ``Content``/``Text`` built from
plain strings, never as markup.
"""

from __future__ import annotations

import re
from typing import Any

from maic_tui.text_cells import shorten

STRING_LIMIT = 256  # an unterminated OSC/DCS string gives up here, so a stray ESC cannot swallow an answer
_INVISIBLE = "\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
_ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"  # CSI ... final byte (or broken off)
    rf"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]{{0,{STRING_LIMIT}}}(?:\x07|\x1b\\|\x9c)?"  # OSC, DCS…
    r"|\x1b[ -/]*[0-~]?"  # any other escape (ESC 7, ESC c, ESC ( B …)
    rf"|[\x00-\x08\x0b-\x1f\x7f-\x9f{_INVISIBLE}\ud800-\udfff]"
)
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029]")  # JSON allows them raw; terminals and JS parsers do not


def terminal_safe(text: str) -> str:
    """Strip escape sequences, control and invisible format characters; keep newlines and tabs. The one filter
    (``EscapeFilter``) on a whole text: a sequence left open at its end goes too."""
    return EscapeFilter().feed(text)


def one_line(text: str, limit: int | None = None) -> str:
    """Made safe, all whitespace runs (newlines too) folded into one space, cut to ``limit`` terminal cells with
    "…" (a cut never splits a grapheme: ``text_cells``)."""
    flat = " ".join(terminal_safe(text).split())
    return flat if limit is None else shorten(flat, limit)


def clean_tree(value: Any) -> Any:
    """A decoded JSON/TOML value with every string in it (keys too) made safe."""
    if isinstance(value, str):
        return terminal_safe(value)
    if isinstance(value, dict):
        return {terminal_safe(k) if isinstance(k, str) else k: clean_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clean_tree(item) for item in value]
    return value


def json_safe(encoded: str) -> str:
    """JSON text with the characters that JSON leaves raw but a terminal would act on written as ``\\uXXXX``."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)


class EscapeFilter:
    """Removes escape sequences, control and invisible characters from text that arrives in pieces.

    A sequence split across pieces (``ESC [ 2`` then ``J``) goes as a whole, parameters included;
    cleaning each piece alone would leave ``2J`` on screen. An unterminated string sequence (OSC and
    kin) gives up after ``STRING_LIMIT`` characters, so a stray ESC cannot swallow a whole answer.
    """

    STRING_LIMIT = STRING_LIMIT
    _KEEP = "\n\t"

    def __init__(self) -> None:
        self._state = "text"  # text | esc | csi | string | string_esc
        self._consumed = 0

    def feed(self, text: str) -> str:
        if self._state == "text" and not _ESCAPES.search(text):
            return text  # the common case: nothing to remove, no sequence left open
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
                elif char not in self._KEEP and _ESCAPES.match(char):
                    continue
                else:
                    out.append(char)
            elif state == "esc":
                if char == "[":
                    self._state = "csi"
                elif char in "]PX^_":
                    self._enter_string()
                elif not 0x20 <= code <= 0x2F:  # a two-byte escape (ESC 7, ESC c, ...): dropped with its final
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
