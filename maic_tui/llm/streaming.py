"""Streaming: a base for our offline chat models (they stream a prepared text through LangChain's ``astream``), and
reading any model's stream: the text of a chunk, a capped answer, the failures that are really answers."""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import ConfigDict

from maic_tui.llm.context import CallContext, current_call


class Piece:
    """One streamed chunk, with the pause before it (seconds)."""

    __slots__ = ("delay", "text")

    def __init__(self, text: str, delay: float = 0.0) -> None:
        self.text = text
        self.delay = delay


class OfflineChatModel(BaseChatModel):
    """Subclasses say what to stream for a call; this class does the LangChain plumbing."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    def pieces(self, messages: list[BaseMessage], context: CallContext | None) -> Iterator[Piece]:
        raise NotImplementedError

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        for piece in self.pieces(messages, current_call()):
            if piece.delay > 0:
                await asyncio.sleep(piece.delay)
            if piece.text:
                yield ChatGenerationChunk(message=AIMessageChunk(content=piece.text))

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        # Blocking calls (invoke, stream) get the whole text at once, without the pauses.
        text = "".join(piece.text for piece in self.pieces(messages, current_call()))
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


def chunk_text(chunk: Any) -> str:
    """The text of a streamed message chunk, whatever shape the provider gives its content."""
    content = getattr(chunk, "content", chunk)
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    return ""


def ended_at_cap(exc: BaseException) -> bool:
    """The OpenAI client's stream helper (used with a response format) raises when the answer reached its
    token cap; what streamed until then is the answer, as it would be without a response format."""
    return "LengthFinishReasonError" in {cls.__name__ for cls in type(exc).__mro__}


def is_empty_answer(exc: BaseException) -> bool:
    """A server that streamed no chunk at all: an empty answer, not a failure. LangChain raises a ValueError
    for it; with ``json_schema`` the OpenAI client's stream helper fails an internal assertion instead."""
    if isinstance(exc, ValueError) and "No generation chunks were returned" in str(exc):
        return True
    if isinstance(exc, AssertionError):
        frames = traceback.extract_tb(exc.__traceback__)
        return bool(frames) and "openai" in frames[-1].filename and "streaming" in frames[-1].filename
    return False


AFTER_ANSWER_CHUNKS = 3  # empty chunks (the finish, the usage) read after a complete answer before hanging up


async def read_capped(stream: Any, cap: int, done: Callable[[str], bool] | None = None,
                      on_usage: Callable[[Any], None] | None = None) -> str:
    """A model's answer read from its stream, at most ``cap`` characters however large the chunks (a server may
    send megabytes in one), until ``done(piece)``, told each new piece, says the answer is complete. The stream
    is closed when reading stops, so a model that goes on after its answer is hung up on at once. ``on_usage`` is
    told the token usage a chunk reports (the server's last chunk, when the stream was read to its end)."""
    parts: list[str] = []
    size = 0
    after = 0  # chunks read after a complete answer, for the usage a server sends last (never more text)
    try:
        async for chunk in stream:
            usage = getattr(chunk, "usage_metadata", None)
            if usage and on_usage is not None:
                on_usage(usage)
            text = chunk_text(chunk)
            if after:
                if text or after > AFTER_ANSWER_CHUNKS:
                    break  # the model goes on past its answer: hung up on
                after += 1
                continue
            text = text[:cap - size]
            parts.append(text)
            size += len(text)
            if size >= cap:
                break
            if done is not None and text and done(text):
                after = 1
    except Exception as exc:  # an empty answer, or one that reached its token cap, is what it is
        if not (is_empty_answer(exc) or ended_at_cap(exc)):
            raise
    finally:
        await stream.aclose()
    return "".join(parts)
