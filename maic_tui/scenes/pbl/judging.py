"""The judge's verdict on a submission (ARCHITECTURE.md, *Scene kinds*): asked of the session's model as one JSON
object for this issue, read strictly (a ``Verdict``); prose, an empty verdict or one for another issue is asked
again once with the reason, then a fallback that never marks the issue done."""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import ValidationError

from maic_tui.events import ErrorData, ErrorEvent
from maic_tui.llm import describe
from maic_tui.llm.client import ModelClient
from maic_tui.llm.context import JUDGE, CallContext, LessonCall
from maic_tui.orchestration.routing.director_answer import ObjectScanner
from maic_tui.scenes.pbl.model import Issue, PblScene
from maic_tui.scenes.pbl.records import Verdict
from maic_tui.text_safety import one_line

JUDGE_TOKENS = 300
JUDGE_CHAR_CAP = 4_000


def judge_schema(issue: Issue) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": ["issue", "verdict", "missing", "comment"],
            "properties": {"issue": {"type": "string", "enum": [issue.id]},
                           "verdict": {"type": "string", "enum": ["complete", "needs_revision"]},
                           "missing": {"type": "array", "items": {"type": "string"}},
                           "comment": {"type": "string"}}}


def judge_messages(scene: PblScene, issue: Issue, judge: str, work: str, language: str) -> list[BaseMessage]:
    criteria = "\n".join(f"- {c.text}" for c in issue.done)
    system = (f"You are {judge}, the judge of one issue of the project \"{scene.project.title}\", in the language "
              f"'{language}'.\nIssue {issue.id}: {issue.title}. {issue.description}\nThe work is done when it:\n"
              f"{criteria}\nJudge the learner's work against each point, fairly. Answer with one JSON object and "
              f'nothing else, with four keys: "issue" ("{issue.id}"), "verdict" ("complete" when every point is '
              'met, else "needs_revision"), "missing" (the points not met yet, as a list of short strings) and '
              '"comment" (one sentence to the learner).')
    return [SystemMessage(system), HumanMessage(f"The learner's work:\n{work}")]


def read_verdict(raw: str, issue: Issue) -> Verdict:
    """The verdict in a judge's answer, or ValueError saying what is wrong with it."""
    start = raw.find("{")
    if start < 0:
        raise ValueError("that was not a JSON object")
    try:
        data, _ = json.JSONDecoder().raw_decode(raw[start:])
        verdict = Verdict.model_validate(data)
    except (json.JSONDecodeError, ValidationError) as exc:
        raise ValueError(f"that was not a verdict ({one_line(str(exc), 160)})") from None
    if verdict.fallback:
        raise ValueError("a verdict has no key fallback")
    if verdict.issue != issue.id:
        raise ValueError(f"that verdict is for issue {verdict.issue!r}; judge issue {issue.id!r}")
    if verdict.verdict == "needs_revision" and not any(m.strip() for m in verdict.missing):
        raise ValueError("a needs_revision verdict must say what is missing")
    if verdict.verdict == "complete" and any(m.strip() for m in verdict.missing):
        raise ValueError("a complete verdict has nothing missing; answer needs_revision if something is")
    return verdict


async def ask_judge(client: ModelClient, scene: PblScene, index: int, issue: Issue, judge: str, work: str,
                    language: str) -> tuple[Verdict, list[ErrorEvent]]:
    """The verdict of ``judge`` (their name), and the problems met on the way (each one line, shown and
    recorded)."""
    messages = judge_messages(scene, issue, judge, work, language)
    context = CallContext(caller=JUDGE, learner_message=work,
                          lesson=LessonCall("scene", "judge", index, moment="judge", subject=issue.id))
    problems: list[ErrorEvent] = []
    for attempt in (1, 2):
        try:
            raw = await client.ask(JUDGE, "pbl_verdict", judge_schema(issue), messages, tokens=JUDGE_TOKENS,
                                   chars=JUDGE_CHAR_CAP, until=lambda: ObjectScanner().feed, context=context)
        except Exception as exc:  # a failing server: the issue stays open, and the learner is told why
            problem = describe(exc, who="judge", secrets=client.secrets).message
            problems.append(ErrorEvent(data=ErrorData(message=problem)))
            break
        try:
            verdict = read_verdict(raw, issue)
            return verdict.model_copy(update={"comment": client.redact(verdict.comment)}), problems
        except ValueError as exc:
            reason = str(exc)
            problems.append(ErrorEvent(data=ErrorData(message=f"the judge's answer (try {attempt}): {reason}")))
            messages = [*messages, AIMessage(raw[:JUDGE_CHAR_CAP]),
                        HumanMessage(f"That answer was rejected: {reason}. Answer again with one JSON object.")]
    return Verdict(issue=issue.id, verdict="needs_revision", fallback=True,
                   comment="The judge gave no verdict; the issue stays open."), problems

