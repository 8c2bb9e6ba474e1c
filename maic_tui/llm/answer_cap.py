"""A cap on the bytes read from the model server for one answer, whatever its shape: a stream whose one line
never ends, an error body of a gigabyte. The characters an answer may have are capped later, once decoded
(``streaming.read_capped``); this caps what the HTTP client reads before anything is decoded."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from maic_tui.llm.errors import ModelError

if TYPE_CHECKING:
    import httpx

MAX_ANSWER_BYTES = 32 << 20  # far above any answer within a token cap (a chunk of streamed JSON a token)


class AnswerTooLarge(ModelError):
    """The server sent more than ``MAX_ANSWER_BYTES`` for one answer; nothing more of it is read."""


def capped_hooks() -> dict[str, list[Any]]:
    """The httpx event hooks that put the cap on every response (the client's own transport, or a proxy's)."""
    import httpx

    class Capped(httpx.AsyncByteStream):
        def __init__(self, stream: httpx.AsyncByteStream) -> None:
            self._stream = stream

        async def __aiter__(self) -> AsyncIterator[bytes]:
            size = 0
            async for chunk in self._stream:
                size += len(chunk)
                if size > MAX_ANSWER_BYTES:
                    raise AnswerTooLarge(f"the model server's answer is larger than {MAX_ANSWER_BYTES >> 20} MB; "
                                         "nothing more of it was read")
                yield chunk

        async def aclose(self) -> None:
            await self._stream.aclose()

    async def cap(response: httpx.Response) -> None:
        if isinstance(response.stream, httpx.AsyncByteStream):
            response.stream = Capped(response.stream)

    return {"response": [cap]}
