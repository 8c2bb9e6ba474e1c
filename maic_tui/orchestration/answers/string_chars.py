"""The characters of a JSON string as they stream in: escapes, ``\\u`` code units and surrogate pairs decoded across
chunks, for the stream parser (``parser.py``), which decides where a string starts and ends."""

from __future__ import annotations

# "\b" and "\f" are left out on purpose: no speech or formula wants a backspace or form feed, while
# "\frac" and "\beta" written with one backslash are common; they stay literal like other unknown escapes.
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "n": "\n", "r": "\r", "t": "\t"}
_HEX = frozenset("0123456789abcdefABCDEF")


class StringChars:
    """An open string's decoded text so far; ``take`` hands it on in pieces (speech streams while it is open)."""

    __slots__ = ("_escape", "_high_surrogate", "_parts")

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._escape: str | None = None  # None, "\\" or "\\u" + collected hex digits
        self._high_surrogate: int | None = None

    @property
    def escaping(self) -> bool:
        return self._escape is not None

    @property
    def has_text(self) -> bool:
        return bool(self._parts)

    def clear(self) -> None:
        self._parts = []

    def begin_escape(self) -> None:
        self._escape = "\\"

    def add(self, text: str) -> None:
        self.flush_surrogate()
        self._parts.append(text)

    def read_escape(self, text: str, i: int) -> int:
        """Read the escape begun before ``text[i]``, as far as ``text`` goes; where it ended."""
        escape = self._escape or ""
        if escape == "\\":
            c = text[i]
            if c == "u":
                self._escape = "\\u"
                return i + 1
            self._escape = None
            # JSON has no "\s" or "\a": keep such pairs literally (LaTeX written with single backslashes).
            self.add(_ESCAPES.get(c, "\\" + c))
            return i + 1
        n = len(text)
        while i < n and len(escape) < 6 and text[i] in _HEX:
            escape += text[i]
            i += 1
        if len(escape) == 6:
            self._escape = None
            self._add_code_unit(int(escape[2:], 16))
        elif i < n:
            self._escape = None
            self.add(escape)  # "\u" without four hex digits: keep it as written
        else:
            self._escape = escape
        return i

    def _add_code_unit(self, code: int) -> None:
        if 0xD800 <= code < 0xDC00:
            self.flush_surrogate()
            self._high_surrogate = code
        elif 0xDC00 <= code < 0xE000:
            high, self._high_surrogate = self._high_surrogate, None
            if high is None:
                self._parts.append("\ufffd")
            else:
                self._parts.append(chr(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)))
        else:
            self.add(chr(code))

    def flush_surrogate(self) -> None:
        """A high surrogate with no low one after it is a replacement character."""
        if self._high_surrogate is not None:
            self._high_surrogate = None
            self._parts.append("\ufffd")

    def finish(self) -> None:
        """The string closed: an escape left open is kept as written, a lone surrogate replaced."""
        if self._escape is not None:
            self.add(self._escape)
            self._escape = None
        self.flush_surrogate()

    def take(self) -> str:
        text = "".join(self._parts)
        self._parts = []
        return text
