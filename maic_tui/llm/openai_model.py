"""``openai:<model>``: ChatOpenAI against any OpenAI-compatible server. Imported only when used."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel

from maic_tui.llm.options import ModelOptions


def openai_chat_model(model: str, options: ModelOptions) -> BaseChatModel:
    from langchain_openai import ChatOpenAI  # slow import, only for real servers
    from pydantic import SecretStr

    return ChatOpenAI(
        model=model,
        base_url=options.base_url,
        # Local servers (llama.cpp, Ollama) want no key, but the client insists on one.
        api_key=SecretStr(options.api_key or "not-needed"),
        streaming=True,
        timeout=options.timeout,
        max_retries=0,  # we retry ourselves, within one deadline per call and only where worth it (llm.calls)
        temperature=options.temperature,
        max_completion_tokens=options.max_tokens,
        seed=options.seed,
    )


def with_response_format(model: BaseChatModel, mode: str, name: str, schema: dict[str, Any]) -> BaseChatModel:
    """Ask the server to constrain output to ``schema``: OpenAI-style ``json_schema``, or ``json_object``
    with the schema beside it as llama.cpp's servers accept. ``off`` leaves the model as it is."""
    if mode == "json_schema":
        response_format = {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
    elif mode == "json_object":
        response_format = {"type": "json_object", "schema": schema}
    else:
        return model
    return model.bind(response_format=response_format)  # type: ignore[return-value]
