"""``maic-tui eval --from-session ID --turn N -o FILE``: a recorded turn kept as a routing scenario (ARCHITECTURE.md,
*The routing workbench*). The scenario starts where the session was before that learner turn (the conversation and
the scene), plays that learner message, and expects each decision the director took, so a decision found wrong can
be edited into the right one and kept as a regression test."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path
from typing import Any

import tomlkit

from maic_tui.actions import WIDGET_ACTIONS
from maic_tui.bad_input import BadInput
from maic_tui.classroom.loader import load_classroom_text
from maic_tui.classroom.models import Classroom
from maic_tui.events import ActionEvent, DoneEvent
from maic_tui.files import check_target, write_atomically
from maic_tui.i18n import _
from maic_tui.log.fork import before_turn
from maic_tui.log.records import InteractionRecord, LearnerRecord, Record, SceneRecord, SessionInfo, Timed
from maic_tui.log.store import LogStore
from maic_tui.paths import SAMPLES_DIR
from maic_tui.room.replay import rebuild
from maic_tui.scenes.base import SceneChangeError
from maic_tui.scenes.live_state import action_changes
from maic_tui.text_safety import one_line


def _classroom_copy(info: SessionInfo, output: Path) -> Path | None:
    """None when the session's classroom is a bundled sample as it is today; else where to keep it as recorded."""
    sample = SAMPLES_DIR / f"{info.classroom}.toml"
    if sample.is_file() and sample.read_text(encoding="utf-8") == info.classroom_toml:
        return None
    return check_target(output.with_name(f"{output.stem}.classroom.toml"), "classroom file")


def scenario_text(info: SessionInfo, records: list[Timed], turn: int, classroom: str) -> str:
    room = load_classroom_text(info.classroom_toml, _("session {id}").format(id=info.id))
    kept = before_turn(info, records, turn)
    said = records[len(kept)].record
    assert isinstance(said, LearnerRecord)
    done = next((item.record for item in records[len(kept):] if isinstance(item.record, DoneEvent)), None)
    if done is None:
        raise BadInput(_("session {id}: turn {turn} has no decisions recorded (it never finished)").format(
            id=one_line(info.id), turn=turn))
    rebuilt = rebuild(room, [item.record for item in kept])
    document = tomlkit.document()
    document.add(tomlkit.comment(f"Turn {turn} of session {info.id}, as the director decided it; edit the "
                                 "decisions into what they should be."))
    picked = [record for record in done.data.director_trace if record.path == "manual"]
    if picked:  # the tester's picks are expected as written, but no model makes them by itself
        steps = ", ".join(f"{record.step} ({record.final}"
                          + (f", the director proposed {record.proposal})" if record.proposal else ")")
                          for record in picked)
        document.add(tomlkit.comment(f"Picked by the tester in step mode, not decided by the routing: decision "
                                     f"{steps}. Edit each into what the routing should decide: as picked, the "
                                     "scenario fails unless the routing happens to agree."))
    document["description"] = f"session {info.id}, turn {turn}: {one_line(said.data.text, 60)}"
    document["classroom"] = classroom
    document["model"] = info.model
    if room.scenes:
        document["scene"] = room.scenes[rebuilt.scene_index].id
    history = tomlkit.aot()
    for entry in rebuilt.history:
        who = entry.agent_id if entry.role == "agent" and entry.agent_id else entry.role
        history.append(tomlkit.item({"who": who, "text": entry.text}))
    if rebuilt.history:
        document["history"] = history
    worked = tomlkit.aot()
    for change in widget_changes(room, [item.record for item in kept]):
        worked.append(tomlkit.item(change))
    if len(worked):
        document["worked"] = worked
    events = tomlkit.aot()
    for event in rebuilt.view.scene_events:
        if event.scene == rebuilt.scene_index:  # the scene's own records: the turn is played where it waits
            events.append(tomlkit.item({"name": event.name, "data": event.data}))
    if events:
        document["events"] = events
    decisions = {str(record.step): [record.final] for record in done.data.director_trace}
    turns = tomlkit.aot()
    turns.append(tomlkit.item({"say": said.data.text, "expect": {"decision": decisions}}))
    document["turns"] = turns
    return tomlkit.dumps(document)


def widget_changes(room: Classroom, records: list[Record]) -> list[dict[str, Any]]:
    """Every change made to a scene's widget before the turn, in order: the learner's ``interaction`` records and
    the agents' widget actions (in the scene the class was on), as the scenario's ``[[worked]]``."""
    changes: list[dict[str, Any]] = []
    scene = 0
    for record in records:
        if isinstance(record, SceneRecord):
            scene = record.data.index
        elif isinstance(record, InteractionRecord) and 0 <= record.data.scene < len(room.scenes):
            changes.append({"scene": room.scenes[record.data.scene].id, "verb": record.data.verb,
                            "target": record.data.target}
                           | ({"value": record.data.value} if record.data.value is not None else {}))
        elif isinstance(record, ActionEvent) and record.data.action_name in WIDGET_ACTIONS \
                and 0 <= scene < len(room.scenes):
            agent = room.agent(record.data.agent_id)
            with suppress(SceneChangeError):  # a log may hold anything; what cannot be read is left out
                for change in action_changes(record.data.action_name, record.data.params):
                    changes.append({"scene": room.scenes[scene].id, "verb": change.verb, "target": change.target,
                                    "by": agent.name if agent else record.data.agent_id}
                                   | ({"value": change.value} if change.value is not None else {}))
    return changes


def write_scenario(data_dir: Path, session: str, turn: int, output: str) -> Path:
    target = check_target(Path(output), "scenario file")
    info, records, skipped = LogStore(data_dir).load(session)
    if skipped:
        raise BadInput(_("session {id} has unreadable records; its turns cannot be kept exactly ({first})").format(
            id=one_line(info.id), first=skipped[0]))
    copy = _classroom_copy(info, target)
    text = scenario_text(info, records, turn, copy.name if copy is not None else info.classroom)
    if copy is not None:
        write_atomically(copy, info.classroom_toml)
    write_atomically(target, text)
    return target
