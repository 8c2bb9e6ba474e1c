"""A recorded session as xAPI 1.0.3 statements (README, *Learning records*; ARCHITECTURE.md, *Learning records*).

One statement per fact of ``facts.py``, in time order: ``initialized`` when the session started, ``experienced`` for
each scene reached, ``answered`` for each graded answer (the question a ``cmi.interaction``), ``asked`` for each
message to the class, ``completed`` each time the lesson ended, ``terminated`` at its last record. Every id is a
name-based UUID of what the statement says, so exporting again gives the same ids and an LRS that has a statement
keeps it as it is; the registration is the session's own UUID.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from maic_tui import __version__
from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.classroom.models import Classroom, Scene
from maic_tui.classroom.quiz import option_lines
from maic_tui.learning.config import Account, LearnerConfig
from maic_tui.learning.facts import Answered, SessionFacts, Worked
from maic_tui.learning.scene_kinds import kind_learning
from maic_tui.log.records import SessionInfo

Statement = dict[str, Any]

NAMESPACE = uuid.UUID("6f1c7a52-4d0e-5b8e-9c53-2a7e0f3b9d41")  # ours: the ids of maic-tui's statements
VERBS = "http://adlnet.gov/expapi/verbs/"
ACTIVITIES = "http://adlnet.gov/expapi/activities/"
INTERACTION = ACTIVITIES + "cmi.interaction"
LONG_ANSWER = 250  # characters: a longer model answer makes a question long-fill-in (the spec's "long")


@dataclass(frozen=True, slots=True)
class Learner:
    """The actor of every statement: a name and exactly one identifier (an account or a mailbox)."""

    name: str
    mbox: str | None = None
    account: Account | None = None

    def actor(self, activity_base: str) -> dict[str, Any]:
        agent: dict[str, Any] = {"objectType": "Agent", "name": self.name}
        if self.mbox is not None:
            agent["mbox"] = self.mbox
        elif self.account is not None:
            agent["account"] = {"homePage": self.account.home_page, "name": self.account.name}
        else:  # no identifier configured: the learner's name, as an account of this tool's activities
            agent["account"] = {"homePage": activity_base, "name": self.name}
        return agent


def the_learner(info: SessionInfo, classroom: Classroom, config: LearnerConfig, override: str | None) -> Learner:
    """``--learner``, else the name the session recorded, else the config's, else the classroom's learner."""
    name = (override or "").strip() or info.learner or config.name or classroom.learner.nickname
    return Learner(name, config.mbox, config.account)


def registration(session_id: str) -> str:
    return str(uuid.uuid5(NAMESPACE, f"session:{session_id}"))


def classroom_iri(info: SessionInfo, base: str) -> str:
    """The classroom as an activity: its file's name under the base (a sample's name is its file's name)."""
    name = PurePath(info.classroom).stem if info.classroom.endswith(".toml") else info.classroom
    return f"{base}/classrooms/{quote(name or 'classroom', safe='')}"


