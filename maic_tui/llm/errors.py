"""Model failures as one readable line, and whether the rest of the turn is worth trying.

The OpenAI client's exceptions are recognised by name and status code, so this module does not import
``openai`` (only an ``openai:`` model does, lazily). Messages never carry an API key.
"""

from __future__ import annotations

import re
from functools import cache

from maic_tui.i18n import N_, _
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

    def __init__(self, message: str, *, fatal: bool = False, dropped: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.fatal = fatal
        self.dropped = dropped  # the connection was lost (after the server had answered, if it had)


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


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not link for link in seen) and len(seen) < 8:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


# What describe() says, marked here once: the records keep the English, ``shown_failure`` says it again in the
# interface's language where a person reads a recorded failure (the transcript, a replay).
TIMED_OUT = N_("the model server timed out")
CONNECTION_FAILED = N_("connection failed")
UNREACHABLE = N_("cannot reach the model server ({detail}); is it running, and is the base URL right?")
REFUSED_KEY = N_("the model server refused the API key (401); check MAIC_API_KEY or OPENAI_API_KEY")
RATE_LIMITED = N_("the model server is rate limiting (429); try again shortly")
ANSWERED_WHY = N_("the model server answered {status}: {detail}")
ANSWERED = N_("the model server answered {status}")
NOT_UTF8 = N_("the model server sent bytes that are not UTF-8 text")
NOT_JSON = N_("the model server sent a malformed stream (not JSON: {reason})")
UNREADABLE_REPLY = N_("the model server sent a reply this client cannot read ({reason})")
CALL_FAILED = N_("the model call failed ({detail})")
NO_DETAILS = N_("no details")
_DROPPED_LINE = N_("the connection to the model server dropped in the middle of the answer")
BROKE_OFF = N_("the model stream broke off after {count} characters")  # an answer that stopped half-way
FAILURES = (TIMED_OUT, UNREACHABLE, REFUSED_KEY, RATE_LIMITED, ANSWERED_WHY, ANSWERED, NOT_UTF8, NOT_JSON,
            UNREADABLE_REPLY, CALL_FAILED, _DROPPED_LINE, BROKE_OFF)
FAILURE_WORDS = (CONNECTION_FAILED, NO_DETAILS)  # said inside another failure's line
TURN_STOPPED = N_("the turn ran past its limit of {seconds} s; stopped")  # the director's, a line of its own


def describe(exc: BaseException, *, who: str, secrets: tuple[str, ...] = (), shown: bool = False) -> ModelError:
    """Turn any exception raised by a model call into a ModelError with one plain line: what failed and, where
    it helps, what to do. Never a Python class name, never a traceback or a documentation URL. ``shown``: the
    line is for a person at the command line (doctor, new, regen), in the interface's language; otherwise English,
    as the records and the model's warnings keep it."""
    if isinstance(exc, ModelError):
        return ModelError(one_line(f"{who}: {redact(exc.message, secrets)}"), fatal=exc.fatal)
    words = _ if shown else str
    chain = _chain(exc)
    # langchain-openai wraps the client's errors in subclasses, so the whole class chain is looked at.
    names = {cls.__name__ for cls in type(exc).__mro__}
    causes = {cls.__name__ for link in chain[1:] for cls in type(link).__mro__}
    status = getattr(exc, "status_code", None)
    detail = _detail(exc)
    dropped = bool(causes & _DROPPED) or any(word in str(link).lower() for link in chain for word in _DROP_WORDS)
    timed_out = dropped_mid_answer = False
    if names & {"APITimeoutError", "TimeoutError", "ReadTimeout", "ConnectTimeout", "ModelTimeoutError"}:
        text, timed_out = words(TIMED_OUT), True
    elif names & {"APIConnectionError", "ConnectError", "ConnectionError", "ModelConnectionError"} and dropped:
        text, dropped_mid_answer = words(_DROPPED_LINE), True
    elif names & {"APIConnectionError", "ConnectError", "ConnectionError", "ModelConnectionError"}:
        if detail in ("", "Connection error."):
            detail = words(CONNECTION_FAILED)
        text = words(UNREACHABLE).format(detail=detail)
    elif status == 401 or "AuthenticationError" in names:
        text = words(REFUSED_KEY)
    elif status == 429 or "RateLimitError" in names:
        text = words(RATE_LIMITED)
    elif status is not None:
        text = words(ANSWERED_WHY if detail else ANSWERED).format(status=status, detail=detail)
    elif names & {"RemoteProtocolError", "ReadError"} or dropped:
        text, dropped_mid_answer = words(_DROPPED_LINE), True
    elif isinstance(exc, UnicodeDecodeError) or causes & {"UnicodeDecodeError"}:
        text = words(NOT_UTF8)
    elif "JSONDecodeError" in names | causes:
        text = words(NOT_JSON).format(reason=_json_reason(chain))
    elif "ValidationError" in names:
        text = words(UNREADABLE_REPLY).format(reason=_validation_reason(exc))
    else:
        text = words(CALL_FAILED).format(detail=detail or words(NO_DETAILS))
    fatal = not (timed_out or dropped_mid_answer) and (bool(names & _FATAL_NAMES) or status in _FATAL_STATUS)
    return ModelError(one_line(f"{who}: {redact(text, secrets)}"), fatal=fatal, dropped=dropped_mid_answer or fatal)


