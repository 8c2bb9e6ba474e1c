"""Helpers for the learning-records tests: a sample's lesson played with answers right, wrong or partly right, its
statements exported, and the xAPI 1.0.3 statement rules (the JSON Schema in tests/data, and the rules a schema
cannot say)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.cli import main
from maic_tui.log.store import LogStore

SCHEMA = Path(__file__).parent / "data" / "xapi-1.0.3-statement.schema.json"


@cache
def validator() -> Any:
    from jsonschema import Draft202012Validator  # here: the report bench plays lessons with these answers too

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def problems(statement: dict[str, Any]) -> list[str]:
    """Every way the statement breaks the rules; empty when it keeps them."""
    found = [f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
             for error in validator().iter_errors(statement)]
    score = statement.get("result", {}).get("score", {})
    low, high, raw = score.get("min"), score.get("max"), score.get("raw")
    if low is not None and high is not None and not low < high:
        found.append(f"score: min {low} is not below max {high}")
    if raw is not None and ((low is not None and raw < low) or (high is not None and raw > high)):
        found.append(f"score: raw {raw} is outside {low}..{high}")
    definition = statement.get("object", {}).get("definition", {})
    for key in ("choices", "scale", "source", "target", "steps"):
        ids = [component["id"] for component in definition.get(key, [])]
        if len(set(ids)) != len(ids):
            found.append(f"definition.{key}: component ids repeat")
    return found


def answer(question: QuizQuestion, mode: str, n: int = 0) -> str:
    """What a learner types: the right answer, a wrong one, or partly right (half the options of a multiple
    choice; the lesson's first question right and the next wrong, in turn, for the others)."""
    wrong = next((o.value for o in question.options if o.value not in question.answer), None)
    if mode == "partly" and question.type == "multiple":
        return question.answer[0] if len(question.answer) > 1 else f"{question.answer[0]}, {wrong}"
    if mode == "partly":
        mode = "wrong" if n % 2 else "right"
    if question.type == "short_answer":
        return (question.accept or question.answer)[0] if mode == "right" else "no idea, sorry"
    return ", ".join(question.answer) if mode == "right" else str(wrong)


def played(name: str, mode: str, capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    """A sample's whole lesson played (``go on`` at each wait), recorded; its session id."""
    room = load_classroom(name)
    # (a scene that waits without a script, as a project does, is passed the same way)
    waits = sum(step.kind in ("pause", "discussion") for i, scene in enumerate(room.scenes)
                for step in scene.steps(i))
    questions = [q for scene in room.scenes for q in scene.graded()]
    replies = ["go on"] * waits + [answer(q, mode, n) for n, q in enumerate(questions)]
    assert main(["run", name, "--lesson", *flags, *[arg for a in replies for arg in ("--say", a)]]) == 0
    capsys.readouterr()
    return LogStore(_data_dir()).sessions()[0].id


def exported(session: str, capsys: pytest.CaptureFixture[str], *flags: str) -> list[dict[str, Any]]:
    assert main(["export", session, "--format", "xapi", *flags]) == 0
    statements = json.loads(capsys.readouterr().out)
    assert isinstance(statements, list)
    return statements


def verbs(statements: list[dict[str, Any]]) -> list[str]:
    return [s["verb"]["id"].rsplit("/", 1)[1] for s in statements]


def _data_dir() -> Path:
    import os

    return Path(os.environ["MAIC_DATA_DIR"])


def write_config(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
