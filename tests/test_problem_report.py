"""`validate` reports each root cause once, with its echoes folded in, and a problem repeated across places as one
line (classroom/report.py); every independent problem keeps its own line."""

from __future__ import annotations

from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.paths import SAMPLES_DIR

DERIVATIVES = (SAMPLES_DIR / "derivatives.toml").read_text(encoding="utf-8")


def validate(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    path = tmp_path / "class.toml"
    path.write_text(text, encoding="utf-8")
    code = main(["validate", str(path)])
    captured = capsys.readouterr()
    return code, captured.err.splitlines(), f"{path}: "


def without_line(text: str, line: str) -> str:
    lines = text.splitlines(keepends=True)
    assert lines.count(line + "\n") == 1
    return "".join(entry for entry in lines if entry != line + "\n")


def test_one_missing_agent_id_is_one_line_that_counts_the_places_naming_her(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, where = validate(tmp_path, without_line(DERIVATIVES, 'id = "reyes"'), capsys)
    assert code == 2
    assert lines == [where + "agents[0].id: required field is missing (43 places name 'reyes')"]


def test_a_broken_agent_entry_with_its_id_counts_its_echoes_on_its_own_first_problem(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = DERIVATIVES.replace('id = "theo"\n', 'id = "theo"\nmood = "sunny"\n', 1)
    code, lines, where = validate(tmp_path, broken, capsys)
    assert code == 2
    assert lines == [where + "agents[1].mood: unknown key (check the spelling) (5 places name 'theo')"]


CLASS = """title = "Class"

[[agents]]
id = "t"
name = "Teacher"
role = "teacher"
persona = "Kind."
avatar = "T"
color = "#112233"

[[agents]]
id = "s"
name = "Sol"
role = "student"
persona = "Keen."
avatar = "S"
color = "#223344"

[[scenes]]
id = "one"
title = "One"
script = [
"""


def script(speakers: list[str]) -> str:
    return CLASS + "".join(f'  {{ agent = "{who}", say = "Line {n}." }},\n' for n, who in enumerate(speakers)) + "]\n"


def test_one_unknown_agent_named_in_many_lines_is_one_line_listing_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    speakers = ["t"] * 14 + ["okafor", "okafor", "t", "t", "t", "okafor"] + ["okafor"] * 6
    code, lines, where = validate(tmp_path, script(speakers), capsys)
    assert code == 2
    assert lines == [where + "scenes[0].script[14, 15, 19, 20, 21, 22 and 3 more].agent: 'okafor' is not an agent "
                             "of this classroom"]


def test_two_places_are_listed_in_full(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, where = validate(tmp_path, script(["t", "okafor", "t", "okafor"]), capsys)
    assert code == 2
    assert lines == [where + "scenes[0].script[1 and 3].agent: 'okafor' is not an agent of this classroom"]


def test_two_independent_problems_stay_on_their_own_lines(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    text = without_line(script(["s", "t", "ghost", "s"]), 'id = "s"')
    text = text.replace('title = "Class"', 'title = "Class"\nmood = "grey"')
    code, lines, where = validate(tmp_path, text, capsys)
    assert code == 2
    assert lines == [
        where + "agents[1].id: required field is missing",
        where + "mood: unknown key (check the spelling)",
        # two unknown ids and one entry without an id: which one it was is not guessed
        where + "scenes[0].script[0 and 3].agent: 's' is not an agent of this classroom",
        where + "scenes[0].script[2].agent: 'ghost' is not an agent of this classroom",
    ]


def test_an_entry_without_an_id_is_matched_by_its_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = without_line(script(["sol", "t", "ghost", "sol"]), 'id = "s"')
    code, lines, where = validate(tmp_path, text, capsys)
    assert code == 2
    assert lines == [
        where + "agents[1].id: required field is missing (2 places name 'sol')",
        where + "scenes[0].script[2].agent: 'ghost' is not an agent of this classroom",
    ]


def test_places_that_differ_in_two_indices_are_listed_one_after_the_other(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = script(["t", "ghost"]) + """
[[scenes]]
id = "two"
title = "Two"
script = [{ agent = "t", say = "Hi." }, { agent = "t", say = "So." }, { agent = "ghost", say = "Boo." }]
"""
    code, lines, where = validate(tmp_path, text, capsys)
    assert code == 2
    assert lines == [where + "scenes[0].script[1].agent and scenes[1].script[2].agent: 'ghost' is not an agent of "
                             "this classroom"]


def test_a_valid_sample_is_still_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(SAMPLES_DIR / "derivatives.toml")]) == 0
    assert capsys.readouterr().out.endswith(": ok\n")


def test_the_same_problem_found_twice_at_one_place_is_one_line() -> None:
    """Two checks may find one fault (a scene's own check and the lesson's): said once, never a crash."""
    from maic_tui.classroom.report import grouped

    found = [("scenes[0].widget.min", "min must be below max"), ("scenes[0].widget.min", "min must be below max"),
             ("scenes[2].widget.min", "min must be below max")]
    assert grouped(found) == [("scenes[0 and 2].widget.min", "min must be below max")]
