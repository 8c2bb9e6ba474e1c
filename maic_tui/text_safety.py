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
