"""What a scene shows on its slide (a quiz's too: a heading, a table): the elements an agent may point at on a
slide. Their models, shared by every kind of scene (ARCHITECTURE.md, *Scene kinds*)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from maic_tui.classroom.field_types import Identifier, Text
from maic_tui.i18n import N_
from maic_tui.i18n.said import said
from maic_tui.strict import Strict


class SlideTitle(Strict):
    type: Literal["title"]
    id: Identifier
    text: Text


class SlideText(Strict):
    type: Literal["text"]
    id: Identifier
    text: Text


class SlideBullets(Strict):
    type: Literal["bullets"]
    id: Identifier
    items: list[Text] = Field(min_length=1)


class SlideFormula(Strict):
    type: Literal["formula"]
    id: Identifier
    latex: Text


class SlideImage(Strict):
    type: Literal["image"]
    id: Identifier
    alt: Text


class SlideTable(Strict):
    type: Literal["table"]
    id: Identifier
    rows: list[list[str]] = Field(min_length=1)

    @model_validator(mode="after")
    def _rectangular(self) -> SlideTable:
        if not self.rows[0] or any(len(row) != len(self.rows[0]) for row in self.rows):
            raise ValueError(said(N_("every row needs as many cells as the first row")))
        return self


SlideElement = Annotated[
    SlideTitle | SlideText | SlideBullets | SlideFormula | SlideImage | SlideTable,
    Field(discriminator="type"),
]


