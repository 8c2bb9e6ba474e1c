"""A classroom file's problems in the interface's language (README, *Languages*): what `validate` prints, the notes
`edit` writes above a draft, pydantic's errors by their type and a formula's; the field paths, file names, keys and
values stay as written, and the English stays what the loader groups by and the generator tells the model."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import pytest
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from maic_tui.bad_input import validation_line, validation_message
from maic_tui.classroom.loader import check_text
from maic_tui.cli import main
from maic_tui.editing.draft_loop import Found, with_header, without_header
from maic_tui.formulas import FormulaError, parse
from maic_tui.generation.outline_file import read_plan
from maic_tui.i18n import set_interface_language
from maic_tui.i18n.said import said
from maic_tui.paths import SAMPLES_DIR
from tests.authoring_helpers import script_editor, seen
from tests.test_edit import SAMPLE
from tests.test_problem_report import DERIVATIVES, script, without_line

BROKEN = """title = "Broken"
colour = 3

[[agents]]
id = "t"
name = "Ada"
role = "teacher"
persona = "Teaches."
avatar = "A"
color = "#zzz"

[[scenes]]
id = "sim"
title = "Sim"
type = "interactive"
[scenes.widget]
kind = "simulation"
variables = [{ name = "h", label = "h", min = 0, max = 1, default = 0.5, step = 0.1 }]
computed = [{ name = "y", label = "y", formula = "h + * 2" }]

