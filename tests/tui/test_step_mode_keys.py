"""Step mode and forking in the app (Pilot): Ctrl+T turns step mode on, each decision waits at a card, and each
of its keys works (a asks the director, r asks again, Enter accepts, a digit picks an agent, u the learner, e the
end; Esc ends a waiting turn); f on a decision forks the session before its turn and opens the fork."""

from __future__ import annotations

from pathlib import Path

from maic_tui.log.records import ForkedFrom, LearnerRecord
from maic_tui.room.replay import open_recorded
from maic_tui.room.view import AgentMessage, LearnerMessage
from maic_tui.tui.screens.decision import DecisionScreen
from maic_tui.tui.widgets.decision_card import DecisionCardView
from maic_tui.tui.widgets.trace_panel import TracePanel
from tests.tui.helpers import demo_app, finish_turn, ready, recorded_app, wait_for
from tests.tui.helpers import say as send


async def test_each_key_of_the_decision_card() -> None:
    app = demo_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        room = app.room
        card = app.query_one(DecisionCardView)
        assert not card.display
        await pilot.press("ctrl+t")
        await pilot.pause(0.1)
        assert room.view.stepping and card.display and "step mode" in str(card.render())
        await send(pilot, "What is a derivative?")
        await wait_for(pilot, lambda: room.view.decision_card is not None)
        await pilot.pause(0.1)
        assert card.has_focus and "decision 1" in str(card.render())
        assert not [e for e in room.view.entries if isinstance(e, AgentMessage)]  # the class waits
        await pilot.press("a")
        await wait_for(pilot, lambda: (c := room.view.decision_card) is not None and c.proposal is not None)
        proposal = room.view.decision_card.proposal  # type: ignore[union-attr]
        assert proposal is not None and (proposal.final, proposal.path) == ("reyes", "rule")
        await pilot.press("r")  # asks again: the same rule
        await pilot.pause(0.1)
        await pilot.press("3")  # Juno, third in the class list, where the rule says the teacher
        await wait_for(pilot, lambda: (c := room.view.decision_card) is not None and c.step == 2)
        await pilot.press("enter")  # the director decides the second step
        await wait_for(pilot, lambda: (c := room.view.decision_card) is not None and c.step == 3)
        await pilot.press("e")
        await finish_turn(pilot)
        first, second, third = room.view.trace
        assert (first.path, first.final, first.proposal) == ("manual", "juno", "reyes")
        assert [v.rule for v in first.guards if not v.passed] == ["student_first"]
        assert second.path in ("model", "rule", "fallback") and (third.path, third.final) == ("manual", "END")
        speakers = [e.agent_id for e in room.view.entries if isinstance(e, AgentMessage)]
        assert speakers[0] == "juno" and len(speakers) == 2
        assert not card.has_focus and card.display  # still on, the keys back with the composer

        await send(pilot, "And x squared?")
        await wait_for(pilot, lambda: room.view.decision_card is not None)
        await pilot.press("u")  # straight back to the learner
        await finish_turn(pilot)
        assert (room.view.trace[0].path, room.view.trace[0].final) == ("manual", "USER")

        await send(pilot, "Why?")
        await wait_for(pilot, lambda: room.view.decision_card is not None)
        await pilot.press("escape")  # the waiting turn ends, interrupted
        await finish_turn(pilot)
        assert room.view.last_done is not None and room.view.last_done.end_reason == "interrupted"
        assert room.view.decision_card is None

        await pilot.press("ctrl+t")
        await pilot.pause(0.1)
        assert not room.view.stepping and not card.display
        await send(pilot, "What is a slope?")
        await finish_turn(pilot)  # no card: the director decides alone
        assert all(r.path != "manual" for r in room.view.trace)


async def test_fork_from_a_decision_opens_the_fork_in_place(tmp_path: Path) -> None:
    app = recorded_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        for message in ("What is a derivative?", "Can you show me on the board?"):
            await send(pilot, message)
            await finish_turn(pilot)
        original = app.room.session.log.session_id  # type: ignore[union-attr]
        await pilot.press("f2")
        panel = app.query_one(TracePanel)
        await pilot.pause(0.1)
        prompts = [str(panel.get_option_at_index(i).prompt) for i in range(panel.option_count)]
        panel.highlighted = next(i for i, p in enumerate(prompts) if p.startswith("2.1 "))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DecisionScreen))
        await pilot.press("f")
        await wait_for(pilot, lambda: app.room.session is not None and app.room.session.log is not None
                       and app.room.session.log.session_id != original)
        await pilot.pause(0.2)
        said = [e.text for e in app.room.view.entries if isinstance(e, LearnerMessage)]
        assert said == ["What is a derivative?"]  # everything before turn 2, and nothing of it
        forked = app.room.session.log.session_id  # type: ignore[union-attr]
        assert open_recorded(tmp_path, forked).info.forked_from == ForkedFrom(id=original, turn=2)
        await send(pilot, "why?")  # the class goes on in the fork
        await finish_turn(pilot)
        app.room.session.log.flush()  # type: ignore[union-attr]
        kept = [t for t in open_recorded(tmp_path, forked).records if isinstance(t.record, LearnerRecord)]
        assert [t.record.data.text for t in kept] == ["What is a derivative?", "why?"]
