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
