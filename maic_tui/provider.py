"""The model spec string (``demo``, ``openai:<model>``, ``script:<path>``) and the chat model for each caller: the
offline demo (``maic_tui/demo``), a script file or an OpenAI-compatible server (``maic_tui/llm``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel

from maic_tui.classroom.models import Classroom
from maic_tui.llm.context import DIRECTOR
from maic_tui.llm.options import ModelOptions
from maic_tui.llm.spec import ModelSpec


@dataclass
class ModelProvider:
    """Hands out the chat model for the director and for each agent; built once per session."""

    spec: ModelSpec
    options: ModelOptions
    classroom: Classroom | None = None  # what the demo model plays; the other models need none
    _shared: Any = None
    _cache: dict[str, BaseChatModel] = field(default_factory=dict)

    @property
    def is_remote(self) -> bool:
        return self.spec.kind == "openai"

    def set_pace(self, chars_per_second: float) -> None:
        """The demo model's speed from its next call on (the other models stream at their server's speed)."""
        self.options = self.options.model_copy(update={"pace": chars_per_second})
        if self.spec.kind == "demo":
            self._cache.clear()

    def for_caller(self, caller: str) -> BaseChatModel:
        if caller not in self._cache:
            self._cache[caller] = self._build(caller)
        return self._cache[caller]

    def director(self) -> BaseChatModel:
        return self.for_caller(DIRECTOR)

    def _build(self, caller: str) -> BaseChatModel:
        if self.spec.kind == "demo":
            from maic_tui.demo import DemoChatModel

            if self.classroom is None:
                raise ValueError("the demo model answers from a classroom's material, and there is none here")

            return DemoChatModel(classroom=self.classroom, caller=caller, seed=self.options.seed,
                                 pace=self.options.pace)
        if self.spec.kind == "script":
            from maic_tui.llm.script_model import ScriptBook, ScriptChatModel, load_script

            if self._shared is None:
                self._shared = ScriptBook(load_script(self.spec.target))
            return ScriptChatModel(book=self._shared, caller=caller)
        from maic_tui.llm.openai_model import openai_chat_model

        if self._shared is None:
            self._shared = openai_chat_model(self.spec.target, self.options)
        return self._shared


def make_provider(spec: str, classroom: Classroom | None, options: ModelOptions | None = None) -> ModelProvider:
    """Check the spec and build the model now (a script file is loaded, the OpenAI client imported), so a bad
    spec fails before the first turn and the first turn does not pay for the imports."""
    provider = ModelProvider(ModelSpec.parse(spec), options or ModelOptions(), classroom)
    if provider.spec.kind != "demo":
        provider.director()
    return provider
