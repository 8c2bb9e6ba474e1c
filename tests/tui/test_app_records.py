"""The learning records in the app: the lesson's end says the score and offers Ctrl+R, which writes the session's
statements beside it and sends them to the configured LRS, in a thread, saying how it went."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from maic_tui.classroom.lesson_steps import Phase
from maic_tui.learning.outbox import Outbox
from maic_tui.tui.widgets.lesson_panel import LessonLine
from tests.fake_lrs import PASSWORD, USER, fake_lrs
from tests.tui.helpers import ready, recorded_app, say, wait_for


def _phase(app: object) -> Phase | None:
    lesson = app.room.turns.lesson  # type: ignore[attr-defined]
    return lesson.phase if lesson is not None else None


def _toasts(app: object) -> list[str]:
    return [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]


async def test_ctrl_r_at_the_lesson_end_writes_the_records_and_sends_them(
        private_data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAIC_LRS_USER", USER)
    monkeypatch.setenv("MAIC_LRS_PASSWORD", PASSWORD)
    with fake_lrs() as (url, lrs):
        Path(os.environ["MAIC_CONFIG"]).write_text(f'[records]\nlrs = "{url}"\n', encoding="utf-8")
        app = recorded_app(private_data_dir, lesson=True)
        async with app.run_test(size=(140, 45)) as pilot:
            await ready(pilot)
            await wait_for(pilot, lambda: _phase(app) == Phase.WAITING and not app.room.turns.running)
            app.room.go_to_scene(4)  # the quiz
            for reply in ("A", "A and C", "the slope: how fast it changes"):
                await wait_for(pilot, lambda: _phase(app) == Phase.WAITING and not app.room.turns.running)
                app.room.query_one("Composer").focus()
                await say(pilot, reply)
            await wait_for(pilot, lambda: _phase(app) == Phase.ENDED and not app.room.turns.running)
            line = str(app.query_one(LessonLine).render())
            assert "Lesson over · score" in line and "Ctrl+R records" in line
            assert app.room.check_action("export_records", ())
            await pilot.press("ctrl+r")
            session = app.room.recorded_session()
            written = private_data_dir / "records" / f"{session}.xapi.json"
            await wait_for(pilot, lambda: any("sent to LRS" in t for t in _toasts(app)))
            statements = json.loads(written.read_text(encoding="utf-8"))
            assert [s["verb"]["id"].rsplit("/", 1)[1] for s in statements][-2:] == ["completed", "terminated"]
            assert sorted(lrs.statements) == sorted(s["id"] for s in statements)
            assert any(f"{len(statements)} learning records written" in t for t in _toasts(app))


async def test_ctrl_r_with_the_lrs_away_keeps_them_for_the_next_start(private_data_dir: Path) -> None:
    Path(os.environ["MAIC_CONFIG"]).write_text('[records]\nlrs = "http://127.0.0.1:9/xAPI/"\n', encoding="utf-8")
    app = recorded_app(private_data_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        assert not app.room.check_action("export_records", ())  # nothing recorded yet: the key is off
        await say(pilot, "what is a derivative?")
        await wait_for(pilot, lambda: app.room.recorded_session() is not None and not app.room.turns.running)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: any("cannot reach it" in t for t in _toasts(app)))
        assert any("queued, sent on the next start" in t for t in _toasts(app))
        assert app.room.turns.session is not None  # the class goes on
    assert len(Outbox(private_data_dir).pending()) == 1
