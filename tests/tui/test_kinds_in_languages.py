"""The new scene kinds in every language (issue 53 after issues 51 and 52): the interactive widget's and the project's
words follow the interface's language (its widget, its board, its list, the pane's brief); a project's own lines
(its introduction, the role question, the role taken, an issue opened, a verdict told) follow the class's."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from maic_tui.classroom import load_classroom
from maic_tui.classroom.lesson_steps import Phase
from maic_tui.i18n import set_interface_language
from maic_tui.room.view import SystemNote
from maic_tui.tui.scenes.interactive import InteractivePanel
from maic_tui.tui.scenes.pbl import ProjectPanel
from maic_tui.tui.widgets.composer import Composer
from tests.test_pbl_play import SAMPLE, events, play, speech
from tests.tui.helpers import demo_app, ready, say, wait_for

SECANT = 3  # the derivatives lesson's interactive scene


def _notes(app: object) -> list[str]:
    return [e.text for e in app.room.view.entries if isinstance(e, SystemNote)]  # type: ignore[attr-defined]


async def test_the_interactive_widget_speaks_the_interface_language() -> None:
    set_interface_language("fr")
    app = demo_app()
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        app.room.go_to_scene(SECANT)
        panel = app.query_one(InteractivePanel)
        await wait_for(pilot, lambda: panel.display and "pas 0.05" in str(panel.render()))
        shown = str(panel.render())
        assert "pas 0.05" in shown and "Tab : au clavier · ou tape h = 1" in shown, shown
        panel.focus()
        await pilot.pause()
        # the keys' line whole, as the English one is, in the widget's width
        assert "↑↓ choix · ←→ valeur · p préréglage · Entrée → classe" in str(panel.render())
        await pilot.press("left")
        await wait_for(pilot, lambda: _notes(app) and _notes(app)[-1].startswith("✎ "))
        assert _notes(app)[-1] == "✎ Sam a mis gap h (h) à 0.95"  # the learner's change, in the interface's words
        app.query_one(Composer).focus()
        await say(pilot, "h = 5")  # refused: the learner is told in the interface's language
        await pilot.pause(0.2)
        assert any("h = 5 est hors de sa plage de 0.01 à 2 (pas 0.05) ; rien n'a changé" in str(n.message)
                   for n in app._notifications)  # type: ignore[attr-defined]


async def test_a_diagram_widget_speaks_the_interface_language() -> None:
    set_interface_language("de")
    classroom = load_classroom("water-cycle")
    index = next(n for n, scene in enumerate(classroom.scenes) if scene.type == "interactive")
    app = demo_app(classroom)
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        app.room.go_to_scene(index)
        panel = app.query_one(InteractivePanel)
        await wait_for(pilot, lambda: panel.display)
        shown = str(panel.render())
        assert "sichtbar ·" in shown and "aufzudecken" in shown and "Tab: Diagramm bedienen" in shown, shown
        assert "oder tippe reveal" in shown  # the typed command stays as the class reads it


async def test_the_project_board_speaks_the_interface_language() -> None:
    set_interface_language("zh_CN")
    app = demo_app("rain-garden", lesson=True)

    def waiting() -> bool:
        lesson = app.room.turns.lesson
        return lesson is not None and lesson.phase == Phase.WAITING and not app.room.turns.running

    def board() -> str:
        return str(app.query_one(ProjectPanel).query_one("#project-board", Static).render())

    def picks() -> list[str]:
        found = app.query_one(ProjectPanel).query(OptionList)
        return [str(found.first().get_option_at_index(n).prompt) for n in range(found.first().option_count)] \
            if found else []

    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: waiting() and picks())
        assert "选择你的角色" in board() and picks()[0] == "1. Project lead (管理)", (board(), picks())
        await pilot.press("down", "enter")  # the Designer
        await wait_for(pilot, lambda: waiting() and "你：Designer" in board() and picks() == [
            "提交我的成果给评审", "请求提示"])
        # the class speaks English (the classroom's language), whatever the interface speaks
        assert "Your role: Designer" in _notes(app)


SPANISH = SAMPLE.read_text(encoding="utf-8").replace('language = "en"', 'language = "es"', 1)


@pytest.fixture
def spanish_project(tmp_path: Path) -> str:
    path = tmp_path / "jardin.toml"
    path.write_text(SPANISH, encoding="utf-8")
    return str(path)


def test_a_projects_own_lines_speak_the_class_language(spanish_project: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    records = play(capsys, "astronauta", "designer", "done", "here is my plan: near the gym",
                   classroom=spanish_project)
    said = speech(records)
    assert "Nuestro proyecto: A rain garden for the school yard." in said  # the introduction; the file's own words kept
    assert "Designer (desarrollo):" in said and "¿Qué rol asumes: Project lead, Designer, Plant scout?" in said
    assert "Primero elige un rol: 1. Project lead, 2. Designer, 3. Plant scout." in said
    assert "Eres nuestro Designer." in said and "Siguiente tarea: Choose the site." in said
    assert "Antes de que Dr. Lin pueda juzgar «Choose the site», muestra tu trabajo" in said
    assert events(records, "verdict")[0]["data"]["comment"] == "Añade lo que falta y entrega de nuevo."
    assert "Necesita revisión. Falta: " in said  # the verdict as the judge tells it
    assert "Which role" not in said and "Next issue" not in said


def test_a_projects_transcript_lines_speak_the_class_language() -> None:
    from maic_tui.log.records import SceneEventData
    from maic_tui.scenes.pbl.model import PblScene
    from maic_tui.scenes.pbl.records import line

    scene = next(s for s in load_classroom("rain-garden").scenes if isinstance(s, PblScene))
    index = scene.issues[0].id
    verdict = {"issue": index, "verdict": "needs_revision", "missing": ["a distance"], "comment": ""}
    event = SceneEventData(scene=2, kind="pbl", name="verdict", data=verdict)
    assert line(scene, event, "zh-CN") == "✗ Choose the site: 需要修改. 缺少：a distance"
    assert line(scene, event, "en") == "✗ Choose the site: Needs revision. Missing: a distance"
    chosen = SceneEventData(scene=2, kind="pbl", name="role_chosen", data={"role": "Designer"})
    assert line(scene, chosen, "de") == "Deine Rolle: Designer"


def test_the_panes_words_around_a_project_and_a_diagram_speak_the_interface_language() -> None:
    from maic_tui.scenes.interactive.model import InteractiveScene
    from maic_tui.scenes.interactive.render import lines as widget_lines
    from maic_tui.scenes.pbl.model import PblScene
    from maic_tui.scenes.pbl.render import lines as brief_lines
    from tests.test_interactive_scenes import PALETTE

    set_interface_language("zh_CN")
    project = next(s for s in load_classroom("rain-garden").scenes if isinstance(s, PblScene))
    brief = "\n".join(line.plain for line in brief_lines(project, 100, PALETTE))
    assert "角色" in brief and "Designer（开发）" not in brief and "Designer (开发):" in brief
    assert "负责人：Designer" in brief and "完成条件：" in brief and "技能：reading a site" in brief
    diagram = next(s for s in load_classroom("water-cycle").scenes if isinstance(s, InteractiveScene))
    drawn = "\n".join(line.plain for line in widget_lines(diagram, 80, PALETTE))
    assert "待揭示：按 Enter 或输入 reveal" in drawn


def test_a_refused_change_stays_english_for_the_class_and_is_shown_translated() -> None:
    from maic_tui.scenes.base import SceneChangeError
    from maic_tui.scenes.interactive.model import InteractiveScene

    set_interface_language("ru")
    secant = load_classroom("derivatives").scenes[SECANT]
    assert isinstance(secant, InteractiveScene)
    with pytest.raises(SceneChangeError) as refused:
        secant.change(secant.initial(), "set", "h", 5)
    # the English goes to the class's model (an agent's action warnings), the trace and the log
    assert str(refused.value) == "h = 5 is outside its range 0.01 to 2 (step 0.05)"
    assert refused.value.shown == "h = 5 вне диапазона от 0.01 до 2 (шаг 0.05)"
    with pytest.raises(SceneChangeError) as unknown:
        secant.change(secant.initial(), "preset", "nowhere")
    assert unknown.value.shown.startswith("'nowhere' — не набор (")
