"""What a model call is for, handed to our offline models through a context variable.

Real models never see it; the offline demo model reads it to play its part. (LangChain no longer passes
run metadata to ``_astream``, and call keyword arguments would end up in a real server's request.)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

DIRECTOR = "director"


@dataclass(frozen=True, slots=True)
class CallContext:
    caller: str  # DIRECTOR or an agent id
    learner_message: str = ""
    spoken: tuple[str, ...] = ()  # agent ids that spoke this learner turn, in order
    board_ids: tuple[str, ...] = ()  # element ids on the whiteboard when the call starts
    attempt: int = 1  # 2 when the director is re-asked after a rejected answer


_CURRENT: ContextVar[CallContext | None] = ContextVar("maic_call", default=None)


@contextmanager
def calling(context: CallContext) -> Iterator[None]:
    token = _CURRENT.set(context)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def current_call() -> CallContext | None:
    return _CURRENT.get()
