"""Chat models: the offline demo model, the script model and OpenAI-compatible servers."""

from maic_tui.llm.context import DIRECTOR, CallContext
from maic_tui.llm.errors import ModelError, describe
from maic_tui.llm.options import ModelOptions, StructuredMode
from maic_tui.llm.provider import ModelProvider, ModelSpec, ModelSpecError, make_provider
from maic_tui.llm.script_model import ScriptError

__all__ = [
    "DIRECTOR",
    "CallContext",
    "ModelError",
    "ModelOptions",
    "ModelProvider",
    "ModelSpec",
    "ModelSpecError",
    "ScriptError",
    "StructuredMode",
    "describe",
    "make_provider",
]
