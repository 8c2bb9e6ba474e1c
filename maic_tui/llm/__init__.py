"""The model-client layer: the client every caller asks through, streaming, errors and retries, structured
output, and the chat models for OpenAI-compatible servers and script files. The offline demo model is its own
wing (``maic_tui/demo``); which model answers a caller is ``maic_tui/provider.py``.

Exports load on first use: the TUI reads ``ModelOptions`` before its first frame, and must not pay for
importing LangChain then (it is loaded with the session, after the frame).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from maic_tui.lazy import lazy_exports

if TYPE_CHECKING:
    from maic_tui.llm.context import DIRECTOR, CallContext
    from maic_tui.llm.errors import ModelError, describe
    from maic_tui.llm.options import ModelOptions, StructuredMode
    from maic_tui.llm.script_model import ScriptError
    from maic_tui.llm.spec import ModelSpec, ModelSpecError

_HOME = {
    "DIRECTOR": "context", "CallContext": "context",
    "ModelError": "errors", "describe": "errors",
    "ModelOptions": "options", "StructuredMode": "options",
    "ModelSpec": "spec", "ModelSpecError": "spec",
    "ScriptError": "script_model",
}

__all__ = [
    "DIRECTOR",
    "CallContext",
    "ModelError",
    "ModelOptions",
    "ModelSpec",
    "ModelSpecError",
    "ScriptError",
    "StructuredMode",
    "describe",
]


__getattr__ = lazy_exports(__name__, _HOME)
