"""Settings of the chat models, gathered from flags, environment and config by the session layer."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from maic_tui.llm.pace import READING_PACE

StructuredMode = Literal["off", "json_schema", "gbnf", "json_object"]
StructuredSetting = Literal["auto", "off", "json_schema", "gbnf", "json_object"]  # auto: the first the server accepts
DEMO_PACE = READING_PACE.chars_per_second  # a reading pace: 250 words a minute


class ModelOptions(BaseModel):
    model_config = ConfigDict(frozen=True)

    base_url: str | None = None
    api_key: str | None = Field(None, repr=False)
    timeout: float = Field(60.0, gt=0)  # seconds for a whole model call: connect, stream and retries
    retries: int = Field(2, ge=0, le=10)  # more tries after a connect error, a 429 or a 5xx (llm.calls)
    temperature: float | None = None
    max_tokens: int | None = Field(1024, ge=1)
    seed: int = 0
    pace: float = Field(DEMO_PACE, ge=0)  # the demo model's characters per second; 0 = as fast as possible
    structured: StructuredSetting = "auto"

    def secrets(self) -> tuple[str, ...]:
        return (self.api_key,) if self.api_key else ()
