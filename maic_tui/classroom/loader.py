"""Load and check classroom TOML files, reporting every problem as ``file: field.path: what is wrong``."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from maic_tui.bad_input import BadInput, Unreadable, describe_path, read_text_file, validation_message
from maic_tui.bad_input import field_path as format_path
from maic_tui.classroom.lesson_checks import action_problems, check_lessons
from maic_tui.classroom.models import Classroom, DemoTurn
from maic_tui.classroom.partial import file_path, left_out_duplicates, partial_classroom
from maic_tui.classroom.report import Found, fold_broken_agents, grouped, not_an_agent
from maic_tui.classroom.voices import voice_problems
from maic_tui.i18n import N_
from maic_tui.i18n.said import said, shown
from maic_tui.paths import SAMPLES_DIR, resolve
from maic_tui.scenes.registry import KINDS
from maic_tui.text_safety import clean_tree, one_line


@dataclass(frozen=True, slots=True)
class Problem:
    file: str
    path: str  # dotted field path; "" for the file as a whole
    message: str  # English (what the generator tells the model); a ``Said`` is shown translated

    def __str__(self) -> str:
        """The line a person reads, in the interface's language."""
        # File names, TOML keys and messages may quote hostile text: the line is made inert as a whole.
        where = f"{self.file}: {shown(self.path)}: " if self.path else f"{self.file}: "
        return one_line(f"{where}{shown(self.message)}", 400)


class ClassroomError(BadInput):
    prefix = ""  # each line starts with the file's name
    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(lines=[str(p) for p in problems])
        self.problems = problems


def sample_names() -> list[str]:
    return sorted(p.stem for p in SAMPLES_DIR.glob("*.toml"))


def load_classroom(name_or_path: str | Path) -> Classroom:
    path = resolve(name_or_path)
    if path.parent == SAMPLES_DIR and not path.exists():  # a bare name that is neither a file here nor a sample
        raise ClassroomError([Problem(str(name_or_path), "", said(N_("no such classroom: not a file here, nor one of "
                                                                     "the bundled samples ({samples})"),
                                                                  samples=", ".join(sample_names())))])
    classroom, problems = check_file(path)
    if classroom is None:
        raise ClassroomError(problems)
    return classroom


def check_file(path: Path) -> tuple[Classroom | None, list[Problem]]:
    """Parse and check one file; the classroom is None whenever there is any problem."""
    name = describe_path(path)
    try:
        text = read_text_file(path, "classroom file")
    except Unreadable as exc:
        return None, [Problem(name, "", exc.reason)]  # Unreadable's reason is said as its raiser says it
    return check_text(text, name)


def load_classroom_text(text: str, name: str) -> Classroom:
    """A classroom from TOML text (a recorded session keeps its classroom file as it was)."""
    classroom, problems = check_text(text, name)
    if classroom is None:
        raise ClassroomError(problems)
    return classroom


def check_text(text: str, name: str) -> tuple[Classroom | None, list[Problem]]:
    name = describe_path(name)
    try:
        return _check_text(text, name)
    except RecursionError:  # tomllib (and pydantic) recurse per level of nesting
        return None, [Problem(name, "", said(N_("nested too deeply (arrays or tables inside each other)")))]


def _check_text(text: str, name: str) -> tuple[Classroom | None, list[Problem]]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return None, [Problem(name, "", said(N_("not valid TOML: {reason}"), reason=str(exc)))]
    if not data:
        return None, [Problem(name, "", said(N_("empty file (a classroom needs a title and at least one agent)")))]
    # Classroom text is untrusted: made inert once here, so every view of it (header, roster, persona card,
    # palette, prompts, exports) gets plain text.
    data = clean_tree(data)
    try:
        classroom = Classroom.model_validate(data)
    except ValidationError as exc:
        schema = [(_path(err["loc"]), _message(err)) for err in exc.errors()]
        return None, [Problem(name, path_, message) for path_, message in _partial_problems(schema, data)]
    problems = [Problem(name, path_, message) for path_, message in grouped(_cross_checks(classroom))]
    return (None if problems else classroom), problems