class _Builder:
    def __init__(self, info: SessionInfo, facts: SessionFacts, learner: Learner, base: str) -> None:
        self.info, self.facts, self.classroom = info, facts, facts.classroom
        self.lang = self.classroom.language
        self.actor = learner.actor(base)
        self.registration = registration(info.id)
        self.home = classroom_iri(info, base)

    def names(self, text: str) -> dict[str, str]:
        return {self.lang: text}

    def course(self) -> dict[str, Any]:
        return {"objectType": "Activity", "id": self.home,
                "definition": {"name": self.names(self.classroom.title), "type": ACTIVITIES + "lesson"}}

    def scene(self, scene: Scene) -> dict[str, Any]:
        return {"objectType": "Activity", "id": f"{self.home}/scenes/{quote(scene.id, safe='')}",
                "definition": {"name": self.names(scene.title), "type": ACTIVITIES + "module"}}

    def question(self, question_id: str, question: QuizQuestion | None, words: str | None) -> dict[str, Any]:
        definition: dict[str, Any] = {"type": INTERACTION}
        if question is not None or words:
            definition["name"] = self.names(question.question if question is not None else str(words))
        if question is not None:
            definition |= interaction(question, self.lang)
        else:  # a question no longer in the classroom as kept: still an interaction, of a type we cannot tell
            definition["interactionType"] = "other"
        return {"objectType": "Activity", "id": f"{self.home}/questions/{quote(question_id, safe='')}",
                "definition": definition}

    def statement(self, t: float, verb: str, target: dict[str, Any], parent: dict[str, Any] | None = None,
                  result: dict[str, Any] | None = None) -> Statement:
        context: dict[str, Any] = {"registration": self.registration, "platform": f"maic-tui {__version__}",
                                   "language": self.lang}
        if parent is not None:
            context["contextActivities"] = {"parent": [_bare(parent)], "grouping": [_bare(self.course())]} \
                if parent["id"] != self.home else {"parent": [_bare(parent)]}
        statement: Statement = {"actor": self.actor, "verb": {"id": VERBS + verb, "display": {"en-US": verb}},
                                "object": target, "context": context, "timestamp": timestamp(self.info.started + t)}
        if result is not None:
            statement["result"] = result
        return statement

    def answered(self, answer: Answered) -> Statement:
        data = answer.result
        scene = self.classroom.scenes[answer.scene] if answer.scene is not None else None
        result: dict[str, Any] = {"response": response(answer), "success": data.correct,
                                  "completion": True}
        if data.points > 0:
            result["score"] = score(data.earned, data.points)
        return self.statement(answer.t, "answered", self.question(data.question_id, answer.question, data.question),
                              self.scene(scene) if scene is not None else self.course(), result)

    def interacted(self, worked: Worked) -> Statement:
        """xAPI's ``interacted``: the widget's part the learner worked (a variable, a preset, a node) and the value."""
        change = worked.change
        scene = self.classroom.scenes[worked.scene] if worked.scene is not None else None
        where = self.scene(scene) if scene is not None else self.course()
        target = change.target or "next"
        part = {"objectType": "Activity", "id": f"{where['id']}/widget/{quote(target, safe='')}",
                "definition": {"name": self.names(target), "type": INTERACTION, "interactionType": "other"}}
        said = {"set": f"{change.target} = {change.value}", "preset": f"preset {change.target}",
                "reveal": f"reveal {target}"}.get(change.verb, f"{change.verb} {change.target}")
        result: dict[str, Any] = {"response": said, "extensions": {
            f"{self.home}/xapi/widget": {"verb": change.verb, "target": change.target, "value": change.value}}}
        return self.statement(worked.t, "interacted", part, where, result)

    def all(self) -> list[Statement]:
        facts = self.facts
        timed: list[tuple[float, int, Statement]] = [(0.0, 0, self.statement(0.0, "initialized", self.course()))]
        timed += [(reached.t, 1, self.statement(reached.t, "experienced", self.scene(reached.scene), self.course()))
                  for reached in facts.reached]
        timed += [(answer.t, 1, self.answered(answer)) for answer in facts.answered]
        for asked in facts.asked:
            scene = self.classroom.scenes[asked.scene] if asked.scene is not None else None
            where = self.scene(scene) if scene is not None else self.course()
            timed.append((asked.t, 1, self.statement(asked.t, "asked", where, self.course() if scene else None,
                                                     {"response": asked.text})))
        timed += [(worked.t, 1, self.interacted(worked)) for worked in facts.worked]
        for happened in facts.happened:
            scene = self.classroom.scenes[happened.event.scene]
            part = kind_learning(scene.type)
            for told in part.told(scene, happened.event) if part is not None else []:
                target = {"objectType": "Activity",
                          "id": f"{self.scene(scene)['id']}/{told.activity}",
                          "definition": {"name": self.names(told.name), "type": ACTIVITIES + told.kind}}
                timed.append((happened.t, 1, self.statement(happened.t, told.verb, target, self.scene(scene),
                                                            told.result)))
        for ended in facts.ended:
            result: dict[str, Any] = {"completion": True, "duration": duration(ended.t)}
            if ended.end.max_score > 0:
                result["score"] = score(ended.end.score, ended.end.max_score)
            timed.append((ended.t, 1, self.statement(ended.t, "completed", self.course(), result=result)))
        timed.append((facts.last, 2, self.statement(facts.last, "terminated", self.course(),
                                                    result={"duration": duration(facts.last)})))
        ordered = [statement for _, _, statement in sorted(timed, key=lambda item: (item[0], item[1]))]
        return [{"id": statement_id(self.registration, n, statement), **statement}
                for n, statement in enumerate(ordered)]


def statements(info: SessionInfo, facts: SessionFacts, learner: Learner, activity_base: str) -> list[Statement]:
    return _Builder(info, facts, learner, activity_base).all()


def interaction(question: QuizQuestion, lang: str) -> dict[str, Any]:
    """A quiz question as an interaction's definition: its type, choices and correct responses."""
    if question.type == "short_answer":
        model = question.answer[:1]
        kind = "long-fill-in" if any(len(text) > LONG_ANSWER for text in model) else "fill-in"
        patterns = list(dict.fromkeys([*question.accept, *model]))
        return {"interactionType": kind, **({"correctResponsesPattern": patterns} if patterns else {})}
    return {"interactionType": "choice", "correctResponsesPattern": ["[,]".join(question.answer)],
            "choices": [{"id": option.value, "description": {lang: option.label}} for option in question.options]}


def score(earned: int, top: int) -> dict[str, float]:
    """A score of ``top`` > 0 points: raw within 0..top, scaled within 0..1, as the spec requires."""
    raw = min(max(earned, 0), top)
    return {"raw": raw, "min": 0, "max": top, "scaled": round(raw / top, 4)}


def response(answer: Answered) -> str:
    """The learner's answer in the interaction's own format: choice ids joined by ``[,]``, or the text."""
    data, question = answer.result, answer.question
    if question is None or question.type == "short_answer":
        return data.answer
    chosen = data.chosen if data.chosen is not None else _chosen_from_words(question, data.answer)
    return "[,]".join(chosen)


def _chosen_from_words(question: QuizQuestion, words: str) -> list[str]:
    """The options a log written before ``chosen`` names in its answer (``A) label; C) label``)."""
    lettered = {option_lines(question, [option.value]): option.value for option in question.options}
    return [lettered[part] for part in words.split("; ") if part in lettered]


def timestamp(unix: float) -> str:
    """RFC 3339 with milliseconds and the time zone (UTC)."""
    return datetime.fromtimestamp(unix, UTC).isoformat(timespec="milliseconds")


def duration(seconds: float) -> str:
    """An ISO 8601 duration in seconds to the hundredth (``PT83.25S``): the spec's precision."""
    return f"PT{max(seconds, 0.0):.2f}S"


def statement_id(registration_id: str, n: int, statement: Statement) -> str:
    body = json.dumps(statement, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return str(uuid.uuid5(NAMESPACE, f"{registration_id}:{n}:{body}"))


def _bare(activity: dict[str, Any]) -> dict[str, Any]:
    return {"objectType": "Activity", "id": activity["id"]}
