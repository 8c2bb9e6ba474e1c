"""Words lower layers make that a person reads (README, *Languages*): the quiz sheet's, the transcript's action
chips, and what ``run --lesson``, ``sessions``, ``report`` and ``doctor`` print, in the interface's language;
an agent's prompt and the machine-readable output stay English."""

from __future__ import annotations

from pathlib import Path

import pytest

from maic_tui.actions import action_chip
from maic_tui.actions.catalogue import abilities
from maic_tui.classroom.loader import load_classroom
from maic_tui.cli import main
from maic_tui.i18n import set_interface_language
from maic_tui.whiteboard.render import BoardPalette, render_slide
from tests.test_lesson_sessions import lesson
from tests.test_sessions import _recorded_session

DARK = BoardPalette("#1f2335", "#e6e9f5", "#2a3050", True)


def test_the_quiz_sheet_says_its_own_words_in_the_interfaces_language() -> None:
    quiz = next(scene for scene in load_classroom("derivatives").scenes if scene.type == "quiz")
    set_interface_language("fr")
    text = "\n".join(line.plain for line in render_slide(quiz, 60, 40, DARK))
    assert "(répondez avec vos mots)" in text and "(answer in your own words)" not in text
    assert "2. Which of these are rates of change?" in text  # the classroom's own text stays as written


def test_the_transcripts_chips_are_in_the_interfaces_language_the_prompts_abilities_english() -> None:
    set_interface_language("de")
    assert action_chip("wb_close", {}) == "▢ Tafel geschlossen"
    assert action_chip("spotlight", {"elementId": "title"}) == "◎ Fokus [title]"
    line = {"startX": 0, "startY": 0, "endX": 9, "endY": 9, "points": ["", "arrow"], "elementId": "l1"}
    assert action_chip("wb_draw_line", line) == "✎ Pfeil [l1]"
    assert action_chip("widget_highlight", {"target": "slope"}) == "✦ hebt hervor slope"
    assert action_chip("widget_setState", {"state": {"h": 1}}) == "⇄ setzt h = 1"
    assert action_chip("spotlight", {"elementId": 3}) == "◎ Fokus [3]"  # a bad record: the fallback label
    set_interface_language("zh_CN")
    assert action_chip("widget_reveal", {}) == "◐ 揭示"
    assert abilities(["wb_draw_text", "spotlight"]) == "✎ text · ◎ spotlight"  # what the model is told


def test_run_lessons_stop_line_is_in_the_interfaces_language(tmp_path: Path, private_data_dir: Path,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    lesson(tmp_path)
    monkeypatch.setenv("LANGUAGE", "ru")
    assert main(["run", str(tmp_path / "lesson.toml"), "--lesson"]) == 0
    captured = capsys.readouterr()
    assert captured.err.strip() == ("maic-tui: урок остановился на вопросе 'q1': не осталось --say, "
                                    "чтобы ответить")
    assert '"type"' in captured.out  # the records stay JSON as they are


def test_sessions_report_and_doctor_speak_the_interfaces_language(tmp_path: Path, private_data_dir: Path,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANGUAGE", "es")
    assert main(["sessions"]) == 0
    assert capsys.readouterr().out.startswith("Aún no hay sesiones grabadas en ")
    assert main(["report"]) == 0
    assert capsys.readouterr().err.strip() == "maic-tui: no hay sesiones grabadas"
    assert main(["doctor", "--model", "demo"]) == 0
    assert "funciona sin conexión en este programa" in capsys.readouterr().out
    _recorded_session(tmp_path, private_data_dir, "How?")
    monkeypatch.setenv("LANGUAGE", "de")
    assert main(["sessions"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split()
    assert header[:3] == ["ID", "KLASSENZIMMER", "MODELL"] and header[-2:] == ["LETZTE", "NACHRICHT"]
    assert main(["report", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("session,")  # the CSV's column ids are not translated
    rows = len(out.splitlines()) - 1
    monkeypatch.setenv("LANGUAGE", "ru")
    assert main(["report", "-o", str(tmp_path / "grades.csv")]) == 0
    words = {1: "записана 1 строка в ", 2: "записаны 2 строки в "}  # Russian's forms, from one English message
    assert capsys.readouterr().out.startswith(words[rows]) and (tmp_path / "grades.csv").read_text().startswith(
        "session,")


def test_doctors_checks_are_in_the_interfaces_language_its_columns_in_cells(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], private_data_dir: Path) -> None:
    from maic_tui.text_cells import cell_len
    from tests.fake_openai import Reply, fake_openai

    monkeypatch.setenv("LANGUAGE", "zh_CN")
    with fake_openai(Reply('{"answer": "ok"}'), Reply("Hello class!"), Reply("one, two")) as server:
        code = main(["doctor", "--model", "openai:fake-model", "--base-url", server.url, "--timeout", "5"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0 and lines[-1] == "课堂可以使用此服务器运行。"
    assert lines[0].startswith("✓ 服务器") and "有应答" in lines[0] and "'fake-model' 在列表中" in lines[1]
    assert "首个 token 用时" in "\n".join(lines) and any(line.startswith("✓ 输出上限") for line in lines)
    # the details start in one column whatever the name's width in cells (a Chinese character takes two)
    assert cell_len(lines[0][:lines[0].index(server.url)]) == cell_len(lines[1][:lines[1].index("'fake")]) == 20


def test_how_far_a_sessions_lesson_got_reads_in_the_interfaces_language() -> None:
    from maic_tui.log.progress import LessonProgress

    going, over = LessonProgress(3, 4, 2, 5, False), LessonProgress(4, 4, 5, 5, True)
    assert (going.words(), over.words()) == ("scene 3/4 · score 2/5", "lesson over · score 5/5")
    set_interface_language("ru")
    assert (going.words(), over.words()) == ("сцена 3/4 · баллы 2/5", "урок окончен · баллы 5/5")
    assert LessonProgress(1, 2, 0, 0, False).words() == "сцена 1/2"  # a lesson without questions: no score
