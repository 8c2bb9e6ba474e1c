"""``--structured-output auto``: which way of constraining output a server accepts, found by trying and
remembered per server and model, so that people need not know what their server supports.

The order is ``json_schema`` (OpenAI and most servers), then ``gbnf``: a grammar of our own (``gbnf.py``) in the
request's ``grammar`` field, which llama.cpp's servers read (a call whose schema it cannot write goes as
``json_object``), then ``json_object`` with the schema beside it (llama.cpp's servers), then ``off``. A server
that refuses a mode answers 400/422 about the response format; the call is asked again at once with the next
mode. A server that takes the ``grammar`` field but not its rule is found by the agent's answer, which then does
not start as the grammar has it (``ModelClient.ignores_grammar``). The working mode is kept in
``structured-output.json`` in the data directory.
"""

from __future__ import annotations

import json
from pathlib import Path

from maic_tui.llm.options import StructuredMode

ORDER: tuple[StructuredMode, ...] = ("json_schema", "gbnf", "json_object", "off")
FILE_NAME = "structured-output.json"
_ABOUT_FORMAT = ("response_format", "response format", "json_schema", "json schema", "json_object", "schema",
                 "grammar")


def refuses_format(exc: BaseException) -> bool:
    """A server error that says the requested response format is not supported. Usually a 400/422;
    llama-cpp-python's server answers 500 with its validation error about ``response_format``."""
    status = getattr(exc, "status_code", None)
    if not isinstance(status, int) or status < 400:
        return False
    text = (str(getattr(exc, "body", None) or "") + " " + str(exc)).lower()
    if status in (400, 422):
        return any(word in text for word in _ABOUT_FORMAT)
    return "response_format" in text


def refuses_legacy_cap(exc: BaseException) -> bool:
    """OpenAI's reasoning models answer 400 to ``max_tokens`` ("use max_completion_tokens instead")."""
    text = (str(getattr(exc, "body", None) or "") + " " + str(exc)).lower()
    return getattr(exc, "status_code", None) == 400 and "max_tokens" in text


def next_mode(mode: StructuredMode) -> StructuredMode | None:
    index = ORDER.index(mode) if mode in ORDER else len(ORDER) - 1
    return ORDER[index + 1] if index + 1 < len(ORDER) else None


def _key(base_url: str | None, model: str) -> str:
    return f"{(base_url or 'default').rstrip('/')} {model}"


class ModeMemory:
    """The remembered mode of each server and model, in one small JSON file; never fails a session."""

    def __init__(self, folder: Path | None) -> None:
        self.path = folder / FILE_NAME if folder is not None else None

    def _read(self) -> dict[str, str]:
        if self.path is None or not self.path.is_file():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def get(self, base_url: str | None, model: str) -> StructuredMode | None:
        found = self._read().get(_key(base_url, model))
        return next((mode for mode in ORDER if mode == found), None)

    def put(self, base_url: str | None, model: str, mode: StructuredMode) -> None:
        if self.path is None:
            return
        data = self._read()
        data[_key(base_url, model)] = mode
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(".tmp")
            temporary.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
            temporary.replace(self.path)
        except OSError:
            pass  # remembering is a convenience: the next session finds the mode again
