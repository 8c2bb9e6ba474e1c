"""One model (a server, or an offline model) as the classroom calls it: the structured-output mode the server takes
(found by trying, remembered), models bound to a schema and a token cap, every call bounded by the timeout and the
running turn's deadline with its retries, cancellation when the learner interrupts, and the answer read from the
stream within a character cap. No classroom here: the conversation is the orchestration's, and ``maic-tui new``
uses a client with none."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.runnables import Runnable

from maic_tui.llm.calls import bounded_call
from maic_tui.llm.context import CallContext, calling
from maic_tui.llm.openai_model import request_options
from maic_tui.llm.options import ModelOptions, StructuredMode
from maic_tui.llm.spec import ModelSpec
from maic_tui.llm.streaming import read_capped
from maic_tui.llm.structured_modes import ORDER, ModeMemory, next_mode, refuses_format, refuses_legacy_cap
from maic_tui.redaction import redact, usable_secrets

T = TypeVar("T")
# what settle_mode asks: under a grammar the answer can only be PROBE_ANSWER
PROBE_SCHEMA: dict[str, Any] = {"type": "object", "properties": {"ok": {"const": True}}, "required": ["ok"]}
PROBE_REQUEST = "Say hello."  # a model free to answer says hello: only a grammar kept to answers PROBE_ANSWER
PROBE_ANSWER = '{"ok":true}'
PROBE_TOKENS = 32  # under a grammar a model may spell the answer a character a token (SmolLM2 did, after hello)


def kept_to_grammar(answer: str) -> bool:
    """The answer to PROBE_REQUEST under PROBE_SCHEMA's grammar is the one it allows (``settle_mode``, doctor)."""
    return answer.strip() == PROBE_ANSWER


Until = Callable[[], Callable[[str], bool]]  # makes, for each try, a test told each new piece: is it complete?


class ChatModels(Protocol):
    """Where the client gets the chat model for each caller (``maic_tui/provider.py``'s ``ModelProvider``)."""

    spec: ModelSpec
    options: ModelOptions

    @property
    def is_remote(self) -> bool: ...

    def for_caller(self, caller: str) -> BaseChatModel: ...


class Interrupted(Exception):
    """The learner interrupted while a model call was running."""


