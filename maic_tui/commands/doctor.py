"""``maic-tui doctor``: is this model server ready for a class? One line per check, what to change when one
fails, exit 0 when the class can run and 2 otherwise. The key is never printed.

Checks, in order: the server answers (``GET /models``), the model is listed, which structured output mode
it accepts (as ``auto`` finds it, and remembered the same way), time to first token and tokens per second on
a short answer, and whether the output cap holds (a server that ignores it still works: the client stops
reading, but each call then costs more).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from maic_tui.i18n import N_, _
from maic_tui.llm.options import ModelOptions, StructuredMode
from maic_tui.llm.structured_modes import ORDER, ModeMemory, refuses_format
from maic_tui.redaction import redact
from maic_tui.text_cells import pad
from maic_tui.text_safety import one_line, terminal_safe

CAP_TOKENS = 16
_SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}
_REQUEST = 'Answer with {"answer": "ok"}.'


@dataclass
class Check:
    ok: bool | None  # None: could not tell (not a failure)
    name: str  # marked with N_, shown in the interface's language
    detail: str

    def line(self) -> str:
        mark = {True: "✓", False: "✗", None: "?"}[self.ok]
        return f"{mark} {pad(_(self.name), 17)} {self.detail}"


def run_doctor(spec: str, options: ModelOptions, data_dir: Path | None, out: TextIO) -> int:
    """Print the checks; 0 when a class can run against this server, 2 otherwise."""
    if not spec.startswith("openai:"):
        out.write("✓ " + pad(_("model"), 17) + " " + _("'{model}' runs offline in this program; nothing to check (give "
                                              "--model openai:<name> and --base-url to check a server)")
                  .format(model=spec) + "\n")
        return 0
    model = spec.removeprefix("openai:")
    checks = asyncio.run(_checks(model, options, data_dir))
    secrets = options.secrets()
    for check in checks:
        out.write(terminal_safe(redact(check.line(), secrets)).replace("\n", " ")[:400] + "\n")
        out.flush()
    usable = all(check.ok is not False for check in checks)
    out.write((_("The class can run with this server.") if usable else _("The class cannot run yet: fix the ✗ above."))
              + "\n")
    return 0 if usable else 2


async def _checks(model: str, options: ModelOptions, data_dir: Path | None) -> list[Check]:
    from maic_tui.llm.errors import describe

    url = (options.base_url or "https://api.openai.com/v1").rstrip("/")
    checks: list[Check] = []
    listed = await _listed_models(url, options)
    if isinstance(listed, Exception):
        reason = describe(listed, who="server", secrets=options.secrets(), shown=True).message.removeprefix("server: ")
        checks.append(Check(False, N_("server"), f"{url}: {reason}"))
        return checks
    checks.append(Check(True, N_("server"), _("{url} answers").format(url=url)))
    mode, failure = await _structured_mode(model, options)
    if listed is not None and model in listed:
        checks.append(Check(True, N_("model"), _("'{model}' is listed").format(model=model)))
    else:
        shown = _("the server does not list its models") if listed is None else \
            _("'{model}' is not listed (the server has: {models})").format(
                model=model, models=", ".join(one_line(m, 60) for m in listed[:4]) or _("none"))
        # Some servers (llama.cpp) serve their one model under any name: what counts is that it answers.
        answered = mode is not None
        hint = _("; it answers to that name anyway") if answered else _("; use --model openai:<one it lists>")
        checks.append(Check(None if answered else False, N_("model"), shown + hint))
    if mode is None:
        checks.append(Check(False, N_("answer"), _("the model did not answer: {problem}").format(problem=failure)))
        return checks
    ModeMemory(data_dir).put(options.base_url, model, mode)
    checks.append(Check(True, N_("structured output"), f"{mode}" + (_(" (the first the server accepts; remembered)")
                                                                   if options.structured == "auto" else "")))
    checks.append(await _speed(model, options, mode))
    checks.append(await _cap(model, options))
    return checks


async def _listed_models(url: str, options: ModelOptions) -> list[str] | Exception | None:
    import httpx

    headers = {"Authorization": f"Bearer {options.api_key}"} if options.api_key else {}
    try:
        async with httpx.AsyncClient(timeout=min(options.timeout, 15)) as client:
            response = await client.get(f"{url}/models", headers=headers)
    except Exception as exc:  # reported in words by describe()
        return exc
    if response.status_code in (401, 403):
        error = RuntimeError("the server refused the API key")
        error.status_code = response.status_code  # type: ignore[attr-defined]
        return error
    if response.status_code != 200:
        return None
    try:
        return [str(item.get("id")) for item in response.json().get("data", [])]
    except (ValueError, AttributeError):
        return None


def _chat(model: str, options: ModelOptions, extra: dict[str, Any]) -> Any:
    from maic_tui.llm.openai_model import openai_chat_model

    return openai_chat_model(model, options).bind(**extra)


async def _structured_mode(model: str, options: ModelOptions) -> tuple[StructuredMode | None, str]:
    from maic_tui.llm.client import PROBE_REQUEST, PROBE_SCHEMA, kept_to_grammar
    from maic_tui.llm.errors import describe
    from maic_tui.llm.openai_model import request_options

    modes: tuple[StructuredMode, ...] = ORDER if options.structured == "auto" else (options.structured,)
    failure = ""
    for mode in modes:
        # gbnf: the client's own probe, whose answer a server that ignores the grammar field does not give
        schema, request = (PROBE_SCHEMA, PROBE_REQUEST) if mode == "gbnf" else (_SCHEMA, _REQUEST)
        chat = _chat(model, options, request_options(mode, "check", schema, 64, True))
        try:
            reply = await asyncio.wait_for(chat.ainvoke(request), options.timeout)
        except Exception as exc:
            failure = describe(exc, who="model", secrets=options.secrets(), shown=True).message.removeprefix("model: ")
            if refuses_format(exc):
                continue
            return None, failure
        if mode == "gbnf" and len(modes) > 1 and not kept_to_grammar(str(reply.content)):
            continue  # the server took the grammar field and ignored it
        return mode, ""
    return None, failure


async def _speed(model: str, options: ModelOptions, mode: StructuredMode) -> Check:
    chat = _chat(model, options, {"max_completion_tokens": 48, "extra_body": {"max_tokens": 48}})
    started = time.perf_counter()
    first: float | None = None
    pieces = 0
    try:
        async for chunk in chat.astream("Say hello to a class in one short sentence."):
            if getattr(chunk, "content", ""):
                first = first or time.perf_counter()
                pieces += 1
    except Exception as exc:
        return Check(False, N_("speed"), _("a short answer failed: {problem}").format(problem=one_line(str(exc), 120)))
    if first is None:
        return Check(None, N_("speed"), _("the model answered nothing to a short question"))
    ended = time.perf_counter()
    rate = (pieces - 1) / (ended - first) if pieces > 1 and ended > first else 0.0
    slow = _(" (slow: a six-agent turn may take minutes)") if first - started > 10 or 0 < rate < 3 else ""
    return Check(True, N_("speed"), _("first token after {seconds} s, about {rate} tokens/s").format(
        seconds=f"{first - started:.2f}", rate=f"{rate:.0f}") + slow)


async def _cap(model: str, options: ModelOptions) -> Check:
    chat = _chat(model, options, {"max_completion_tokens": CAP_TOKENS, "extra_body": {"max_tokens": CAP_TOKENS}})
    pieces = 0
    try:
        async for chunk in chat.astream("Count from one to two hundred in words, separated by commas."):
            if getattr(chunk, "content", ""):
                pieces += 1
            if pieces > CAP_TOKENS * 4:
                break
    except Exception as exc:
        return Check(None, N_("output cap"), _("could not tell ({problem})").format(problem=one_line(str(exc), 120)))
    if pieces > CAP_TOKENS * 4:
        return Check(None, N_("output cap"), _("ignored: asked for {cap} tokens, got more than {more}; the class "
                                               "still stops reading at each answer's end").format(
            cap=CAP_TOKENS, more=CAP_TOKENS * 4))
    return Check(True, N_("output cap"), _("holds ({pieces} pieces for a cap of {cap} tokens)").format(
        pieces=pieces, cap=CAP_TOKENS))
