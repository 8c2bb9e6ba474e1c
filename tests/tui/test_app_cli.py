"""`maic-tui [CLASSROOM]`: the command line that opens the app, and what it loads before the first frame."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.paths import SAMPLES_DIR
from maic_tui.tui.app import ClassroomApp


def test_help_describes_the_app_and_its_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for expected in ("classroom", "--model", "--theme", "--pace", "demo", "run", "validate"):
        assert expected in out


def test_an_unknown_classroom_is_one_line_and_exit_2_before_any_screen(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["no-such-classroom"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no-such-classroom" in err and "Traceback" not in err


@pytest.mark.parametrize("spec", ["bogus:thing", "openai:", "script:/no/such/script.json"])
def test_an_unknown_model_is_one_line_and_exit_2_before_any_screen(spec: str, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    def no_screen(self: ClassroomApp) -> None:
        raise AssertionError("the app opened")

    monkeypatch.setattr(ClassroomApp, "run", no_screen)
    assert main(["derivatives", "--model", spec]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "model" in err and "Traceback" not in err
    monkeypatch.setenv("MAIC_MODEL", spec)  # from the environment too
    assert main(["derivatives"]) == 2


def test_a_broken_config_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text("model = [", encoding="utf-8")
    monkeypatch.setenv("MAIC_CONFIG", str(config))
    assert main(["derivatives"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "config.toml" in err


def test_a_broken_classroom_file_exits_2_with_its_problems_after_the_app_opened(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # The file exists, so it is validated by the app after its first frame; the problems still come out as
    # lines on stderr once the terminal is restored, and the exit code says bad input.
    broken = tmp_path / "broken.toml"
    broken.write_text((SAMPLES_DIR / "derivatives.toml").read_text(encoding="utf-8").replace(
        'role = "teacher"', 'role = "headmaster"', 1), encoding="utf-8")
    run = ClassroomApp.run
    monkeypatch.setattr(ClassroomApp, "run", lambda self: run(self, headless=True))
    assert main([str(broken)]) == 2
    err = capsys.readouterr().err
    assert "broken.toml" in err and "role" in err and "Traceback" not in err
    assert all(line.startswith(str(broken)) for line in err.splitlines())


def loaded_after(setup: str, watched: tuple[str, ...]) -> list[str]:
    """Which of ``watched`` a fresh interpreter has loaded after running ``setup``."""
    code = f"import sys; {setup}; print(sorted(m for m in {watched!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return ast.literal_eval(out.strip().splitlines()[-1])


def test_the_shell_before_the_first_frame_loads_neither_pydantic_nor_the_classroom() -> None:
    # The first frame is a light shell; pydantic, the classroom and event schemas and the whiteboard load
    # in a thread after it (about 0.3 s on a 2-core machine).
    setup = ("from maic_tui.cli import main; from maic_tui.tui.app import ClassroomApp; "
             "from maic_tui.tui.launch import run_app; from maic_tui.tui.theming import register_themes; "
             "ClassroomApp(opener=lambda: None)")
    assert loaded_after(setup, ("pydantic", "maic_tui.classroom.models", "maic_tui.events", "maic_tui.whiteboard",
                                "maic_tui.room.view")) == []


def test_the_app_module_loads_without_langchain_or_langgraph() -> None:
    # The first frame must not wait for them: they load with the session, in a thread, after it.
    setup = ("from maic_tui.tui.app import ClassroomApp; from maic_tui.tui.launch import run_app; "
             "from maic_tui.settings import resolve_settings; resolve_settings({})")
    assert loaded_after(setup, ("langchain_openai", "langgraph", "langchain_core", "openai")) == []


def test_the_first_frame_is_the_opening_screen_and_the_rooms_code_loads_after_it() -> None:
    # The room's screen, its widgets, its styles and Textual's web driver are most of what the app loads: a
    # terminal's first frame needs none of them (make bench holds the first frame against a bare Textual app).
    setup = ("from maic_tui.tui.launch import run_app; from maic_tui.tui.app import ClassroomApp; "
             "ClassroomApp(opener=lambda: None).get_default_screen()")
    assert loaded_after(setup, ("maic_tui.tui.screens.room", "maic_tui.tui.widgets.composer",
                                "maic_tui.tui.widgets.board_pane", "textual.drivers.web_driver",
                                "textual.widgets._text_area")) == []
    code = ("from maic_tui.tui.app import ClassroomApp; "
            "print(type(ClassroomApp(opener=lambda: None).get_default_screen()).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "OpeningScreen"
