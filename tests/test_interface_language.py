"""Which language the app and the command line speak (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, then ``[interface]
language``), the command line's help and errors in it, and a class's own lines in the classroom's language."""

from __future__ import annotations

from pathlib import Path

import pytest

from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.classroom.quiz import grade_offline, question_text
from maic_tui.cli import main
from maic_tui.i18n import choose, from_environment, interface_language, supported
from maic_tui.live.lesson_talk import answer_please, wants_retry
from maic_tui.settings import interface_language as configured_language
from maic_tui.settings import save_setting


@pytest.mark.parametrize(("env", "expected"), [
    ({"LANGUAGE": "de:fr", "LC_ALL": "ja_JP.UTF-8", "LANG": "ru_RU.UTF-8"}, ("de", "LANGUAGE")),
    ({"LANGUAGE": "pt:fr", "LANG": "ru_RU.UTF-8"}, ("fr", "LANGUAGE")),  # the first of ours in the list
    ({"LC_ALL": "C", "LC_MESSAGES": "ja_JP.UTF-8"}, ("ja", "LC_MESSAGES")),  # C names no language
    ({"LANG": "zh_CN.UTF-8"}, ("zh_CN", "LANG")),
    ({"LANG": "ar_EG.UTF-8"}, ("ar", "LANG")),
    ({"LANG": "pt_BR.UTF-8"}, ("en", "LANG")),  # a language we lack: English, as gettext would
    ({"LANG": "C.UTF-8"}, None),
    ({}, None),
])
def test_the_environment_chooses_in_gettexts_order(env: dict[str, str], expected: tuple[str, str] | None) -> None:
    assert from_environment(env) == expected


@pytest.mark.parametrize(("tag", "code"), [("zh-CN", "zh_CN"), ("zh-Hans", "zh_CN"), ("zh_TW", None),
                                           ("de-AT", "de"), ("es_MX.UTF-8", "es"), ("POSIX", None), ("xx", None)])
def test_a_locale_name_or_classroom_code_means_one_of_our_languages(tag: str, code: str | None) -> None:
    assert supported(tag) == code


def test_the_config_files_language_counts_when_the_environment_names_none(tmp_path: Path) -> None:
    env = {"MAIC_CONFIG": str(tmp_path / "config.toml"), "LANG": "C.UTF-8"}
    assert configured_language(env) == "en"
    save_setting("interface.language", "ja", env)
    assert "[interface]" in (tmp_path / "config.toml").read_text() and configured_language(env) == "ja"
    assert configured_language(env | {"LANG": "fr_FR.UTF-8"}) == "fr"  # the environment first
    (tmp_path / "config.toml").write_text("not = [valid", encoding="utf-8")
    assert configured_language(env) == "en"  # the verb reports a broken file; the language falls back
    assert choose({}, "klingon") == "en"


def test_the_command_lines_help_and_errors_are_in_the_chosen_language(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANGUAGE", "de")
    assert main(["demo", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Aufruf: maic-tui demo") and "Optionen:" in out and "ohne Oberfläche abspielen" in out
    assert interface_language() == "de"
    monkeypatch.setenv("LANGUAGE", "fr")
    assert main(["run", "derivatives", "--pace", "x"]) == 2
    assert capsys.readouterr().err.strip() == ("maic-tui run : argument --pace : pas un nombre : 'x' "
                                               "(voir maic-tui run --help)")
    monkeypatch.setenv("LANGUAGE", "ru")
    assert main(["run", "derivatives"]) == 2
    assert "run нужен --say ТЕКСТ" in capsys.readouterr().err


QUESTION = QuizQuestion(id="q", question="2 + 2?", type="single", options=[
    {"value": "a", "label": "3"}, {"value": "b", "label": "4"}], answer=["b"], points=2)


def test_the_class_says_its_own_lines_in_its_language_whatever_the_interfaces() -> None:
    assert question_text(QUESTION, "zh-CN").startswith("问题（2分）：2 + 2?")
    assert question_text(QUESTION, "ru").startswith("Вопрос (2 балла): 2 + 2?")
    assert question_text(QUESTION).startswith("Question (2 points): 2 + 2?")
    assert answer_please(QUESTION, "Sam", "ja") == ("まずは答えを、Samさん：番号 1〜2、文字 A, B、"
                                                    "または選択肢そのものを入力してください。")
    short = QuizQuestion(id="s", question="Why?", type="short_answer", keywords=["slope"], points=1)
    assert grade_offline(short, "no idea", "es").comment == "La idea clave es slope."
    assert wants_retry("重试", "zh-CN") and wants_retry("retry", "zh-CN") and not wants_retry("重试", "en")


def test_the_demo_model_says_its_own_phrases_in_the_classs_language() -> None:
    from maic_tui.classroom import load_classroom
    from maic_tui.demo import lesson_turns, replies
    from maic_tui.llm.context import LessonCall

    classroom = load_classroom("derivatives").model_copy(update={"language": "zh-CN"})
    lead = replies.lead(classroom)
    greeting = replies.greeting(classroom, 0)[0].steps[0].say or ""
    assert greeting.startswith("你好，Sam！我们正在讲“Slopes everywhere”")
    asked = replies.quiz(classroom, [])[0].steps[0].say or ""
    assert asked.startswith("这道题给你。 问题（1分）：What is the derivative of x^4?")
    call = LessonCall("react", "", 3, opener=lead.id, earned=0, points=1, comment="")
    assert (lesson_turns.reaction(classroom, lead, call).steps[0].say or "").startswith("不太对，Sam。")
    english = load_classroom("derivatives")
    assert (lesson_turns.reaction(english, lead, call).steps[0].say or "").startswith("Not quite, Sam.")
