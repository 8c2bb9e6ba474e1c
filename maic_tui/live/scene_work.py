"""The learner works a scene's widget (ARCHITECTURE.md, *Scene kinds*, live state): a change made with the widget's
keys, or typed as a message (``h = 0.1``), checked by the scene, applied to the session's state and recorded as an
``interaction`` record; a typed change then opens a turn in which the teacher reacts to it (``LessonCall``
``worked``), through the director like any turn, so the routing rules and guards hold."""

from __future__ import annotations

from collections.abc import AsyncGenerator

from maic_tui.bad_input import BadInput
from maic_tui.events import ErrorData, ErrorEvent
from maic_tui.i18n import _
from maic_tui.live.session import ClassroomSession
from maic_tui.llm.context import LessonCall
from maic_tui.log.records import InteractionData, InteractionRecord, Record
from maic_tui.scenes.base import SceneChangeError
from maic_tui.scenes.live_state import SceneChange
from maic_tui.text_safety import one_line


def typed_change(session: ClassroomSession, text: str) -> SceneChange | None:
    """The message as a change of the widget shown now (None: it is a message to the class); raises BadInput, one
    line with what is allowed, when the widget cannot take it (nothing changes)."""
    ctx = session.context
    scene = ctx.scene
    if scene is None or ctx.scene_states.of(scene) is None:
        return None
    typed = scene.typed(text)
    if typed is None:
        return None
    change = SceneChange(*typed)
    try:
        ctx.scene_states.copy().change(scene, [change])
    except SceneChangeError as exc:
        raise BadInput(_("{problem}; nothing changed").format(problem=exc.shown)) from None
    return change


def record_change(session: ClassroomSession, scene_index: int, change: SceneChange) -> InteractionRecord:
    """The change applied to the scene's state and recorded; raises SceneChangeError (nothing changes)."""
    ctx = session.context
    scenes = session.classroom.scenes
    scene = scenes[scene_index] if 0 <= scene_index < len(scenes) else None
    ctx.scene_states.change(scene, [change])
    value = change.value
    if isinstance(value, str) and change.verb == "set":
        value = float(value)  # checked by the change above
    return session.record(InteractionRecord(data=InteractionData(
        scene=scene_index, verb=change.verb, target=change.target, value=value)))


async def worked(session: ClassroomSession, change: SceneChange) -> AsyncGenerator[Record, None]:
    """A typed change: recorded, then the teacher's reaction to the widget as it is now."""
    ctx = session.context
    try:
        yield record_change(session, ctx.scene_index, change)
    except SceneChangeError as exc:  # the widget changed since the message was read
        yield session.record(ErrorEvent(data=ErrorData(message=one_line(f"{exc}; nothing changed", 300))))
        return
    scene = ctx.scene
    state = ctx.scene_states.of(scene)
    if scene is None or state is None:
        return
    lead = session.classroom.lead() or session.classroom.agents[0]
    said = str(getattr(state, "last", "")).replace("the learner", "the learner just", 1)
    line = scene.reaction(state)
    request = (f"{said}. React in one or two sentences: what this change shows about {scene.title}, and what to "
               "try next.")
    call = LessonCall("worked", request, ctx.scene_index, opener=lead.id, topic=said, comment=line or "")
    async for event in session.lesson_turn(call):
        yield event
