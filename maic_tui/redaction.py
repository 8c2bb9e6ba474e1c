"""Keeping configured secrets (the API key) out of everything we show or write.

One rule everywhere: a configured secret of at least ``MIN_SECRET`` characters is replaced by ``***``
(shorter "keys" such as ``none`` or ``x`` are placeholders; replacing them would mangle ordinary text).
``StreamRedactor`` applies it to the event stream itself, where speech arrives in pieces and a key may be
split across them, so no consumer of the stream (stdout, the app, the log, exports) ever sees one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from maic_tui.text_safety import one_line

REDACTED = "***"
MIN_SECRET = 6


def usable_secrets(secrets: Iterable[str | None]) -> tuple[str, ...]:
    return tuple(s for s in secrets if s and len(s) >= MIN_SECRET)


def redact(text: str, secrets: Iterable[str]) -> str:
    for secret in secrets:
        if len(secret) >= MIN_SECRET:
            text = text.replace(secret, REDACTED)
    return text


def secret_free_line(text: str, secrets: Iterable[str | None], limit: int) -> str:
    """``text`` as one line of at most ``limit`` characters holding no secret and no start of one: the secrets are
    replaced *before* the cut (a cut made first could keep most of a key, and redaction would then miss it), and
    a run that begins like a secret (a server that cut its echo of the key itself) goes too."""
    found = usable_secrets(secrets)
    text = redact(text, found)
    for secret in found:
        start = text.find(secret[:MIN_SECRET])
        while start != -1:
            end = start + MIN_SECRET
            while end < len(text) and end - start < len(secret) and text[end] == secret[end - start]:
                end += 1
            text = text[:start] + REDACTED + text[end:]
            start = text.find(secret[:MIN_SECRET], start + len(REDACTED))
    return one_line(text, limit)


def redact_tree(value: Any, secrets: tuple[str, ...]) -> Any:
    """A decoded value with the secrets replaced in every string (keys too)."""
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {redact_tree(k, secrets): redact_tree(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_tree(item, secrets) for item in value]
    return value


def unsafe_tail(text: str, secrets: Iterable[str]) -> int:
    """How many characters at the end of ``text`` could be the beginning of a secret."""
    longest = 0
    for secret in secrets:
        for size in range(min(len(secret) - 1, len(text)), longest, -1):
            if secret.startswith(text[-size:]):
                longest = size
                break
    return longest


class PieceRedactor:
    """Redacts text that arrives in pieces, per stream: the end of a piece that could start a secret is
    held back until the next piece (or the stream's end) shows whether it does."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self.secrets = usable_secrets(secrets)
        self._held: dict[str, str] = {}

    def feed(self, stream: str, piece: str) -> str:
        text = redact(self._held.pop(stream, "") + piece, self.secrets)
        keep = unsafe_tail(text, self.secrets)
        if keep:
            self._held[stream] = text[-keep:]
            text = text[:-keep]
        return text

    def end(self, stream: str) -> str:
        """What was held back for a stream that has ended (it cannot start a secret any more)."""
        return redact(self._held.pop(stream, ""), self.secrets)

    def pending(self) -> list[str]:
        return list(self._held)
