"""``openai:<model>``: ChatOpenAI against any OpenAI-compatible server. Imported only when used."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel

from maic_tui.llm.answer_cap import capped_hooks
from maic_tui.llm.gbnf import Unsupported, gbnf
from maic_tui.llm.options import ModelOptions


def openai_chat_model(model: str, options: ModelOptions) -> BaseChatModel:
    import httpx
    from langchain_openai import ChatOpenAI  # slow import, only for real servers
    from pydantic import SecretStr

    return ChatOpenAI(
        # Its own HTTP client: the library's shared default belongs to the first event loop that used it, so a
        # second run in one process (eval's runs, a bench's two sessions) would fail with "Event loop is closed".
        http_async_client=httpx.AsyncClient(timeout=options.timeout, event_hooks=capped_hooks()),
        model=model,
        base_url=options.base_url,
        # Local servers (llama.cpp, Ollama) want no key, but the client insists on one.
        api_key=SecretStr(options.api_key or "not-needed"),
        streaming=True,
        stream_usage=True,  # stream_options.include_usage: the server's token counts, for the trace
        timeout=options.timeout,
        max_retries=0,  # we retry ourselves, within one deadline per call and only where worth it (llm.calls)
        temperature=options.temperature,
        max_completion_tokens=options.max_tokens,
        seed=options.seed,
    )


def request_options(mode: str, name: str, schema: dict[str, Any], cap: int, legacy_cap: bool,
                    grammar_schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """What one call adds to the request: the response format for ``mode`` (OpenAI-style ``json_schema``, or
    ``json_object`` with the schema beside it as llama.cpp's servers accept; nothing for ``off``), or for ``gbnf``
    the grammar of ``grammar_schema`` (``schema`` when None: it may say what a schema cannot, such as an array's
    first item), and the output cap. The cap goes as ``max_completion_tokens`` (what OpenAI's reasoning models
    accept) and, unless the server refused it, also as ``max_tokens``, the one llama.cpp's servers read."""
    body: dict[str, Any] = {"max_tokens": cap} if legacy_cap else {}
    # In the request's body as it is, not as the client's own field: the client would then stream through its
    # structured-output helper, which drops the server's token usage.
    if mode == "gbnf":
        try:
            body["grammar"] = gbnf(grammar_schema or schema)
        except Unsupported:
            mode = "json_object"  # a schema the grammar writer does not read: the server converts it instead
    if mode == "json_schema":
        body["response_format"] = {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
    elif mode == "json_object":
        body["response_format"] = {"type": "json_object", "schema": schema}
    extra: dict[str, Any] = {"max_completion_tokens": cap}
    if body:
        extra["extra_body"] = body
    return extra
