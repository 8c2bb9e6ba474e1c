"""What a project does in the lesson (ARCHITECTURE.md, *Scene kinds*): every reply while it waits is read here.
First the learner's role; then, issue by issue, a hint request (to the question agent), a submission (judged
against what done means, the verdict recorded and told by the judge) or talk with the team (the director picks a
teammate). A complete verdict opens the next issue; the last one ends the project with its summary."""

from __future__ import annotations

import re
from collections.abc import Sequence
from gettext import NullTranslations

from maic_tui.classroom.answer_reading import GO_ON
from maic_tui.classroom.lesson import ScriptStep, Step
from maic_tui.events import ErrorData, ErrorEvent
from maic_tui.i18n import translator
from maic_tui.live.lesson_parts import LessonStage, Played
from maic_tui.llm.context import LessonCall
from maic_tui.log.records import SceneEventData
from maic_tui.orchestration.routing.mentions import addressed_agent, mentioned_agent
from maic_tui.scenes.pbl.judging import ask_judge
from maic_tui.scenes.pbl.model import Issue, PblScene, Role
from maic_tui.scenes.pbl.records import (
    DONE,
    FINISHED,
    OPENED,
    ROLE,
    SUBMITTED,
    VERDICT,
    ProjectState,
    Verdict,
    record,
    state,
    verdict_line,
)
from maic_tui.text_safety import one_line

SUBMIT = re.compile(r"^\s*(?:i'?m\s+|i\s+am\s+|we'?re\s+)?(?:done|finished|submit(?:ting)?)\b[\s:,.!-]*"
                    r"|^\s*(?:here\s+is|here'?s|this\s+is)\s+(?:my|our)\s+(?:plan|work|design|answer|list|proposal)"
                    r"\b[\s:,.!-]*", re.IGNORECASE)
HINT = re.compile(r"\b(?:hint|clue|stuck|help\s+me|give\s+me\s+a\s+tip|no\s+idea)\b", re.IGNORECASE)
WORK = "work"  # a scene event: the learner's words on the active issue, which a submission is judged on


def takes(step: Step) -> bool:
    """The project's one step waits for all of its work."""
    return step.kind == "pause"


def project_of(lesson: LessonStage, step: Step) -> tuple[PblScene, ProjectState, list[SceneEventData]]:
    scene = lesson.session.classroom.scenes[step.scene]
    assert isinstance(scene, PblScene)
    events = [e for e in lesson.session.scene_events if e.scene == step.scene]
    return scene, state(scene, events), events


async def reply(lesson: LessonStage, step: Step, text: str) -> Played:
    scene, project, events = project_of(lesson, step)
    if GO_ON.match(text):  # the learner leaves the project as it stands, as F7 would: the lesson goes on
        lead = lesson.lead()
        line = _said(lesson).gettext("We'll leave “{title}” here for now; you can come back to it with F5.").format(
            title=scene.project.title)
        async for record_ in lesson.say(lead, [ScriptStep(agent=lead.id, say=line)]):
            yield record_
        lesson.cursor.answered()
        async for record_ in lesson.moved():
            yield record_
        return
    if project.role is None:
        async for record_ in _pick_role(lesson, step.scene, scene, text):
            yield record_
        return
    issue = scene.issue(project.active or "")
    if issue is None:  # every issue done (a project ended before its summary was said): the lesson goes on
        async for record_ in _finish(lesson, step.scene, scene, project):
            yield record_
        return
    submitted = SUBMIT.match(text)
    if submitted is not None:
        async for record_ in _submission(lesson, step.scene, scene, issue, text[submitted.end():], events):
            yield record_
        return
    hint = HINT.search(text) is not None
    if not hint:
        yield lesson.session.record(record(step.scene, WORK, {"issue": issue.id, "text": text}))
    # the agent the learner names opens the turn (the judge too: addressed, they answer; else they wait)
    agents = [a for a in lesson.session.classroom.agents if a.id not in lesson.session.context.settings.muted]
    named = mentioned_agent(agents, text) if text.lstrip().startswith("@") else addressed_agent(agents, text)
    call = LessonCall("scene", _request(scene, project, issue, text, "hint" if hint else "talk"), step.scene,
                      topic=issue.title, moment="hint" if hint else "talk", subject=issue.id, said=text,
                      opener=named)
    async for record_ in lesson.turn(call):
        yield record_


