"""The field types a classroom file's models share (its scenes' models too, which live in ``scenes/``)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field

Text = Annotated[str, Field(min_length=1)]


def _fold(value: Any) -> Any:
    return " ".join(value.split()) if isinstance(value, str) else value


# Shown on one line (header, roster, palette): a newline inside would break the layout it sits in.
Line = Annotated[str, BeforeValidator(_fold), Field(min_length=1)]
Identifier = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,39}$")]
