"""Pilot: the app speaking (a fake speech server and a player that only takes its time): the roster shows who is
heard, Ctrl+O mutes and unmutes, Esc silences a voice still catching up, a new message silences the last one,
and --audio-out keeps every utterance."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.live.assembly import SessionRecipe
from maic_tui.llm.options import ModelOptions
from maic_tui.speech.choice import VoiceSettings
from maic_tui.tui.app import ClassroomApp
from maic_tui.tui.widgets.roster import Roster
from tests.fake_speech import fake_speech
from tests.tui.helpers import finish_turn, ready, say, wait_for


@pytest.fixture
def slow_player(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player that plays nothing for 2 s per utterance (these machines have no sound card)."""
    from maic_tui.live import voice

    monkeypatch.setattr(voice, "find_player", lambda: (sys.executable, "-c", "import time; time.sleep(2)"))


def voiced_app(voice: VoiceSettings, timeout: float = 60.0) -> ClassroomApp:
    """The demo class at full speed, speaking with ``voice``."""
    return ClassroomApp(load_classroom("derivatives"), SessionRecipe("demo", ModelOptions(pace=0.0, timeout=timeout),
                                                                     lesson=False, voice=voice))


async def test_the_roster_shows_who_is_heard_and_the_voice_mutes_and_stops(tmp_path: Path,
                                                                           slow_player: None) -> None:
    with fake_speech() as server:
        app = voiced_app(VoiceSettings("openai", server.url, audio_out=tmp_path / "audio"))
        async with app.run_test(size=(140, 45)) as pilot:
            await ready(pilot)
            await say(pilot, "What is a derivative?")
            roster = app.screen.query_one(Roster)
            await wait_for(pilot, lambda: roster.aloud == "reyes")
            line = str(roster._list.get_option_at_index(0).prompt)
            assert "🔊 aloud" in line
            await finish_turn(pilot)  # the text is done; the voice is still on its first sentences
            assert app.room.turns.voice is not None and app.room.turns.voice.busy
            await pilot.press("ctrl+o")
            await wait_for(pilot, lambda: roster.aloud is None, timeout=1)  # now, not at the sentence's end
            assert app.room.turns.voice.muted
            await pilot.press("ctrl+o")
            assert not app.room.turns.voice.muted
            await say(pilot, "Why?")  # a new message: what was left of the last answer is not said
            await finish_turn(pilot)
            await wait_for(pilot, lambda: roster.aloud is not None)
            await pilot.press("escape")  # the class is silent in text; Esc silences the voice
            await wait_for(pilot, lambda: roster.aloud is None and not app.room.turns.voice.busy)
        index = [json.loads(line) for line in (tmp_path / "audio" / "index.jsonl").read_text().splitlines()]
        assert index and all((tmp_path / "audio" / entry["file"]).exists() for entry in index)


async def test_a_speech_server_that_is_down_is_one_notice_and_the_class_goes_on(slow_player: None) -> None:
    app = voiced_app(VoiceSettings("openai", "http://127.0.0.1:9/v1"), timeout=2)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await say(pilot, "What is a derivative?")
        await finish_turn(pilot)
        await wait_for(pilot, lambda: app.room.turns.voice is not None and app.room.turns.voice.quiet_reason)
        notes = [str(n.message) for n in app._notifications]
        assert sum("voice off: the speech server cannot be reached" in n for n in notes) == 1
        assert app.room.view.last_done is not None


async def test_no_sound_player_is_a_note_in_the_transcript_and_files_are_still_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by hand: with no player the notice came before the screen was up and the app failed to start."""
    from maic_tui.live import voice as live_voice

    monkeypatch.setattr(live_voice, "find_player", lambda: None)
    with fake_speech() as server:
        app = voiced_app(VoiceSettings("openai", server.url, audio_out=tmp_path / "audio"))
        async with app.run_test(size=(140, 45)) as pilot:
            await ready(pilot)
            notes = [getattr(e, "text", "") for e in app.room.view.entries]
            assert any(str(n).startswith("no sound player found") for n in notes)
            await say(pilot, "What is a derivative?")
            await finish_turn(pilot)
            await wait_for(pilot, lambda: (tmp_path / "audio" / "0001-reyes.wav").exists())