def read_role(scene: PblScene, text: str) -> Role | None:
    """The role a reply names: its number in the list, its name, or a word of its name that only it has."""
    said = text.strip().casefold().rstrip(".!")
    if said.isdigit() and 1 <= int(said) <= len(scene.roles):
        return scene.roles[int(said) - 1]
    named = [role for role in scene.roles if role.name.casefold() in said]
    if len(named) == 1:
        return named[0]
    words = set(re.findall(r"[a-z]+", said))
    matching = [role for role in scene.roles if words & {w for w in re.findall(r"[a-z]+", role.name.casefold())
                                                         if len(w) > 3}]
    return matching[0] if len(matching) == 1 else None


async def _pick_role(lesson: LessonStage, index: int, scene: PblScene, text: str) -> Played:
    role = read_role(scene, text)
    asker = lesson.session.classroom.agent(scene.issues[0].question_agent) or lesson.lead()
    if role is None:
        names = ", ".join(f"{n}. {r.name}" for n, r in enumerate(scene.roles, 1))
        line = _said(lesson).gettext("Pick a role first: {roles}.").format(roles=names)
        async for record_ in lesson.say(asker, [ScriptStep(agent=asker.id, say=line)]):
            yield record_
        return
    yield lesson.session.record(record(index, ROLE, {"role": role.name}))
    line = _said(lesson).gettext("You are our {role}. Your part: {does}. Let's start with the first issue.").format(
        role=role.name, does=role.does)
    async for record_ in lesson.say(asker, [ScriptStep(agent=asker.id, say=line)]):
        yield record_
    async for record_ in _open(lesson, index, scene, scene.issues[0], role.name):
        yield record_


async def _open(lesson: LessonStage, index: int, scene: PblScene, issue: Issue, role: str) -> Played:
    yield lesson.session.record(record(index, OPENED, {"issue": issue.id}))
    project = ProjectState(role=role, opened=[issue.id])
    call = LessonCall("scene", _request(scene, project, issue, "", "open"), index, topic=issue.title,
                      moment="open", subject=issue.id)
    async for record_ in lesson.turn(call):
        yield record_


async def _submission(lesson: LessonStage, index: int, scene: PblScene, issue: Issue, body: str,
                      events: Sequence[SceneEventData]) -> Played:
    # the work is all the learner said on the issue: their words to the team and what came with each submission
    earlier = [str(e.data.get("text" if e.name == WORK else "body", "")) for e in events
               if e.name in (WORK, SUBMITTED) and e.data.get("issue") == issue.id]
    work = "\n".join(dict.fromkeys(part.strip() for part in (*earlier, body) if part.strip()))
    if not work:  # "done" with nothing to judge: asked for the work, not judged
        asker = lesson.session.classroom.agent(issue.question_agent) or lesson.lead()
        line = _said(lesson).gettext("Before {judge} can judge “{title}”, show your work: write your plan, then say "
                                     "“done” (or start with “here is my plan:”).").format(
            judge=_name(lesson, issue.judge), title=issue.title)
        async for record_ in lesson.say(asker, [ScriptStep(agent=asker.id, say=line)]):
            yield record_
        return
    session = lesson.session
    yield session.record(record(index, SUBMITTED, {"issue": issue.id, "work": session.context.redact(work),
                                                   "body": session.context.redact(body.strip())}))
    verdict, problems = await ask_judge(session.context.client, scene, index, issue, _name(lesson, issue.judge),
                                        work, session.classroom.language)
    for problem in problems:
        yield session.record(problem)
    yield session.record(record(index, VERDICT, verdict.model_dump()))
    call = LessonCall("scene", f"The judge tells the learner the verdict on “{issue.title}”.", index,
                      topic=issue.title, moment="verdict", subject=issue.id,
                      comment=_told(scene, verdict, session.classroom.language))
    async for record_ in lesson.turn(call):
        yield record_
    if not verdict.complete:
        return
    yield session.record(record(index, DONE, {"issue": issue.id}))
    _, project, _ = project_of(lesson, Step(index, 0, "pause"))
    following = scene.issue(project.next_issue(scene) or "")
    if following is not None:
        async for record_ in _open(lesson, index, scene, following, project.role or ""):
            yield record_
    else:
        async for record_ in _finish(lesson, index, scene, project):
            yield record_


