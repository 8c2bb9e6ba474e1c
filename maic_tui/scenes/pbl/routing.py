"""The routing rules a project brings (ARCHITECTURE.md, *One learner turn*), decided in code without the director
model: the issue's question agent opens it and answers a hint request, the judge speaks on a submission, once, and
is barred from the team's talk. Each is a name in ``[routing] rules``; the trace names the rule."""

from __future__ import annotations

from collections.abc import Mapping

from maic_tui.llm.context import LessonCall
from maic_tui.orchestration.routing.director_answer import END, USER
from maic_tui.orchestration.routing.guards import KindBar, KindRule, RoutingView, Rule
from maic_tui.scenes.pbl.model import HINTS, JUDGE, OPENS, PblScene


def _opens(scene: PblScene, view: RoutingView, call: LessonCall) -> Rule | None:
    issue = scene.issue(call.subject)
    if call.moment != "open" or issue is None:
        return None
    if view.responses:
        return Rule(USER, "the issue is open: the learner works on it")
    return Rule(issue.question_agent, f"the question agent opens issue {issue.id}",
                f"Open the issue \"{issue.title}\": {issue.description} Ask the learner one to three guiding "
                "questions; give no answer.")


def _hint(scene: PblScene, view: RoutingView, call: LessonCall) -> Rule | None:
    issue = scene.issue(call.subject)
    if call.moment != "hint" or issue is None:
        return None
    if view.responses:
        return Rule(USER, "the hint is given: the learner goes on")
    return Rule(issue.question_agent, "a hint request goes to the question agent",
                f"Give the learner one hint for \"{issue.title}\" without giving the answer.")


def _judge(scene: PblScene, view: RoutingView, call: LessonCall) -> Rule | None:
    issue = scene.issue(call.subject)
    if call.moment != "verdict" or issue is None:
        return None
    if view.responses:
        return Rule(END, "the judge has given the verdict on this submission")
    return Rule(issue.judge, "a submission: the judge gives the verdict",
                f"Tell the learner your verdict on \"{issue.title}\", in two sentences: {call.comment}")


def _judge_waits(scene: PblScene, view: RoutingView, call: LessonCall) -> Mapping[str, str]:
    """The judge speaks on a submission (or when the learner names them, which opens the turn before any rule)."""
    issue = scene.issue(call.subject)
    if issue is None or call.moment == "verdict":
        return {}
    return {issue.judge: f"{issue.judge} is the judge: they speak only when the learner submits the work"}


RULES: Mapping[str, KindRule] = {OPENS: _opens, HINTS: _hint, JUDGE: _judge}
BARS: Mapping[str, KindBar] = {JUDGE: _judge_waits}
