"""Pilot tests: scenes, themes, trace panel, resizing, persona cards, long sessions, untrusted text."""

from __future__ import annotations

import tomllib
from pathlib import Path

from textual.widgets import TextArea

from maic_tui.colors import contrast
from maic_tui.events import AgentEndData, AgentEndEvent, AgentStartData, AgentStartEvent, TextDeltaData, TextDeltaEvent
from maic_tui.room.view import AgentMessage
from maic_tui.tui.screens.decision import DecisionScreen
from maic_tui.tui.screens.full_transcript import FullTranscriptScreen
from maic_tui.tui.screens.persona import PersonaScreen
from maic_tui.tui.theming import background_of
from maic_tui.tui.widgets.board_pane import BoardPane
from maic_tui.tui.widgets.composer import Composer
from maic_tui.tui.widgets.message_view import MessageView
from maic_tui.tui.widgets.roster import AgentList, Roster
from maic_tui.tui.widgets.trace_panel import TracePanel
from maic_tui.tui.widgets.transcript import MAX_MOUNTED, PRUNE_TO, Transcript
from tests.engine_helpers import classroom, items, pick, say
from tests.tui.helpers import demo_app, finish_turn, ready, script_app, wait_for
from tests.tui.helpers import say as send

HOSTILE = ("[bold red]x[/] [link=https://evil.example]click[/link] \x1b[2Jwiped \x1b]0;pwned\x07title "
           "\x1b[31mred\x1b[0m bell\x07 $(rm -rf ~)")


async def test_scene_keys_change_the_slide_for_the_pane_and_the_agents() -> None:
    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        pane = app.query_one(BoardPane)
        last = len(app.room.classroom.scenes)
        assert str(pane.border_title).startswith(f"Slide 1/{last}")
        await pilot.press("f6")
        assert app.room.view.scene_index == 1 and app.room.session is not None
        assert app.room.session.context.scene_index == 1
        assert str(pane.border_title).startswith(f"Slide 2/{last}")
        await pilot.press(*["f6"] * last)  # on to the last scene, and no further
        assert app.room.view.scene_index == last - 1
        await pilot.press("f5")
        assert app.room.session.context.scene_index == last - 2


async def test_the_palette_offers_scenes_and_runs_them() -> None:
    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"go to scene 2")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.room.view.scene_index == 1)


async def test_switching_theme_persists_and_keeps_agent_colours_readable(private_config: Path) -> None:
    app = demo_app(theme="chalkboard")
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        for theme in ("paper", "midnight", "solarized-light"):
            app.theme = theme
            await pilot.pause(0.1)
            assert tomllib.loads(private_config.read_text())["theme"] == theme
            background = background_of(app)
            roster = app.query_one(Roster)
            for agent in roster.agents:
                label = roster.line(agent)
                name_style = next(span.style for span in label.spans if "bold" in str(span.style))
                color = str(name_style).split()[-1]
                assert contrast(color, background) >= 4.5, (theme, agent.name, color)
    again = demo_app()  # no theme given: the saved choice is used
    async with again.run_test() as pilot:
        assert again.theme == "solarized-light"


async def test_every_theme_file_is_registered_one_of_them_light() -> None:
    app = demo_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        ours = [name for name in app.available_themes if name in app._theme_specs]
        assert len(ours) >= 3
        assert any(not app.available_themes[name].dark for name in ours)


