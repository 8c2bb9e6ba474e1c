"""Model failures as one readable line, and whether the rest of the turn is worth trying.

The OpenAI client's exceptions are recognised by name and status code, so this module does not import
``openai`` (only an ``openai:`` model does, lazily). Messages never carry an API key.
"""

from __future__ import annotations

import re

from maic_tui.redaction import REDACTED
from maic_tui.redaction import redact as redact_secrets
from maic_tui.text_safety import terminal_safe

# The server cannot be reached or will not serve us: every further call this turn would fail the same way.
_FATAL_NAMES = {"APIConnectionError", "AuthenticationError", "PermissionDeniedError", "NotFoundError",
                "ConnectError", "ConnectionRefusedError", "ModelConnectionError"}
_FATAL_STATUS = {401, 403, 404}
_SECRET = re.compile(r"(sk-[A-Za-z0-9_\-]{6,}|Bearer\s+\S+|api[_-]?key\s*[=:]\s*\S+)", re.IGNORECASE)
_MAX_CHARS = 240


class ModelError(Exception):
    """A model call failed. ``fatal`` means the server is unreachable or refuses us."""

    def __init__(self, message: str, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.fatal = fatal


class ScriptExhausted(ModelError):
    """A script model has no response left for a caller."""


class ModelTimeoutError(ModelError):
    """A model call (retries included) or the whole turn ran past its deadline."""


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    """The configured secrets, and anything shaped like a credential that a server echoed back in an error."""
    return _SECRET.sub(REDACTED, redact_secrets(text, secrets))


def one_line(text: str, limit: int = _MAX_CHARS) -> str:
    flat = " ".join(terminal_safe(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def describe(exc: BaseException, *, who: str, secrets: tuple[str, ...] = ()) -> ModelError:
    """Turn any exception raised by a model call into a ModelError with a one-line message."""
    if isinstance(exc, ModelError):
        return ModelError(one_line(f"{who}: {redact(exc.message, secrets)}"), fatal=exc.fatal)
    name = type(exc).__name__
    # langchain-openai wraps the client's errors in subclasses, so the whole class chain is looked at.
    names = {cls.__name__ for cls in type(exc).__mro__}
    status = getattr(exc, "status_code", None)
    detail = _detail(exc)
    if names & {"APITimeoutError", "TimeoutError", "ReadTimeout", "ConnectTimeout", "ModelTimeoutError"}:
        text = "the model server timed out"
    elif names & {"APIConnectionError", "ConnectError", "ConnectionError", "ModelConnectionError"}:
        if detail in ("", "Connection error."):
            detail = "connection failed"
        text = f"cannot reach the model server ({detail})"
    elif status == 401 or "AuthenticationError" in names:
        text = "the model server refused the API key (401)"
    elif status == 429 or "RateLimitError" in names:
        text = "the model server is rate limiting (429); try again shortly"
    elif status is not None:
        text = f"the model server answered {status}" + (f": {detail}" if detail else "")
    elif name in ("RemoteProtocolError", "ReadError") or "incomplete" in detail.lower():
        text = f"the model stream broke off ({detail or name})"
    else:
        text = f"{name}: {detail}" if detail else name
    timed_out = text == "the model server timed out"
    fatal = not timed_out and (bool(names & _FATAL_NAMES) or status in _FATAL_STATUS)
    return ModelError(one_line(f"{who}: {redact(text, secrets)}"), fatal=fatal)


def _detail(exc: BaseException) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if message:
            return str(message)
    text = str(exc)
    cause = exc.__cause__ or exc.__context__
    if cause is not None and (not text or text == "Connection error."):
        text = str(cause) or type(cause).__name__
    return text
