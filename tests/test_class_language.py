"""A class in its own language (issue 53): the Chinese sample plays its lesson offline, its quiz is answered with
full-width and plain input, and the demo model answers questions asked in Chinese from its material; the Spanish
derivatives class does the same in Spanish."""

from __future__ import annotations

import json
from typing import Any

import pytest

from maic_tui.classroom.loader import load_classroom
from maic_tui.cli import main
from maic_tui.demo.understanding import MaterialIndex, words_of
from maic_tui.events import TextDeltaEvent


def records(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def speech(out: str) -> str:
    return "".join(r["data"]["content"] for r in records(out) if r["type"] == "text_delta")


def run(capsys: pytest.CaptureFixture[str], classroom: str, *messages: str, lesson: bool = False) -> str:
    args = ["run", classroom, *(["--lesson"] if lesson else []), *[a for m in messages for a in ("--say", m)]]
    assert main(args) == 0
    return capsys.readouterr().out


def test_the_chinese_sample_plays_its_lesson_and_grades_answers_typed_in_chinese(
        private_data_dir: object, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "derivatives-zh", "继续", "我觉得速度表就是", "h = 0.1", "趋近于２", "Ａ", "速度和加速度",
              "导数就是切线的斜率，表示函数变化得多快", lesson=True)
    said = speech(out)
    assert "欢迎你，小山。今天我们回答一个问题" in said and "没人每次都去算极限" in said
    assert "线。 " not in said  # two sentences of Chinese join without a space
    results = [r["data"] for r in records(out) if r["type"] == "quiz_result"]
    assert [(r["questionId"], r.get("chosen")) for r in results][:2] == [
        ("power-rule", ["a"]), ("rates", ["speed", "acceleration"])]
    end = next(r["data"] for r in records(out) if r["type"] == "lesson_end")
    assert end["score"] == end["maxScore"] == 5


@pytest.mark.parametrize(("answers", "earned"), [(("第一个", "A、C", "斜率"), 4), (("１", "第三个", "不知道"), 2),
                                                 (("我选Ｃ", "Ａ和Ｃ", "变化的快慢"), 3)])
def test_the_chinese_quiz_reads_ordinals_and_full_width_letters(
        private_data_dir: object, capsys: pytest.CaptureFixture[str], answers: tuple[str, ...], earned: int) -> None:
    out = run(capsys, "derivatives-zh", "继续", "继续", "二", *answers, lesson=True)
    assert next(r["data"] for r in records(out) if r["type"] == "lesson_end")["score"] == earned


def test_the_demo_answers_questions_asked_in_chinese_from_its_material(
        private_data_dir: object, capsys: pytest.CaptureFixture[str]) -> None:
    assert "导数就是曲线在某一点的斜率" in speech(run(capsys, "derivatives-zh", "什么是导数？"))
    assert "在山顶或谷底" in speech(run(capsys, "derivatives-zh", "怎么找最大值"))
    assert "常数从不变化" in speech(run(capsys, "derivatives-zh", "常数的导数是零吗"))
    # the class's question to the learner, answered in full-width digits, wrongly, then in words
    out = speech(run(capsys, "derivatives-zh", "x的三次方怎么求导？", "７x", "５x^4"))
    hint = "和 x 的三次方一样"
    assert out.count(hint) == 1 and out.index(hint) > out.index("你能猜出 x 的五次方的导数吗？")
    assert "5x^4" in out[out.rindex(hint):]
    # off the material: the class says so and names its scenes, it does not answer from a slide
    assert "处处都有斜率" in speech(run(capsys, "derivatives-zh", "你喜欢吃苹果吗？"))


def test_chinese_is_read_as_character_pairs_without_the_pairs_that_straddle_two_words() -> None:
    index = MaterialIndex.of(load_classroom("derivatives-zh"))
    assert words_of("导数是什么") == ["导数"]  # "数是", "是什", "什么": a particle inside
    assert index.terms("什么是导数？") == ["导数"]
    assert index.terms("常数的导数是零吗") == ["常数", "导数", "零"]
    assert index.best("今天吃什么") is None  # nothing of the material


def test_the_spanish_derivatives_class_speaks_and_reads_spanish(
        private_data_dir: object, capsys: pytest.CaptureFixture[str]) -> None:
    room = load_classroom("derivatives-es")
    english = load_classroom("derivatives")
    assert room.language == "es" and [s.id for s in room.scenes] == [s.id for s in english.scenes]
    assert {a.id for a in room.demo.answers} == {a.id for a in english.demo.answers}
    assert "La derivada es la pendiente" in speech(run(capsys, "derivatives-es", "¿Qué es una derivada?"))
    # Snowball's Spanish stems: "límites" finds the answer written for "límite"
    assert "Un límite es el valor" in speech(run(capsys, "derivatives-es", "¿Y los límites?"))
    out = run(capsys, "derivatives-es", "sigue", "sigue", "h = 0.1", "dos", "la a", "velocidad y aceleración",
              "la pendiente de la tangente: cómo cambia la función", lesson=True)
    end = next(r["data"] for r in records(out) if r["type"] == "lesson_end")
    assert end["score"] == end["maxScore"]


async def test_a_question_back_in_chinese_holds_the_lesson_until_the_learner_answers() -> None:
    from maic_tui.classroom.lesson_steps import Phase
    from maic_tui.live.lesson_player import LessonPlayer
    from maic_tui.live.lesson_talk import asks_learner
    from maic_tui.live.session import ClassroomSession
    from maic_tui.llm import ModelOptions
    from maic_tui.orchestration.routing.guards import is_clear_question
    from tests.engine_helpers import lesson_reply

    assert asks_learner("小山，轮到你了。x 的平方在 x 等于 3 处的斜率是多少？") and asks_learner("هل فهمت؟")
    assert is_clear_question("导数是什么？") and not asks_learner("导数就是斜率。")
    player = LessonPlayer(ClassroomSession(load_classroom("derivatives-zh"), "demo", ModelOptions(pace=0)))
    async for _ in player.play():
        pass
    assert player.phase == Phase.WAITING  # the first scene's pause
    said = "".join([r.data.content async for r in lesson_reply(player, "什么是导数？")
                    if isinstance(r, TextDeltaEvent)])
    assert said.endswith("斜率是多少？") and "这就是定义" not in said
    assert player.phase == Phase.LIVE  # asked back: the class waits for the answer (or F7)


def test_the_demo_models_own_questions_and_answers_phrasing_is_in_the_class_language(
        private_data_dir: object, capsys: pytest.CaptureFixture[str]) -> None:
    """Why, pushing back, explaining again, another example, goodbye: the demo's own frame words come from the
    catalogs in the class's language; the classroom's lines inside them stay as written."""
    def reply(classroom: str, *messages: str) -> str:  # what the class said to the last message
        out = run(capsys, "derivatives-zh" if classroom == "zh" else "derivatives-es", *messages)
        said = [r for r in records(out) if r["type"] in ("text_delta", "done")]
        last = [i for i, r in enumerate(said) if r["type"] == "done"][-2]  # the turn before the last message's
        return "".join(r["data"]["content"] for r in said[last + 1:] if r["type"] == "text_delta")

    asked = "什么是导数？"
    assert {r["data"].get("prompt") for r in records(run(capsys, "derivatives-zh", "你好"))
            if r["type"] == "cue_user"} == {"接下来你想探讨什么？"}
    assert reply("zh", asked, "为什么").startswith("小山，要点是这样的：我们从来不让 h 等于零")
    pushed = reply("zh", asked, "我不同意")
    assert "也许是我没说清楚，小山。我的意思是：" in pushed and "我不同意" not in pushed  # the words are not a point
    assert reply("zh", asked, "不懂").startswith("我换个说法，小山。 导数就是切线的斜率")
    assert reply("zh", asked, "不懂").endswith("这样清楚些了吗？")
    assert reply("zh", asked, "举个例子").startswith("关于这个我准备的就是那个例子，小山；这里有一个相关的。")
    assert reply("zh", "你好", "再见") == "不客气，小山。今天学得很好，欢迎随时再来。"
    spanish = load_classroom("derivatives-es").learner.nickname
    assert reply("es", "¿Qué es una derivada?", "why?").startswith(
        f"Buena pregunta, {spanish}. Esta es la razón: Toma dos puntos")
    assert f"Te lo digo de otra manera, {spanish}." in reply("es", "¿Qué es una derivada?", "I don't get it")
    assert reply("es", "¿Qué es una derivada?", "I don't think that's right") == (
        f"Es justo que lo discutas, {spanish}. Aun así, toma dos puntos de la curva, separados por h, y calcula la "
        "pendiente entre ellos. ¿Qué te hace dudar?")
    assert reply("es", "¿Qué es una derivada?", "another example").startswith(
        f"Ese era el ejemplo que preparé sobre eso, {spanish}; aquí tienes uno relacionado. Una recta tangente")


def test_the_teachers_thanks_in_the_classs_language_is_no_point_to_explain() -> None:
    """"Why?" after the teacher thanked a student: the student's point is explained, not the courtesy."""
    from maic_tui.demo import moves
    from maic_tui.demo.planner import material
    from maic_tui.llm.context import Said

    room = load_classroom("derivatives-zh")
    said = [Said("learner", "常数呢？"), Said("juno", "常数的导数总是零，因为常数从来不会变化。"),
            Said("reyes", "谢谢阿杰，这个解释讲得非常完整。")]
    line = moves.why(room, material(room), said)[0].steps[0].say or ""
    assert "常数从来不会变化" in line and "谢谢" not in line