[[scenes]]
id = "q"
title = "Quiz"
type = "quiz"
[[scenes.questions]]
id = "q1"
type = "weird"
question = "Why?"
points = 0
"""


def validated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str,
              language: str) -> tuple[int, list[str], str]:
    path = tmp_path / "class.toml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("LANGUAGE", language)
    code = main(["validate", str(path)])
    return code, capsys.readouterr().err.splitlines(), f"{path}: "


def test_validate_says_a_files_problems_in_german_and_chinese_with_paths_keys_and_values_as_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, at = validated(tmp_path, monkeypatch, capsys, BROKEN, "de")
    assert code == 2
    assert sorted(lines) == sorted([
        at + "colour: unbekannter Schlüssel (prüfe die Schreibweise)",
        at + "agents[0].color: keine Farbe: '#zzz' (verwende #rgb oder #rrggbb)",  # a validator's own message
        at + "scenes[1].questions[0].type: muss eines davon sein: 'single', 'multiple', 'short_answer', "
             "erhalten: 'weird'",
        at + "scenes[1].questions[0].points: muss mindestens 1 sein, erhalten: 0",
        at + "scenes[0].widget.computed[0].formula: Spalte 5: unerwartet '*'"])
    code, lines, at = validated(tmp_path, monkeypatch, capsys, BROKEN, "zh_CN")
    assert code == 2
    assert at + "scenes[1].questions[0].points: 必须至少为 1，实际为 0" in lines
    assert at + "scenes[0].widget.computed[0].formula: 第 5 列：意外的 '*'" in lines
    assert at + "colour: 未知的键（请检查拼写）" in lines


def test_folded_and_grouped_problems_are_found_by_their_english_and_shown_translated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, at = validated(tmp_path, monkeypatch, capsys, without_line(DERIVATIVES, 'id = "reyes"'), "ru")
    assert code == 2
    assert lines == [at + "agents[0].id: нет обязательного поля (43 места называют 'reyes')"]
    speakers = ["t"] * 14 + ["okafor", "okafor", "t", "t", "t", "okafor"] + ["okafor"] * 6
    code, lines, at = validated(tmp_path, monkeypatch, capsys, script(speakers), "fr")
    assert lines == [at + "scenes[0].script[14, 15, 19, 20, 21, 22 et 3 autres].agent: 'okafor' n'est pas un agent de "
                          "cette classe"]


def test_a_problem_keeps_its_english_for_the_model_and_is_shown_translated() -> None:
    set_interface_language("de")
    _, problems = check_text(BROKEN, "class.toml")
    formula = next(p for p in problems if p.path.endswith("formula"))
    assert formula.message == "column 5: unexpected '*'"  # what the generator tells the model of its answer
    assert str(formula) == "class.toml: scenes[0].widget.computed[0].formula: Spalte 5: unerwartet '*'"


def test_the_notes_above_a_draft_follow_the_interface_and_are_taken_off_whatever_language_wrote_them() -> None:
    problems = [Found(2, "title: required field is missing"), Found(None, "not valid TOML")]
    for language in ("ar", "ja", "ru"):
        set_interface_language(language)
        drafted = with_header("title = 1\n", problems, "classroom draft")
        set_interface_language("en")
        assert without_header(drafted) == "title = 1\n"
    set_interface_language("ja")
    assert with_header("x = 1\n", problems, "classroom draft").startswith(
        "#! maic-tui：この教室の下書きは保存されていません：問題が 2 件あります。")


def test_an_edit_begun_in_japanese_goes_on_in_german_and_no_note_reaches_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MAIC_DATA_DIR", str(tmp_path / "data"))
    classroom = tmp_path / "class.toml"
    classroom.write_text(SAMPLE, encoding="utf-8")
    monkeypatch.setenv("LANGUAGE", "ja")
    script_editor(monkeypatch, tmp_path / "first", {"replace": ['id = "reyes"', 'id = "Reyes Ω"']}, {"keep": True})
    assert main(["edit", str(classroom)]) == 1
    [kept] = sorted((tmp_path / "data" / "drafts").glob("*.toml"))
    notes = kept.read_text(encoding="utf-8")
    assert "行目：agents[0].id: パターン" in notes and "'Reyes Ω'" in notes
    monkeypatch.setenv("LANGUAGE", "de")
    editor = script_editor(monkeypatch, tmp_path / "second", {"replace": ['id = "Reyes Ω"', 'id = "reyes"']})
    capsys.readouterr()
    assert main(["edit", str(classroom)]) == 0
    [opened] = seen(editor)
    assert opened.startswith("#! maic-tui: Klassenzimmer-Entwurf nicht gespeichert: 5 Probleme.")
    assert "パターン" not in opened and "agents[0].id: muss dem Muster" in opened  # Japanese notes off, German on
    assert classroom.read_text(encoding="utf-8") == SAMPLE  # the author's fix, and no note reached the file
    assert capsys.readouterr().out.splitlines()[-1] == f"{classroom}: unverändert"


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    size: int = Field(gt=0)
    names: list[str] = Field(min_length=2)
    mode: Literal["fast", "slow"] = "fast"
    when: float | None = None


def errors(data: dict[str, object]) -> list[object]:
    try:
        Settings.model_validate(data)
    except ValidationError as exc:
        return list(exc.errors())
    raise AssertionError("valid")


def test_pydantics_errors_are_said_by_their_type_with_their_context_and_english_stays_pydantics() -> None:
    found = errors({"size": 0, "names": ["a"], "mode": "quick", "when": "soon", "extra": 1})
    english = [str(validation_message(error)) for error in found]
    set_interface_language("ru")
    shown = [validation_message(error).shown for error in found]
    assert english == ["must be greater than 0, got 0", "List should have at least 2 items after validation, not 1",
                       "must be 'fast' or 'slow', got 'quick'", "must be a valid number, unable to parse string as "
                       "a number, got 'soon'", "unknown key (check the spelling)"]
    assert shown == ["должно быть больше 0, получено 0", "должно быть хотя бы 2 элемента, а не 1",
                     "должно быть одним из: 'fast', 'slow', получено 'quick'", "должно быть числом, получено 'soon'",
                     "неизвестный ключ (проверь написание)"]
    set_interface_language("es")
    assert [validation_message(e).shown for e in errors({"size": 1, "names": []})] == [
        "debe tener al menos 2 elementos, no 0"]


def test_a_type_we_have_no_words_for_is_pydantics_english_and_a_validators_message_is_its_own() -> None:
    def weekday(day: str) -> str:
        raise ValueError(said("the day {day} is off", day=day))  # a message no catalog has: its English

    class Dated(BaseModel):
        day: Annotated[str, AfterValidator(weekday)]
        raw: bytes = b""

    try:
        Dated.model_validate({"day": "Mon", "raw": 3})
    except ValidationError as exc:
        found = exc.errors()
    set_interface_language("de")
    assert [validation_message(e).shown for e in found] == ["the day Mon is off",
                                                            "must be a valid bytes, got 3"]
    with pytest.raises(ValidationError) as raised:
        Settings.model_validate({"size": -1, "names": ["a", "b"]})
    assert validation_line(raised.value) == "size: muss größer als 0 sein, erhalten: -1"


def test_a_formulas_problem_is_english_for_a_model_and_shown_in_the_interfaces_language() -> None:
    set_interface_language("ar")
    with pytest.raises(FormulaError) as raised:
        parse("sin(1, 2)", frozenset())
    assert str(raised.value) == "column 1: sin takes 1 argument"
    assert raised.value.shown == "العمود 1: sin تأخذ وسيطا واحدا"
    with pytest.raises(FormulaError) as raised:
        parse("max(1", frozenset())
    assert (str(raised.value), raised.value.shown) == ("column end: ',' or ')' expected in max(...)",
                                                       "العمود النهاية: متوقع ',' أو ')' في max(...)")


def test_validates_ok_and_warning_lines_and_an_actions_bad_parameter_are_in_the_interfaces_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    text = (SAMPLES_DIR / "water-cycle.toml").read_text(encoding="utf-8")
    text = text.replace(', options = ["A puddle drying", "Steam from a kettle", "Go on"]', "")
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("LANGUAGE", "es")
    assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == f"{path}: correcto\n"
    assert err == (f"{path}: aviso: escena 'up' paso 7: la pausa pregunta “Where have you seen water vanish into the "
                   "air at home?” pero no tiene 'options' ni 'expects': la demostración no puede juzgar la respuesta\n")
    broken = script(["t"]).replace('{ agent = "t", say = "Line 0." }',
                                   '{ agent = "t", action = "wb_draw_text", params = { x = 1 } }')
    code, lines, at = validated(tmp_path, monkeypatch, capsys, broken, "de")
    assert (code, lines) == (2, [at + "scenes[0].script[0].params: ungültiger Parameter: content"])


def test_the_outline_new_review_shows_says_its_problems_in_the_interfaces_language() -> None:
    outline = ('title = "Slopes"\n\n[[agents]]\nname = "Ada"\nrole = "student"\n\n[[agents]]\nname = "ada"\n'
               'role = "student"\n\n[[scenes]]\ntitle = "One"\ngoals = ["a"]\n')
    set_interface_language("zh_CN")
    assert read_plan(outline)[1] == [(None, "agents: 课堂需要正好一位老师（现在有 0 位）"),
                                     (8, "agents[1].name: 'ada' 已经在课堂里了")]
    assert read_plan(outline.replace('"student"', '"boss"', 1))[1] == [
        (5, "agents[0].role: 必须是以下之一：'teacher', 'assistant', 'student'，实际为 'boss'")]
