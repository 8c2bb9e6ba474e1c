"""Checks of scene scripts and quizzes across the classroom: agents that exist and may act so, elements of the
scene, questions of the scene, question ids unique in the classroom. One (path, message) per problem."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from maic_tui.actions import SLIDE_ACTIONS, WIDGET_ACTIONS, InvalidAction, parse_params
from maic_tui.classroom.report import not_an_agent
from maic_tui.i18n import ENGLISH, N_, _, interface_language
from maic_tui.i18n.said import Said, said
from maic_tui.scenes.base import SceneChangeError
from maic_tui.scenes.live_state import SceneStates
from maic_tui.scenes.registry import KIND_ACTIONS, KINDS

if TYPE_CHECKING:
    from maic_tui.classroom.lesson import ScriptStep
    from maic_tui.classroom.models import Agent, Classroom, Scene


def check_lessons(classroom: Classroom) -> Iterator[tuple[str, str]]:
    question_ids: dict[str, str] = {}
    agents = {agent.id for agent in classroom.agents}
    for i, scene in enumerate(classroom.scenes):
        for where, what in (*scene.problems(), *scene.agent_problems(agents)):
            yield f"scenes[{i}].{where}", what
        for q, question in enumerate(scene.graded()):
            where = f"scenes[{i}].questions[{q}].id"
            if question.id in question_ids:
                yield where, said(N_("duplicate question id {id} (already in scene {scene})"), id=repr(question.id),
                                  scene=question_ids[question.id])
            else:
                question_ids[question.id] = repr(scene.id)
        for s, step in enumerate(scene.script):
            yield from _check_step(classroom, scene, step, f"scenes[{i}].script[{s}]")


def _check_step(classroom: Classroom, scene: Scene, step: ScriptStep, where: str) -> Iterator[tuple[str, str]]:
    if step.agent is not None and classroom.agent(step.agent) is None:
        yield f"{where}.agent", not_an_agent(step.agent)
        return
    if step.kind == "ask" and scene.question(step.ask or "") is None:
        known = ", ".join(q.id for q in scene.graded())
        asked = repr(step.ask)
        yield f"{where}.ask", said(N_("{id} is not a question of this scene ({known})"), id=asked, known=known) \
            if known else said(N_("{id} is not a question of this scene (this scene has no questions)"), id=asked)
    if step.kind != "action" or step.action is None:
        return
    agent = classroom.agent(step.agent or "")
    assert agent is not None
    if step.action in KIND_ACTIONS and step.action in agent.actions and step.action not in scene.enables:
        names = [name for name, model in KINDS.items() if step.action in model.enables]
        yield f"{where}.action", said(N_("{action} needs a {kinds}; a {kind} scene has none"), action=repr(step.action),
                                      kinds=Said(" or ".join(names), ", ".join(names)), kind=scene.type)
        return
    yield from action_problems(agent, step.action, step.params, {e.id for e in scene.elements}, True, where)
    if step.action in WIDGET_ACTIONS and step.action in agent.actions:
        try:  # checked against the widget as it starts, as an agent's is against the widget as it is
            SceneStates().action(scene, step.action, step.params, agent.name)
        except SceneChangeError as exc:
            yield f"{where}.params", Said(str(exc), exc.shown)
        except InvalidAction as exc:
            yield f"{where}.params", _reason(exc.reason)


def action_problems(agent: Agent, action: str, params: dict[str, Any], slide_ids: set[str], this_scene: bool,
                    where: str) -> Iterator[tuple[str, str]]:
    """An action an agent takes in a classroom file (a script or demo material): allowed, with valid params, a
    pointer aimed at an element of ``slide_ids`` (those of ``this_scene``, or of any scene)."""
    if action not in agent.actions:
        yield f"{where}.action", said(N_("{agent} may not use {action}"), agent=repr(agent.id), action=repr(action))
        return
    try:
        parsed = parse_params(action, params)
    except InvalidAction as exc:
        yield f"{where}.params", _reason(exc.reason)
        return
    target = getattr(parsed, "element_id", None)
    if action in SLIDE_ACTIONS and target not in slide_ids:
        yield f"{where}.params.elementId", said(N_("{id} is not an element of this scene"), id=repr(target)) \
            if this_scene else said(N_("{id} is not an element of any scene"), id=repr(target))


def _reason(reason: str) -> Said:
    """An action's refusal: its code (``invalid_params: elementId``) in English (as the tests and records know it),
    in words in another language."""
    code, _colon, field = reason.partition(": ")
    if code == "invalid_params" and interface_language() != ENGLISH:
        return Said(reason, _("invalid parameter: {field}").format(field=field))
    return Said(reason)
