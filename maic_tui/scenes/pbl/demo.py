"""What the offline demo model says in a project (ARCHITECTURE.md, *Scene kinds*): the question agent's questions
and hints and the teammates' lines from each issue's demo material, the judge's verdict as told, and a judge that
reads a submission against the issue's done criteria by its own reading rules."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from maic_tui.classroom.models import Agent, DemoStep, DemoTurn
from maic_tui.i18n import ENGLISH, translator
from maic_tui.llm.context import LessonCall
from maic_tui.scenes.pbl.model import Criterion, Issue, PblScene

_WORD = re.compile(r"[a-z0-9²%]+")


def presentation(scene: PblScene, agent: Agent, language: str = ENGLISH) -> DemoTurn:
    return DemoTurn(agent=agent.id, steps=[DemoStep(say=scene.introduction(language))])


def _said(said: Sequence[tuple[str, str]], agent: str) -> set[str]:
    return {text.strip() for who, text in said if who == agent}


def _next(lines: Sequence[str], already: set[str]) -> str | None:
    return next((line for line in lines if line not in already), None)


def turns(scene: PblScene, call: LessonCall, said: Sequence[tuple[str, str]],
          language: str = ENGLISH) -> list[DemoTurn]:
    """Who says what in a turn the project opened: an issue opened, a hint, the verdict told, the team's talk (the
    demo's own words in the class's language, the issue's demo material as written)."""
    issue = scene.issue(call.subject)
    if issue is None:
        return []
    t = translator(language)
    asker = issue.question_agent
    match call.moment:
        case "open":
            questions = " ".join(issue.demo.questions) or t.gettext("What is your first idea for “{title}”?").format(
                title=issue.title)
            line = t.gettext("Next issue: {title}. {description} {questions}").format(
                title=issue.title, description=issue.description, questions=questions)
            return [DemoTurn(agent=asker, steps=[DemoStep(say=line)])]
        case "hint":
            hint = _next(issue.demo.hints, _said(said, asker))
            line = hint or t.gettext("Go back to what done means here: {criteria}.").format(
                criteria="; ".join(c.text for c in issue.done))
            return [DemoTurn(agent=asker, steps=[DemoStep(say=line)])]
        case "verdict":
            return [DemoTurn(agent=issue.judge, steps=[DemoStep(say=call.comment or t.gettext("Here is my verdict."))])]
    return _talk(issue, said, t.gettext("Good. Put your plan together and submit it: say “done” with the plan, or "
                                        "press the submit key."))


def _talk(issue: Issue, said: Sequence[tuple[str, str]], nudge: str) -> list[DemoTurn]:
    """One teammate adds their next line; once they have all had their say, the question agent nudges."""
    for agent, lines in issue.demo.lines.items():
        if agent != issue.judge and (line := _next(lines, _said(said, agent))) is not None:
            return [DemoTurn(agent=agent, steps=[DemoStep(say=line)])]
    return [DemoTurn(agent=issue.question_agent, steps=[DemoStep(say=nudge)])]


def met(criterion: Criterion, work: str) -> bool:
    """The demo judge's reading rule: the work names one of the words the criterion looks for (its own longer
    words when it names none), case and spacing aside."""
    folded = " ".join(_WORD.findall(work.casefold()))
    looked = criterion.look_for or [w for w in _WORD.findall(criterion.text.casefold()) if len(w) > 5]
    return any(" ".join(_WORD.findall(word.casefold())) in folded for word in looked if word.strip())


def verdict(scene: PblScene, call: LessonCall, work: str, language: str = ENGLISH) -> str:
    """The demo judge's answer, as a model's would be: one JSON object (its comment in the class's language)."""
    issue = scene.issue(call.subject)
    if issue is None:
        return "{}"
    missing = [c.text for c in issue.done if not met(c, work)]
    t = translator(language)
    comment = t.gettext("Add what is missing and submit again.") if missing else \
        t.gettext("Everything done means is there.")
    return json.dumps({"issue": issue.id, "verdict": "needs_revision" if missing else "complete",
                       "missing": missing, "comment": comment})
