"""Chat models: the offline demo model, the script model and OpenAI-compatible servers.

Exports load on first use: the TUI reads ``ModelOptions`` before its first frame, and must not pay for
importing LangChain then (it is loaded with the session, after the frame).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from maic_tui.llm.context import DIRECTOR, CallContext
    from maic_tui.llm.errors import ModelError, describe
    from maic_tui.llm.options import ModelOptions, StructuredMode
    from maic_tui.llm.provider import ModelProvider, ModelSpec, ModelSpecError, make_provider
    from maic_tui.llm.script_model import ScriptError

_HOME = {
    "DIRECTOR": "context", "CallContext": "context",
    "ModelError": "errors", "describe": "errors",
    "ModelOptions": "options", "StructuredMode": "options",
    "ModelProvider": "provider", "ModelSpec": "provider", "ModelSpecError": "provider", "make_provider": "provider",
    "ScriptError": "script_model",
}

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


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"maic_tui.llm.{_HOME[name]}"), name)
    globals()[name] = value
    return value
