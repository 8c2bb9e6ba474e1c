"""A model failure in the transcript is said in the interface's language, live and in a replay of the session,
while the session log keeps the English line a program reads (README, *Languages*)."""

from __future__ import annotations

from pathlib import Path

from maic_tui.classroom import load_classroom
from maic_tui.events import ErrorData, ErrorEvent
from maic_tui.i18n import set_interface_language
from maic_tui.live.assembly import SessionRecipe
from maic_tui.llm.errors import describe, shown_failure
from maic_tui.llm.options import ModelOptions
from maic_tui.room.replay import open_recorded
from maic_tui.room.view import ClassroomView, SystemNote
from maic_tui.tui.app import ClassroomApp
from tests.fake_openai import Reply, fake_openai
from tests.tui.helpers import ready, say, wait_for


def _errors(view: ClassroomView) -> list[str]:
    return [e.text for e in view.entries if isinstance(e, SystemNote) and e.level == "error"]


async def test_a_failing_model_is_shown_in_german_and_recorded_in_english(tmp_path: Path) -> None:
    set_interface_language("de")
    data = tmp_path / "data"
    with fake_openai() as server:
        server.answer = lambda body: Reply(status=500, text="the server broke")
        options = ModelOptions(base_url=server.url, retries=0, timeout=5, structured="off")
        recipe = SessionRecipe("openai:fake-model", options, data_dir=data, classroom_name="derivatives")
        app = ClassroomApp(load_classroom("derivatives"), recipe)
        async with app.run_test(size=(150, 44)) as pilot:
            await ready(pilot)
            await say(pilot, "what is a derivative?")
            await wait_for(pilot, lambda: bool(_errors(app.room.view)), timeout=20)
            shown = _errors(app.room.view)[0]
            assert any(str(n.message) == shown for n in app._notifications)  # its notice too
            session = app.room.session
            assert session is not None and session.log is not None
            session_id = session.log.info.id
        app.close_session()  # the log written whole
    assert shown == "Prof. Ada Reyes: der Modellserver antwortete 500: the server broke", shown
    recorded = open_recorded(data, session_id)
    said = [item.record.data.message for item in recorded.records if isinstance(item.record, ErrorEvent)]
    assert said[0] == "Prof. Ada Reyes: the model server answered 500: the server broke"  # the log keeps the English
    assert _errors(recorded.rebuilt.view)[0] == shown  # a replay of the record shows it as the room did


def test_every_failure_describe_writes_is_found_again_and_said_in_chinese() -> None:
    class APIConnectionError(Exception):
        pass

    english = [describe(APIConnectionError("Connection error."), who="Juno: TA").message,
               describe(ValueError("odd"), who="grader").message, "lesson script: a step was skipped"]
    assert english[:2] == ["Juno: TA: cannot reach the model server (connection failed); is it running, and is the "
                           "base URL right?", "grader: the model call failed (odd)"]
    assert [shown_failure(line) for line in english] == english  # in English, what was recorded
    set_interface_language("zh_CN")
    assert [shown_failure(line) for line in english] == [
        "Juno: TA: 无法连接到模型服务器（连接失败）；它在运行吗？基础 URL 正确吗？",  # a name holding ": " too
        "评分器: 模型调用失败（odd）",
        "lesson script: a step was skipped"]  # not a model failure: as it is
    assert shown_failure(english[0]) == describe(APIConnectionError("Connection error."), who="Juno: TA",
                                                 shown=True).message  # as describe says it to a person


def test_the_view_model_shows_a_recorded_failure_in_the_interfaces_language() -> None:
    view = ClassroomView(load_classroom("derivatives"))
    line = "Mia: the model stream broke off after 42 characters"
    set_interface_language("ja")
    view.record(ErrorEvent(data=ErrorData(message=line)))
    assert _errors(view) == ["Mia: モデルのストリームが 42 文字で途切れました"]


def test_a_turn_stopped_at_its_limit_is_shown_in_the_interfaces_language_and_recorded_in_english() -> None:
    from maic_tui.llm.errors import TURN_STOPPED

    line = TURN_STOPPED.format(seconds="90")
    assert line == "the turn ran past its limit of 90 s; stopped"  # what the director records
    view = ClassroomView(load_classroom("derivatives"))
    set_interface_language("de")
    view.record(ErrorEvent(data=ErrorData(message=line)))
    assert _errors(view) == ["die Runde lief über ihre Grenze von 90 s hinaus; beendet"]
