"""One model call bounded as a whole: connect, first byte, the stream and every retry share one deadline.

Only failures worth another try are retried: the server could not be reached, answered 5xx, or rate
limited us (429, waiting as long as its ``Retry-After`` asks when that still fits the deadline). A request
the server refused (4xx) would be refused again, and an agent's call that already streamed speech is never
retried, since the learner has seen that speech.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from maic_tui.llm.errors import ModelTimeoutError

T = TypeVar("T")
_CONNECT = {"APIConnectionError", "ConnectError", "ConnectionRefusedError", "ConnectionResetError",
            "ModelConnectionError"}
_TIMEOUTS = {"APITimeoutError", "ReadTimeout", "ConnectTimeout", "TimeoutException"}
BACKOFF_SECONDS = 0.5


def retry_after(exc: BaseException) -> float | None:
    """The wait a 429 answer asks for (seconds), if it says."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    value = headers.get("retry-after") if headers is not None else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def retry_delay(exc: BaseException, tries: int) -> float | None:
    """How long to wait before trying again, or None when another try would not help."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    status = getattr(exc, "status_code", None)
    backoff = BACKOFF_SECONDS * 2**tries
    if status == 429:
        asked = retry_after(exc)
        return asked if asked is not None else backoff
    if isinstance(status, int) and status >= 500:
        return backoff
    if names & _TIMEOUTS:  # the deadline is for the whole call; a fresh try gets no more time
        return None
    if names & _CONNECT:
        return backoff
    return None


async def bounded_call(attempt: Callable[[], Awaitable[T]], *, deadline: float, retries: int,
                       may_retry: Callable[[], bool], expired: str) -> T:
    """Run ``attempt`` until it succeeds, fails for good, or ``deadline`` (``time.monotonic``) passes; then
    ``ModelTimeoutError(expired)``."""
    tries = 0
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise ModelTimeoutError(expired)
        scope = asyncio.timeout(remaining)
        try:
            async with scope:
                return await attempt()
        except TimeoutError:
            if scope.expired():
                raise ModelTimeoutError(expired) from None
            raise
        except Exception as exc:
            wait = retry_delay(exc, tries)
            if wait is None or tries >= retries or not may_retry() or time.monotonic() + wait >= deadline:
                raise
            tries += 1
            await asyncio.sleep(wait)