def _told(scene: PblScene, verdict: Verdict, language: str) -> str:
    """The verdict as the judge is to say it, in the class's language."""
    if verdict.complete:
        return translator(language).gettext("Complete. {comment}").format(comment=verdict.comment).strip()
    return verdict_line(scene, verdict, language).split(": ", 1)[-1]


async def _finish(lesson: LessonStage, index: int, scene: PblScene, project: ProjectState) -> Played:
    t = _said(lesson)
    done = ", ".join(f"✓ {i.title}" for i in scene.issues if i.id in project.done)
    skills = " " + t.gettext("Skills you used: {skills}.").format(skills=", ".join(scene.project.skills)) \
        if scene.project.skills else ""
    line = t.gettext("That's the project “{title}” done. As {role} you worked through: {done}.{skills} Well done, "
                     "team!").format(title=scene.project.title, role=project.role or t.gettext("a team member"),
                                     done=done, skills=skills)
    lead = lesson.lead()
    async for record_ in lesson.say(lead, [ScriptStep(agent=lead.id, say=line)]):
        yield record_
    yield lesson.session.record(record(index, FINISHED, {"issues": project.done}))
    lesson.cursor.answered()
    async for record_ in lesson.moved():
        yield record_


def _said(lesson: LessonStage) -> NullTranslations:
    """The project's own words are the class's: in its language."""
    return translator(lesson.session.classroom.language)


def _name(lesson: LessonStage, agent_id: str) -> str:
    agent = lesson.session.classroom.agent(agent_id)
    return agent.name if agent else agent_id


def _request(scene: PblScene, project: ProjectState, issue: Issue, said: str, moment: str) -> str:
    """What the class is told of the project now (who the learner is, the active issue) and of this turn."""
    now = (f"Project \"{scene.project.title}\"; the learner is the {project.role}. Active issue [{issue.id}] "
           f"{issue.title}: {issue.description} Done when it {'; '.join(c.text for c in issue.done)}.")
    match moment:
        case "open":
            return f"{now} The issue opens now: its question agent asks the learner guiding questions."
        case "hint":
            return f"{now} The learner asks for a hint: \"{said}\". The question agent hints without the answer."
    return (f"{now} The learner said to the team: \"{said}\". A teammate answers in their role; the judge waits "
            "for a submission.")


async def arrived(lesson: LessonStage, step: Step) -> Played:
    """The project waits for the learner's role: one given beforehand (``--role``) is taken now."""
    scene, project, _ = project_of(lesson, step)
    given = lesson.session.role
    if given is None or project.role is not None:
        return
    if read_role(scene, given) is None:
        known = ", ".join(r.name for r in scene.roles)
        yield lesson.session.record(ErrorEvent(data=ErrorData(
            message=f"--role {one_line(given, 40)!r} is not a role of this project ({known}); pick one")))
        return
    async for record_ in _pick_role(lesson, step.scene, scene, given):
        yield record_


def waiting_line(lesson: LessonStage, step: Step) -> str | None:
    """Once a role is chosen (a resumed project), the project says where it stands instead of asking again."""
    scene, project, _ = project_of(lesson, step)
    issue = scene.issue(project.active or "")
    if project.role is None or issue is None:
        return None
    return _said(lesson).gettext("We're on “{title}”, {role}. Talk it through with the team, ask for a hint, or "
                                 "submit your work when it's ready.").format(title=issue.title, role=project.role)