_DROPPED = {"RemoteProtocolError", "ReadError", "IncompleteRead"}
_DROP_WORDS = ("incomplete chunked read", "peer closed connection", "connection reset")


def _json_reason(chain: list[BaseException]) -> str:
    for link in chain:
        message = getattr(link, "msg", None)
        if isinstance(message, str) and hasattr(link, "lineno"):
            return f"{message} at line {link.lineno} column {link.colno}"  # type: ignore[attr-defined]
    return "unexpected text"


def _validation_reason(exc: BaseException) -> str:
    errors = getattr(exc, "errors", None)
    try:
        first = errors()[0] if callable(errors) else None
    except Exception:
        first = None
    if not isinstance(first, dict):
        return "unexpected fields"
    where = ".".join(str(part) for part in first.get("loc", ()))
    return f"{where}: {first.get('msg', 'unexpected value')}" if where else str(first.get("msg", "unexpected value"))


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


# --- a recorded failure said again -----------------------------------------------------------------------------
# The session log keeps describe()'s English line ("Mia: the model server timed out"), as a program reads it; the
# transcript (live, and in a replay of the record) shows it translated: the line is matched against the messages
# above, and the one it is formatted again in the interface's language with what the record holds in its fields.

# Who failed, when it is not an agent (named as the class names them): describe's ``who`` for the class's parts.
PARTS = {"director": N_("director"), "engine": N_("engine"), "judge": N_("judge"), "grader": N_("grader")}


@cache
def _pattern(message: str) -> re.Pattern[str]:
    """A marked message as a pattern of its English words, its named fields caught."""
    return re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+?)", re.escape(message)), re.DOTALL)


def _failure(text: str) -> str | None:
    for message in FAILURES:
        match = _pattern(message).fullmatch(text)
        if match is not None:
            fields = {key: _(value) if value in FAILURE_WORDS else value for key, value in match.groupdict().items()}
            return _(message).format(**fields)
    return None


def shown_failure(line: str) -> str:
    """``line`` in the interface's language when it is a model failure as ``describe`` writes it ("who: what"),
    otherwise as it is."""
    match = _pattern(TURN_STOPPED).fullmatch(line)
    if match is not None:
        return _(TURN_STOPPED).format(**match.groupdict())
    start = 0
    while (colon := line.find(": ", start)) != -1:  # an agent's name may hold ": " itself
        said = _failure(line[colon + 2:])
        if said is not None:
            who = line[:colon]
            return f"{_(PARTS[who]) if who in PARTS else who}: {said}"
        start = colon + 1
    return line
