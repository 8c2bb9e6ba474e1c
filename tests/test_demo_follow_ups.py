"""The demo on a follow-up to what it just said (issue 55): "why?" asked again never gets the previous reply word
for word, "what do you mean?" puts the last point another way instead of replaying an earlier answer, and in a
debate the agent whose point it was answers the learner's point: its own rebuttal, else a concession."""

from __future__ import annotations

from itertools import pairwise

from maic_tui.classroom.loader import load_classroom
from maic_tui.events import Event
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from tests.engine_helpers import play


def replies(events: list[Event]) -> list[tuple[str, str]]:
    """(agent, what it said) for each message of a turn."""
    said: list[tuple[str, str]] = []
    for event in events:
        if event.type == "agent_start":
            said.append((event.data.agent_id, ""))  # type: ignore[union-attr]
        elif event.type == "text_delta" and said:
            said[-1] = (said[-1][0], said[-1][1] + event.data.content)  # type: ignore[union-attr]
    return said


async def conversation(classroom: str, *messages: str) -> list[list[tuple[str, str]]]:
    session = ClassroomSession(load_classroom(classroom), "demo", ModelOptions(pace=0))
    return [replies(await play(session, message)) for message in messages]


async def test_why_asked_again_never_gets_the_previous_reply_word_for_word() -> None:
    turns = await conversation("derivatives", "What is a limit?", "why?", "why?", "why?", "I disagree")
    for before, after in pairwise(turns):
        assert after != before


async def test_what_do_you_mean_puts_the_last_point_another_way() -> None:
    turns = await conversation("derivatives", "What is a derivative?", "What is a limit?", "wait, what do you mean?")
    derivative, _, meant = turns
    assert meant != derivative and len(meant) == 1  # not the derivative answer again, classmates' lines included
    assert meant[0][1].startswith("Let me put it another way, Sam.")


async def test_in_a_debate_the_agent_whose_point_it_was_answers_the_learners_point() -> None:
    opening, shops, vans = await conversation(
        "car-free-city", "hello", "shops matter most, my family runs a bakery in the centre",
        "I disagree with Noor, delivery vans still need to get in")
    assert opening[0][0] == "noor" and "Ban them" in opening[0][1]
    noor = shops[0]
    assert noor[0] == "noor" and "delivery windows and cargo bikes" in noor[1]  # a rebuttal, not a quote back
    first, answer = vans[0]
    assert first == "noor" and "push back" in answer and "Over to you" not in answer
    assert "delivery windows and cargo bikes" not in answer  # said already: a concession now
    assert "grant you that" in answer
    assert vans[1][1] != shops[1][1]  # the coach does not say the same line two turns running
