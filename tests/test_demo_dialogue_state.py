"""Where the conversation stands for the offline demo (issue 25): the question the class last put to the learner,
what it expects or offers, how often it was missed; a guess is not a new question; and ``validate`` warns about a
question to the learner the demo cannot judge."""

from __future__ import annotations

from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.classroom.demo_checks import unanswerable
from maic_tui.commands.validate import validate_files
from maic_tui.demo.dialogue import asked_of
from maic_tui.demo.intents import is_new_question
from maic_tui.llm.context import Said
from maic_tui.paths import SAMPLES_DIR

POWER_QUESTION = "So x cubed becomes three x squared. Can you guess the derivative of x to the fifth?"


def test_the_question_a_prepared_answer_ends_with_is_pending_with_what_it_expects_and_its_misses() -> None:
    room = load_classroom("derivatives")
    said = [Said("learner", "how do i differentiate x cubed"), Said("reyes", POWER_QUESTION),
            Said("marcus", "Noting it down: exponent in front, exponent minus one.")]
    asked = asked_of(room, said)
    assert asked is not None and asked.kind == "expects" and asked.agent == "reyes"
    assert asked.question == "Can you guess the derivative of x to the fifth?" and "5x^4" in asked.expects
    assert asked.misses == 0
    # a wrong guess: the class gives a hint and asks again; the next reply is the second try
    again = [*said, Said("learner", "5x^3?"), Said("reyes", f"Not quite. Hint. Try again: {asked.question}")]
    assert (found := asked_of(room, again)) is not None and found.misses == 1
    # once the learner has the floor back and the class asks nothing, nothing is pending
    assert asked_of(room, [*again, Said("learner", "5x^4"), Said("reyes", "Exactly, Sam: 5x^4.")]) is None


def test_a_pause_offers_its_options_and_a_discussion_its_prompt() -> None:
    water = load_classroom("water-cycle")
    pause = asked_of(water, [Said("rivera", "Where have you seen water vanish into the air at home?")], scene=1)
    assert pause is not None and pause.kind == "options" and pause.frame
    assert pause.options == ("A puddle drying", "Steam from a kettle")  # "Go on" is no answer to take up
    slopes = load_classroom("derivatives")
    handed = [Said("juno", "Where have you met a rate of change in everyday life?"),
              Said("reyes", "Sam, what do you think: Where have you met a rate of change in everyday life?")]
    talk = asked_of(slopes, handed, scene=2)
    assert talk is not None and talk.kind == "discussion" and "speedometers" in talk.frame
    assert talk.yes_no("Sam") is False
    bus = asked_of(load_classroom("car-free-city"), [Said("okafor", "Alex, you take the bus: is it?")])
    assert bus is not None and bus.yes_no("Alex")


@pytest.mark.parametrize(("message", "new"), [
    ("5x^3?", False), ("is it 6?", False), ("its evaporation i think?", False), ("2,3,4?", False),
    ("when my wet clothes dry on the line", False), ("could it be 5x^4?", False),
    ("what is an integral", True), ("why does it rain?", True), ("how do clouds form", True),
    ("when does it snow?", True), ("Is there a shorter way to write this loop?", True), ("does it evaporate?", False),
])
def test_a_guess_with_a_question_mark_is_not_a_new_question(message: str, new: bool) -> None:
    assert is_new_question(message) is new


def test_the_samples_say_what_every_question_to_the_learner_expects() -> None:
    for sample in sorted(SAMPLES_DIR.glob("*.toml")):
        assert list(unanswerable(load_classroom(sample.stem))) == [], sample.name


def test_validate_warns_about_a_question_the_demo_cannot_judge(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    text = (SAMPLES_DIR / "water-cycle.toml").read_text(encoding="utf-8")
    text = text.replace('expects = ["they fall as rain or snow", "fall", "rain", "come down", "drop"]\n', "")
    text = text.replace(', options = ["A puddle drying", "Steam from a kettle", "Go on"]', "")
    text = text.replace("when the droplets get heavy?", "when the droplets get \\u001b[31mheavy?")
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    import sys

    assert validate_files([str(path)], sys.stdout, sys.stderr) == 0  # still valid: a warning, not an error
    out, err = capsys.readouterr()
    assert out.strip().endswith("mine.toml: ok")
    warnings = err.strip().splitlines()
    assert len(warnings) == 2 and all(": warning: " in line for line in warnings)
    assert "\x1b" not in err  # the file's words are shown, never its escapes
    assert "demo answer 'clouds' asks the learner “What do you think happens when the droplets get heavy?”" in err
    assert "scene 'up' step 7: the pause asks “Where have you seen water vanish into the air at home?”" in err


def test_validate_warns_about_prepared_turns_after_a_teachers_question_to_the_learner(tmp_path: Path) -> None:
    text = (SAMPLES_DIR / "derivatives.toml").read_text(encoding="utf-8")
    # the teacher asks the learner, then a student talks: the learner has the floor first, so Lena is never heard
    text = text.replace('{ say = "Take two points, shrink the gap h to nothing, and the secant becomes the tangent." }',
                        '{ say = "Which one would a speed camera measure?" }')
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    warnings = list(unanswerable(load_classroom(str(path))))
    assert warnings == ["demo answer 'what-is-derivative': reyes asks the learner a question and the learner has "
                        "the floor after it, so the turns after it are never said (end on the question, or move it "
                        "to the last turn)"]