async def test_the_trace_inspector_lists_the_sessions_decisions_and_opens_one() -> None:
    app = demo_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        assert not app.query(TracePanel)  # built on first use
        for message in ("What is a derivative?", "why?"):
            await send(pilot, message)
            await finish_turn(pilot)
        await pilot.press("f2")
        panel = app.query_one(TracePanel)
        await pilot.pause(0.1)
        assert panel.display and panel.has_focus
        prompts = [str(panel.get_option_at_index(i).prompt) for i in range(panel.option_count)]
        turns = app.room.view.decisions.turns
        assert len(turns) == 2 and panel.option_count == 2 + sum(len(t.records) for t in turns)
        assert prompts[0] == 'turn 1 · "What is a derivative?"' and prompts[1].split()[:3] == ["1.1", "rule", "reyes:"]
        assert any(p.startswith("turn 2 · ") for p in prompts)
        assert panel.max_scroll_x == 0  # each line is cut to the pane, never wider
        assert panel.highlighted == panel.option_count - 1  # newest last, and shown
        panel.highlighted = 1
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DecisionScreen))
        detail = app.screen.query_one(TextArea).text
        assert "path: rule" in detail and "final: reyes" in detail and "tokens: no model call" in detail
        await pilot.press("m")  # closes on the message the decision produced
        await wait_for(pilot, lambda: not isinstance(app.screen, DecisionScreen))
        shown = [w for w in app.query(MessageView) if w.has_class("-shown")]
        assert len(shown) == 1 and shown[0].entry.message_id == turns[0].message_of(turns[0].records[0])
        await pilot.press("escape")  # the keys go back to the composer; the panel stays
        assert app.query_one(Composer).has_focus and panel.display
        await pilot.press("f2")
        assert not panel.display


async def test_resizing_redraws_the_board_to_the_new_pane_size(tmp_path: Path) -> None:
    turn = items({"type": "action", "name": "wb_draw_shape",
                  "params": {"shape": "rectangle", "x": 0, "y": 0, "width": 1000, "height": 563}}, say("Box."))
    app = script_app(tmp_path, {"director": [pick("teacher"), pick("USER")], "agents": {"teacher": [turn]}},
                     classroom())
    async with app.run_test(size=(160, 50)) as pilot:
        await ready(pilot)
        await send(pilot, "Draw")
        await finish_turn(pilot)
        pane = app.query_one(BoardPane)
        widths = []
        for size in ((160, 50), (90, 30), (200, 60)):
            await pilot.resize_terminal(*size)
            await pilot.pause(0.2)
            lines = pane.shown_lines()
            plain = [line.plain.strip() for line in lines]
            top = next(line for line in plain if line)
            assert top.startswith("╭") and top.endswith("╮")  # the full-canvas box fits the pane
            assert len(top) <= pane.content_size.width
            widths.append(len(top))
        assert widths[1] < widths[0] < widths[2]
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.1)
        roster = app.query_one(Roster)  # narrow: avatars and status marks, still there to click
        assert roster.compact and 0 < roster.region.width <= 10
        prompts = [str(app.query_one(AgentList).get_option_at_index(i).prompt).split()[0]
                   for i in range(len(app.room.classroom.agents))]
        assert prompts == [agent.avatar for agent in app.room.classroom.agents]
        await pilot.click(AgentList, offset=(2, 2))
        await pilot.pause(0.1)
        assert isinstance(app.screen, PersonaScreen) and app.screen.agent.id == app.room.classroom.agents[1].id


async def test_clicking_an_agent_opens_its_persona_card_and_closing_it_gives_the_keys_back() -> None:
    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        row = [a.id for a in app.room.classroom.agents].index("marcus") * 2  # two lines per agent
        await pilot.click(AgentList, offset=(4, row))
        await pilot.pause(0.1)
        screen = app.screen
        assert isinstance(screen, PersonaScreen) and screen.agent.id == "marcus"
        card = str(screen.query_one("#persona-actions").render())
        assert card == "In this scene: ✎ text · ✎ formula"  # the chips the transcript shows, not action ids
        assert "Student" in str(screen.query_one("#persona-title").render())
        assert "note-taker" in str(screen.query_one("#persona-text").render())
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, PersonaScreen)
        await pilot.press("h", "i")
        assert app.query_one(Composer).text == "hi"


async def test_m_on_a_persona_card_mutes_and_unmutes_that_agent_but_not_the_lead() -> None:
    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        app.room.show_persona("marcus")
        await pilot.pause(0.1)
        assert "M mutes" in str(app.screen.query_one("#persona-card").border_subtitle)
        await pilot.press("m")
        await wait_for(pilot, lambda: app.room.view.muted == {"marcus"})
        assert not isinstance(app.screen, PersonaScreen)
        app.room.show_persona("marcus")
        await pilot.pause(0.1)
        assert "M unmutes" in str(app.screen.query_one("#persona-card").border_subtitle)
        await pilot.press("m")
        await wait_for(pilot, lambda: not app.room.view.muted)
        lead = app.room.classroom.lead()
        assert lead is not None
        app.room.show_persona(lead.id)
        await pilot.pause(0.1)
        assert "M " not in str(app.screen.query_one("#persona-card").border_subtitle)
        await pilot.press("m")  # the lead cannot be muted: the key does nothing
        await pilot.pause(0.1)
        assert isinstance(app.screen, PersonaScreen) and not app.room.view.muted


