"""The base of every model that reads a file people write (classrooms, scenarios, script files) or that we
keep as data (board elements): unknown keys are rejected, so a typo never passes silently, and values are
immutable once read."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