@dataclass
class ModelClient:
    provider: ChatModels
    modes: ModeMemory = field(default_factory=lambda: ModeMemory(None))  # structured output that worked
    interrupted: bool = False  # the learner interrupted; the running turn ends (reset by the engine)
    _deadline: float | None = None  # time.monotonic() by which the running turn must end
    _budget: float = 0.0  # that turn's length in seconds, for the message when it passes
    _mode: StructuredMode | None = None  # the structured output mode in use (auto: found by trying)
    _remembered: bool = False
    _legacy_cap: bool = True  # also send the cap as max_tokens, until a server refuses that
    _calls: set[asyncio.Task[Any]] = field(default_factory=set)  # running now: an answer, a decision made ahead
    _models: dict[str, Runnable[Any, Any]] = field(default_factory=dict)

    # --- the server's ways --------------------------------------------------------------------------

    @property
    def structured_mode(self) -> StructuredMode | None:
        """How a server's output is constrained (None for our offline models)."""
        if not self.provider.is_remote:
            return None
        if self._mode is None:
            setting = self.provider.options.structured
            if setting == "auto":
                remembered = self.modes.get(self.provider.options.base_url, self.provider.spec.target)
                self._mode = remembered or ORDER[0]
                self._remembered = remembered is not None
            else:
                self._mode = setting
        return self._mode

    def model(self, caller: str, schema_name: str, schema: dict[str, Any], cap: int = 1024,
              grammar_schema: dict[str, Any] | None = None) -> Runnable[Any, Any]:
        """The caller's chat model: for a server, constrained to ``schema`` in the structured output mode in
        use (in ``gbnf``, to ``grammar_schema`` when given), and capped at ``cap`` tokens (never above the
        configured ``max_tokens``)."""
        mode = self.structured_mode
        # the schema itself is part of the key: the director's changes with the choices the guards leave
        shape = json.dumps([schema, grammar_schema], sort_keys=True) if mode is not None else ""
        key = f"{caller}:{schema_name}:{mode}:{cap}:{self._legacy_cap}:{shape}"
        if key not in self._models:
            model: Runnable[Any, Any] = self.provider.for_caller(caller)
            if mode is not None:
                limit = min(cap, self.provider.options.max_tokens or cap)
                model = model.bind(**request_options(mode, schema_name, schema, limit, self._legacy_cap,
                                                     grammar_schema))
            self._models[key] = model
        return self._models[key]

    def ignores_grammar(self) -> None:
        """An answer asked for in ``gbnf`` did not keep to its grammar: the server took the request but not its
        ``grammar`` field. With ``auto``, the calls after it go in the next mode (remembered)."""
        if self.provider.options.structured == "auto" and self._mode == "gbnf":
            self._mode = next_mode("gbnf")
            self.modes.put(self.provider.options.base_url, self.provider.spec.target, self._mode or "off")

    def _fall_back(self, exc: BaseException) -> bool:
        """A refused request that another form would pass: ``max_tokens`` (OpenAI's reasoning models reject it)
        is dropped; with ``auto``, the next response format is tried. True when the call should go again."""
        if self._legacy_cap and refuses_legacy_cap(exc):
            self._legacy_cap = False
            return True
        if self.provider.options.structured != "auto" or not refuses_format(exc) or self._mode is None:
            return False
        lower = next_mode(self._mode)
        if lower is None:
            return False
        self._mode = lower
        self.modes.put(self.provider.options.base_url, self.provider.spec.target, lower)
        return True

    def _found(self) -> None:
        if self.provider.options.structured == "auto" and self._mode is not None and not self._remembered:
            self._remembered = True
            self.modes.put(self.provider.options.base_url, self.provider.spec.target, self._mode)

    # --- secrets ------------------------------------------------------------------------------------

    @property
    def secrets(self) -> tuple[str, ...]:
        return usable_secrets(self.provider.options.secrets())

    def redact(self, text: str) -> str:
        return redact(text, self.secrets)

    # --- the running turn ---------------------------------------------------------------------------

    def start_turn(self, budget: float) -> None:
        """Calls from now on end by ``budget`` seconds from now, all together."""
        self._deadline, self._budget = time.monotonic() + budget, budget

    def end_turn(self) -> bool:
        """The turn is over; whether it was interrupted (the flag is cleared for the next one)."""
        interrupted, self.interrupted, self._deadline = self.interrupted, False, None
        return interrupted

    def extend_turn(self, seconds: float) -> None:
        """Move the running turn's deadline by ``seconds``: the time the learner spent reading, which no model is
        to blame for."""
        if self._deadline is not None:
            self._deadline += seconds

    def turn_expired(self) -> bool:
        return self._deadline is not None and time.monotonic() >= self._deadline

    @property
    def turn_budget(self) -> float:
        return self._budget

    @property
    def busy(self) -> bool:
        """A turn is running or a model call is under way (a grader's, a lesson's)."""
        return self._deadline is not None or bool(self._calls)

    def interrupt(self) -> None:
        """Stop every running model call now; the turn then closes with endReason "interrupted"."""
        self.interrupted = True
        for call in list(self._calls):
            call.cancel()

    # --- calls --------------------------------------------------------------------------------------

    async def call(self, attempt: Callable[[], Awaitable[T]], may_retry: Callable[[], bool] = lambda: True) -> T:
        """Run one model call, retries included, within its timeout and the turn's deadline, so that
        ``interrupt`` can cancel it without cancelling the caller. Several may run at once (an agent's answer, and
        the next decision made while it is read)."""
        if self.interrupted:
            raise Interrupted
        timeout = self.provider.options.timeout
        deadline = time.monotonic() + timeout
        expired = f"the model server timed out: no complete answer within {timeout:g} s (--timeout)"
        if self._deadline is not None and self._deadline < deadline:
            deadline = self._deadline
            expired = f"the turn ran past its limit of {self._budget:g} s"

        async def attempt_in_a_mode_the_server_takes() -> T:
            while True:
                try:
                    result = await attempt()
                except Exception as exc:
                    if self._fall_back(exc):
                        continue
                    raise
                self._found()
                return result

        work = bounded_call(attempt_in_a_mode_the_server_takes, deadline=deadline,
                            retries=self.provider.options.retries, may_retry=may_retry, expired=expired)
        task = asyncio.ensure_future(work)
        self._calls.add(task)
        try:
            return await task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if self.interrupted and not (current is not None and current.cancelling()):
                raise Interrupted from None
            raise
        finally:
            self._calls.discard(task)

    async def settle_mode(self, caller: str) -> None:
        """With ``auto`` and no mode known for this server yet, find it now with small requests (a few tokens each),
        while the class warms, so the first question does not have to. ``gbnf`` counts only when the answer keeps to
        its grammar (``kept_to_grammar``): a server may take the field and ignore it.
        A failure that is no refusal leaves the finding to the first real call."""
        if self.structured_mode is None or self.provider.options.structured != "auto" or self._remembered:
            return
        chat = self.provider.for_caller(caller)
        while self._mode is not None:
            model = chat.bind(**request_options(self._mode, "probe", PROBE_SCHEMA, PROBE_TOKENS, self._legacy_cap))
            try:
                async with asyncio.timeout(self.provider.options.timeout):
                    answer = await model.ainvoke([HumanMessage(PROBE_REQUEST)])
            except Exception as exc:
                if self._fall_back(exc):
                    continue
                return
            if self._mode == "gbnf" and not kept_to_grammar(str(answer.content)):
                self.ignores_grammar()
                continue
            self._found()
            return

    async def warm(self, caller: str, messages: Sequence[BaseMessage]) -> None:
        """Have the server read ``messages`` so its prompt cache holds them for the calls after (one token of output,
        read to its end): within the timeout, tried once, in no mode of structured output, and not one of the calls
        an interruption cancels (the caller owns it)."""
        model = self.provider.for_caller(caller).bind(**request_options("off", "", {}, 1, self._legacy_cap))
        async with asyncio.timeout(self.provider.options.timeout):
            async for _ in model.astream(list(messages)):
                pass

    async def ask(self, caller: str, schema_name: str, schema: dict[str, Any], messages: Sequence[BaseMessage], *,
                  tokens: int, chars: int, until: Until | None = None, context: CallContext | None = None,
                  on_usage: Callable[[Any], None] | None = None) -> str:
        """One answer as text: the caller's model (bound anew each try: the mode may change), read within
        ``chars`` characters until ``until``'s test says it is complete, the whole call bounded as ``call``."""

        async def attempt() -> str:
            model = self.model(caller, schema_name, schema, tokens)
            with calling(context) if context is not None else nullcontext():
                return await read_capped(model.astream(list(messages)), chars, until() if until else None, on_usage)

        return await self.call(attempt)