async def test_a_long_session_keeps_a_bounded_number_of_mounted_messages() -> None:
    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        for n in range(1, 151):
            message_id = f"m{n}"
            for event in (AgentStartEvent(data=AgentStartData(message_id=message_id, agent_id="theo",
                                                              agent_name="Theo", agent_avatar="T",
                                                              agent_color="#10b981")),
                          TextDeltaEvent(data=TextDeltaData(content=f"Message number {n}.", message_id=message_id)),
                          AgentEndEvent(data=AgentEndData(message_id=message_id, agent_id="theo"))):
                app.room.view.apply(event)
            if n % 25 == 0:
                app.room.flush()
                await pilot.pause()
        app.room.flush()
        await pilot.pause(0.2)
        transcript = app.query_one(Transcript)
        assert PRUNE_TO <= transcript.mounted <= MAX_MOUNTED
        assert len(app.query(MessageView)) <= MAX_MOUNTED
        assert app.query_one("#earlier").display
        app.room.action_full_transcript()
        await pilot.pause(0.1)
        screen = app.screen
        assert isinstance(screen, FullTranscriptScreen)
        assert "Message number 1." in screen.text and "Message number 150." in screen.text


async def test_model_text_with_markup_and_escape_sequences_is_shown_literally(tmp_path: Path) -> None:
    turn = items(say(HOSTILE), {"type": "action", "name": "wb_draw_text",
                                "params": {"content": HOSTILE, "x": 10, "y": 10, "width": 900, "height": 200}})
    app = script_app(tmp_path, {"director": [pick("teacher"), pick("USER")], "agents": {"teacher": [turn]}},
                     classroom())
    async with app.run_test(size=(160, 50)) as pilot:
        await ready(pilot)
        await send(pilot, "Say something odd")
        await finish_turn(pilot)
        message = next(e for e in app.room.view.entries if isinstance(e, AgentMessage))
        assert "\x1b" not in message.text and "\x07" not in message.text
        assert "[bold red]x[/]" in message.text and "[link=https://evil.example]" in message.text
        assert "2J" not in message.text and "pwned" not in message.text
        screen = app.export_screenshot()
        assert "[bold&#160;red]x[/]" in screen or "[bold red]x[/]" in screen
        assert "pwned" not in screen and "\x1b" not in screen
        board_text = "\n".join(line.plain for line in app.query_one(BoardPane).shown_lines())
        assert "[bold red]x[/]" in board_text and "\x1b" not in board_text and "pwned" not in board_text


async def test_switching_classroom_rebuilds_the_room_and_its_session() -> None:
    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        old_session = app.room.session
        await app.room.switch_classroom("water-cycle")
        await wait_for(pilot, lambda: app.room.session is not None and app.room.session is not old_session)
        assert app.room.classroom.title == app.title and "water" in app.title.lower()
        assert app.query_one(Roster).agents == app.room.classroom.agents
        await send(pilot, "Hello!")
        await finish_turn(pilot)
        assert any(isinstance(e, AgentMessage) for e in app.room.view.entries)


async def test_f1_opens_help_and_agent_text_can_be_selected_and_copied() -> None:
    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await pilot.press("f1")
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        await send(pilot, "What is a derivative?")
        await finish_turn(pilot)
        view = app.query_one(MessageView)
        view.text_select_all()
        await pilot.pause()
        selected = app.screen.get_selected_text()
        assert selected is not None and "slope of the curve" in selected
        app.room.action_copy_last()
        last = [e for e in app.room.view.entries if isinstance(e, AgentMessage)][-1]
        assert app.clipboard == last.text
