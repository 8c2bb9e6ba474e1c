"""An agent's answer shown as it is written, at a reading pace (ARCHITECTURE.md, *Deciding ahead*): each piece goes
through the agent's run (speech as ``text_delta``, each action checked against the board and applied), speech no
faster than the pace allows. Once the model has finished, ``when_written`` is told what is still to be shown, so
the director can decide who speaks next while the learner is still reading."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from maic_tui.llm.client import Interrupted, ModelClient
from maic_tui.orchestration.answers.agent_run import AgentRun
from maic_tui.orchestration.answers.answer import Answer
from maic_tui.orchestration.answers.items import Item, TextDelta

LOOK_SECONDS = 0.05  # how often a wait looks for an interruption


async def show(client: ModelClient, answer: Answer, run: AgentRun, pace: Callable[[], float],
               when_written: Callable[[list[Item]], None]) -> None:
    """Until everything written is shown and read; then the model's failure, if it failed, is raised (after the
    speech that came before it, as the learner saw it). Esc raises ``Interrupted`` between two pieces."""
    shown, due, told = 0, time.monotonic(), False

    def tell() -> None:
        nonlocal told
        if not told and answer.done and answer.failure() is None:
            told = True
            when_written(answer.pieces[shown:])

    while True:
        if client.interrupted:
            raise Interrupted
        tell()
        if shown < len(answer.pieces):
            piece = answer.pieces[shown]
            if isinstance(piece, TextDelta) and (chars_per_second := pace()) > 0:
                # told the moment the model finishes, not once this word is due: the director's decision starts
                # a word's reading time sooner
                await _until(client, due, wake=answer.task, on_wake=tell)
                due = max(due, time.monotonic()) + len(piece.text) / chars_per_second
            run.take([piece])
            shown += 1
            continue
        if answer.done:
            for warning in answer.warnings:
                run.warn(warning)
            failure = answer.failure()
            if failure is not None:
                raise failure
            # The last words are read before anyone else speaks; Esc now cuts nothing short.
            await _until(client, due, cut=False)
            return
        await answer.grown(LOOK_SECONDS)
        due = max(due, time.monotonic())  # the reader caught up with the model: no words are owed


async def _until(client: ModelClient, moment: float, cut: bool = True, wake: asyncio.Future[None] | None = None,
                 on_wake: Callable[[], None] | None = None) -> None:
    """Wait until ``moment`` (``time.monotonic``), the learner reading; the turn's deadline moves on meanwhile (it
    bounds the models, not the reader). An interruption raises ``Interrupted``, or with ``cut`` off ends the wait.
    ``on_wake`` is called as soon as ``wake`` (the answer being written) has finished, in the middle of the wait."""
    while (left := moment - time.monotonic()) > 0:
        if client.interrupted:
            break
        slept, started = min(left, LOOK_SECONDS), time.monotonic()
        if wake is not None and not wake.done():
            await asyncio.wait([wake], timeout=slept)
        else:
            await asyncio.sleep(slept)
        if on_wake is not None and wake is not None and wake.done():
            on_wake()
        client.extend_turn(time.monotonic() - started)
    if cut and client.interrupted:
        raise Interrupted
