"""LaTeX as readable Unicode text: pylatexenc for symbols, plus the grouping it drops.

pylatexenc turns ``x^{n-1}`` into ``x^n-1`` and ``\\frac{a+b}{c}`` into ``a+b/c``; a small pre-pass keeps
such groups readable: super/subscripts become Unicode (``x²``, ``xₙ``) when every character has a form,
otherwise ``^(n-1)``; fractions with compound parts get parentheses.
"""

from __future__ import annotations

import re
from functools import lru_cache

from maic_tui.text_safety import terminal_safe

_SUPER = dict(zip("0123456789+-=()niabcdefghjklmoprstuvwxyzABDEGHIJKLMNOPRTUVW",
                  "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵃᵇᶜᵈᵉᶠᵍʰʲᵏˡᵐᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ", strict=True))
_SUB = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True))
_FRACTIONS = ("\\frac", "\\dfrac", "\\tfrac")
_SIMPLE = re.compile(r"^[\w.′']+$")


def _group(source: str, start: int) -> tuple[str, int]:
    """The argument starting at ``start``: a balanced {group}, a \\command, or one character."""
    while start < len(source) and source[start] == " ":
        start += 1
    if start >= len(source):
        return "", start
    if source[start] == "{":
        depth = 0
        for index in range(start, len(source)):
            if source[index] == "{":
                depth += 1
            elif source[index] == "}":
                depth -= 1
                if depth == 0:
                    return source[start + 1:index], index + 1
        return source[start + 1:], len(source)
    if source[start] == "\\":
        match = re.match(r"\\[A-Za-z]+|\\.", source[start:])
        end = start + (match.end() if match else 1)
        return source[start:end], end
    return source[start], start + 1


def _script(text: str, table: dict[str, str], mark: str) -> str:
    if text and all(c in table for c in text):
        return "".join(table[c] for c in text)
    return f"{mark}{text}" if len(text) == 1 else f"{mark}({text})"


def _regroup(source: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(source):
        if source.startswith(_FRACTIONS, index):
            name_end = index + len(next(f for f in _FRACTIONS if source.startswith(f, index)))
            numerator, after = _group(source, name_end)
            denominator, index = _group(source, after)
            top, bottom = to_unicode(numerator), to_unicode(denominator)
            top = top if _SIMPLE.match(top) else f"({top})"
            bottom = bottom if _SIMPLE.match(bottom) else f"({bottom})"
            out.append(f"{top}/{bottom}")
            continue
        char = source[index]
        if char in "^_" and (index == 0 or source[index - 1] != "\\"):
            argument, index = _group(source, index + 1)
            text = to_unicode(argument)
            out.append("{}")  # ends a preceding command name: \sum_i must not read as \sumᵢ
            out.append(_script(text, _SUPER, "^") if char == "^" else _script(text, _SUB, "_"))
            continue
        out.append(char)
        index += 1
    return "".join(out)


@lru_cache(maxsize=512)
def to_unicode(latex: str) -> str:
    """Readable one-line Unicode for a formula; never raises (unparseable input comes back as written)."""
    from pylatexenc.latex2text import LatexNodes2Text  # imported on first formula: start-up stays fast

    try:
        text = LatexNodes2Text(math_mode="text", strict_latex_spaces=True).latex_to_text(_regroup(latex))
    except Exception:  # pylatexenc is lenient, but model output is arbitrary text
        text = latex
    return " ".join(terminal_safe(text).split())
