"""Text that is really a formula becomes a LaTeX element (upstream NEWER engine behaviour)."""

from __future__ import annotations

import re

_DELIMITED = re.compile(r"^\s*(?:\$\$(.+)\$\$|\$(.+)\$|\\\((.+)\\\)|\\\[(.+)\\\])\s*$", re.DOTALL)
_COMMAND = re.compile(r"\\([A-Za-z]+)")
_MATH_COMMANDS = frozenset(
    [
        "frac",
        "dfrac",
        "tfrac",
        "sqrt",
        "vec",
        "hat",
        "bar",
        "overline",
        "underline",
        "dot",
        "ddot",
        "tilde",
        "sum",
        "prod",
        "int",
        "iint",
        "oint",
        "lim",
        "infty",
        "partial",
        "nabla",
        "cdot",
        "times",
        "div",
        "pm",
        "mp",
        "leq",
        "geq",
        "neq",
        "approx",
        "equiv",
        "propto",
        "sim",
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "varepsilon",
        "zeta",
        "eta",
        "theta",
        "vartheta",
        "iota",
        "kappa",
        "lambda",
        "mu",
        "nu",
        "xi",
        "pi",
        "varpi",
        "rho",
        "sigma",
        "tau",
        "upsilon",
        "phi",
        "varphi",
        "chi",
        "psi",
        "omega",
        "Gamma",
        "Delta",
        "Theta",
        "Lambda",
        "Xi",
        "Pi",
        "Sigma",
        "Phi",
        "Psi",
        "Omega",
        "mathbb",
        "mathrm",
        "mathbf",
        "left",
        "right",
        "begin",
        "end",
        "log",
        "ln",
        "sin",
        "cos",
        "tan",
        "exp",
        "binom",
        "to",
        "rightarrow",
        "leftarrow",
        "Rightarrow",
        "Leftrightarrow",
        "in",
        "notin",
        "subset",
        "subseteq",
        "cup",
        "cap",
        "forall",
        "exists",
    ]
)
_WINDOWS_PATH = re.compile(r"\b[A-Za-z]:\\")
_PLAIN_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}\b")


def latex_in_text(content: str) -> str | None:
    """The LaTeX source if ``content`` is a formula rather than prose, else None."""
    found = _DELIMITED.match(content)
    if found:
        inner = next(group for group in found.groups() if group is not None).strip()
        return inner or None
    if _WINDOWS_PATH.search(content):
        return None
    commands = _COMMAND.findall(content)
    if not any(name in _MATH_COMMANDS for name in commands):
        return None
    # Prose with one command in it stays text: count ordinary words outside commands and braces.
    words = _PLAIN_WORD.findall(_COMMAND.sub(" ", re.sub(r"\{[^{}]*\}", " ", content)))
    return content.strip() if len(words) < 4 else None