def _partial_problems(schema: list[Found], data: dict[str, Any]) -> list[Found]:
    """The schema's problems and the checks across the classroom run on its valid parts, so every problem is
    reported in one run; what fails only because an agent entry was left out is counted on that entry's own
    problem (``classroom/report.py``)."""
    partial, origin, _ = partial_classroom(data)
    if partial is None:
        return schema
    cross = left_out_duplicates(data, origin)
    cross += [(file_path(path_, origin), message) for path_, message in _cross_checks(partial)]
    roots, rest = fold_broken_agents(schema, cross, data.get("agents"), {agent.id for agent in partial.agents})
    return roots + grouped(rest)


# --- pydantic errors in words -----------------------------------------------------------------------

_UNION_TAGS = {"qa", "discussion", "title", "text", "bullets", "formula", "image", "table", *KINDS}
_WIDGET_TAGS = {"simulation", "diagram"}  # an interactive scene's widget kinds


def _path(loc: Iterable[int | str]) -> str:
    parts = list(loc)
    kept: list[int | str] = []
    for i, part in enumerate(parts):
        # pydantic puts the tag of a tagged union into the location; people never wrote it.
        after_session = i > 0 and parts[i - 1] == "session"
        after_item = i > 1 and parts[i - 2] in ("elements", "scenes") and isinstance(parts[i - 1], int)
        if part in _UNION_TAGS and (after_session or after_item):
            continue
        if part in _WIDGET_TAGS and i > 0 and parts[i - 1] == "widget":
            continue
        kept.append(part)
    return format_path(tuple(kept))


def _message(error: Any) -> str:
    if error["type"] == "too_short" and tuple(error["loc"]) == ("agents",):
        return said(N_("the roster is empty: add at least one [[agents]] entry"))
    return validation_message(error)


# --- checks across fields ---------------------------------------------------------------------------


def _cross_checks(classroom: Classroom) -> Iterator[tuple[str, str]]:
    agent_ids: dict[str, int] = {}
    for i, agent in enumerate(classroom.agents):
        if agent.id in agent_ids:
            yield f"agents[{i}].id", said(N_("duplicate agent id {id} (already used by {other})"), id=repr(agent.id),
                                          other=f"agents[{agent_ids[agent.id]}]")
        else:
            agent_ids[agent.id] = i
    yield from voice_problems(classroom.agents)
    trigger = getattr(classroom.session, "trigger_agent", None)
    if trigger is not None and trigger not in agent_ids:
        yield "session.trigger_agent", not_an_agent(trigger)

    scene_ids: set[str] = set()
    for i, scene in enumerate(classroom.scenes):
        if scene.id in scene_ids:
            yield f"scenes[{i}].id", said(N_("duplicate scene id {id}"), id=repr(scene.id))
        scene_ids.add(scene.id)
        element_ids: set[str] = set()
        for k, element in enumerate(scene.elements):
            if element.id in element_ids:
                yield f"scenes[{i}].elements[{k}].id", said(N_("duplicate element id {id} in this scene"),
                                                            id=repr(element.id))
            element_ids.add(element.id)

    yield from check_lessons(classroom)
    demo = classroom.demo
    yield from _check_turns(classroom, "demo.opening", demo.opening)
    answer_ids: set[str] = set()
    for i, answer in enumerate(demo.answers):
        if answer.id in answer_ids:
            yield f"demo.answers[{i}].id", said(N_("duplicate answer id {id}"), id=repr(answer.id))
        answer_ids.add(answer.id)
        yield from _check_turns(classroom, f"demo.answers[{i}].turns", answer.turns)
    for agent_id in demo.fallback:
        if agent_id not in agent_ids:
            yield f"demo.fallback.{agent_id}", not_an_agent(agent_id)


def _check_turns(classroom: Classroom, where: str, turns: list[DemoTurn]) -> Iterator[tuple[str, str]]:
    slide_ids = {element.id for scene in classroom.scenes for element in scene.elements}
    for t, turn in enumerate(turns):
        agent = classroom.agent(turn.agent)
        if agent is None:
            yield f"{where}[{t}].agent", not_an_agent(turn.agent)
            continue
        for s, step in enumerate(turn.steps):
            if step.action is not None:
                yield from action_problems(agent, step.action, step.params, slide_ids, False,
                                           f"{where}[{t}].steps[{s}]")
