"""The command palette: one theme command, whose list puts the project's themes first and marks Textual's
own; recorded sessions found by "resume", with their model."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.live.assembly import SessionRecipe
from maic_tui.llm.options import ModelOptions
from maic_tui.tui.app import ClassroomApp
from tests.tui.helpers import demo_app, finish_turn, ready, say, wait_for


async def palette_entries(pilot: object, query: str) -> list[str]:
    app = pilot.app  # type: ignore[attr-defined]
    await pilot.press(*query)  # type: ignore[attr-defined]
    commands = app.screen.query_one(CommandList)
    await wait_for(pilot, lambda: commands.option_count > 0)  # type: ignore[arg-type]
    await pilot.pause(0.3)  # type: ignore[attr-defined]
    return [str(commands.get_option_at_index(i).prompt).split("\n")[0] for i in range(commands.option_count)]


async def test_there_is_one_theme_command_and_its_list_marks_textuals_own_themes(private_config: Path) -> None:
    app = demo_app(theme="chalkboard")
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+p")
        entries = await palette_entries(pilot, "theme")
        assert [e for e in entries if "theme" in e.lower()] == ["Switch theme"]
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette) and "Switch" not in str(
            app.screen.query_one(CommandList).get_option_at_index(0).prompt)
            if app.screen.query(CommandList) and app.screen.query_one(CommandList).option_count else False)
        commands = app.screen.query_one(CommandList)
        names = [str(commands.get_option_at_index(i).prompt).split("\n")[0] for i in range(commands.option_count)]
        ours = sorted(app.theme_specs)
        assert names[:len(ours)] == ours
        assert names[len(ours):] and all(name.endswith("(Textual built-in)") for name in names[len(ours):])
        await pilot.press(*"paper")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.theme == "paper")


@pytest.fixture
def one_recorded_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    data = tmp_path / "data"
    assert main(["run", "derivatives", "--say", "hello there", "--data-dir", str(data)]) == 0
    capsys.readouterr()
    return data


async def test_resume_finds_the_one_recorded_session(one_recorded_session: Path) -> None:
    data = one_recorded_session
    app = ClassroomApp(load_classroom("derivatives"), SessionRecipe("demo", ModelOptions(), data_dir=data))
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+p")
        entries = await palette_entries(pilot, "resume")
        assert len(entries) == 1 and entries[0].startswith("Resume session ")
        help_line = str(app.screen.query_one(CommandList).get_option_at_index(0).prompt).split("\n")[1]
        assert help_line.startswith("1 turn · demo · last: hello there")


async def test_a_browser_tab_cannot_touch_the_servers_settings_sessions_or_files(
        one_recorded_session: Path, private_config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from maic_tui.tui.palette import PaletteCommands
    from maic_tui.tui.screens.new_classroom import NewClassroomScreen

    private_config.write_text('model = "demo"\ntheme = "chalkboard"\n', encoding="utf-8")
    monkeypatch.setattr(ClassroomApp, "is_web", property(lambda self: True))  # as under `maic-tui serve`
    app = ClassroomApp(load_classroom("derivatives"), SessionRecipe("demo", ModelOptions(),
                                                                    data_dir=one_recorded_session))
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        names = [str(hit.text) async for hit in PaletteCommands(app.screen).discover()]
        assert "Switch theme" in names and "Quit" in names
        assert not [name for name in names if name.startswith(("Resume session", "New classroom"))]
        assert "Screenshot" not in [command.title for command in app.get_system_commands(app.screen)]
        app.room.action_new_classroom()
        await pilot.pause(0.2)
        assert not isinstance(app.screen, NewClassroomScreen)
        app.theme = "paper"  # this tab's own choice
        await pilot.pause(0.2)
    assert private_config.read_text(encoding="utf-8") == 'model = "demo"\ntheme = "chalkboard"\n'


async def test_mute_solo_and_everyone_from_the_palette_show_in_the_class_list_and_the_transcript() -> None:
    from maic_tui.room.view import SystemNote
    from maic_tui.tui.widgets.roster import MUTED_MARK, Roster

    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+p")
        entries = await palette_entries(pilot, "mute juno")
        assert entries[0] == "Mute: Juno"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.room.view.muted == {"juno"})
        roster = app.query_one(Roster)
        await wait_for(pilot, lambda: roster.muted == {"juno"})
        assert MUTED_MARK in roster.line(next(a for a in roster.agents if a.id == "juno")).plain
        notes = [e.text for e in app.room.view.entries if isinstance(e, SystemNote)]
        assert notes[-1] == "Muted: Juno."
        await pilot.press("ctrl+p")
        entries = await palette_entries(pilot, "solo")
        assert entries[0].startswith("Solo: only ") and entries[0].endswith(" speaks")
        await pilot.press("enter")
        lead = app.room.classroom.lead()
        assert lead is not None
        await wait_for(pilot, lambda: app.room.view.muted == {a.id for a in app.room.classroom.agents} - {lead.id})
        await say(pilot, "What is a derivative?")
        await finish_turn(pilot)
        from maic_tui.room.view import AgentMessage

        assert {e.agent_id for e in app.room.view.entries if isinstance(e, AgentMessage)} == {lead.id}
        await pilot.press("ctrl+p")
        await palette_entries(pilot, "everyone speaks again")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not app.room.view.muted)


async def test_talk_statistics_and_step_mode_from_the_palette() -> None:
    from textual.widgets import TextArea

    from maic_tui.tui.screens.full_transcript import FullTranscriptScreen

    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await say(pilot, "What is a derivative?")
        await finish_turn(pilot)
        await pilot.press("ctrl+p")
        assert (await palette_entries(pilot, "talk stat"))[0] == "Talk statistics"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, FullTranscriptScreen))
        shown = app.screen.query_one(TextArea).text
        assert shown.startswith("1 session, 1 learner turns, 1 class turns") and "Prof. Ada Reyes" in shown
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        assert (await palette_entries(pilot, "step mode"))[0] == "Step mode"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.room.view.stepping)
