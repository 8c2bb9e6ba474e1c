"""Bad input about the settings, the model, a script file, a theme, ``serve``'s port, an ``@name`` and a widget
action, said in the interface's language (README, *Languages*); the file, key, option and value named stay as
typed."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.i18n import set_interface_language
from maic_tui.scenes.base import SceneChangeError
from maic_tui.scenes.live_state import SceneStates
from maic_tui.serve.serve_command import ServeError, check_port
from maic_tui.settings import ConfigError, save_setting
from maic_tui.tui.themes import parse_theme


def test_a_bad_config_file_and_model_are_said_in_german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANGUAGE", "de")
    config = tmp_path / "config.toml"
    config.write_text('modle = "demo"\n', encoding="utf-8")
    monkeypatch.setenv("MAIC_CONFIG", str(config))
    assert main(["run", "derivatives", "--say", "hi"]) == 2
    assert f"{config}: unbekannte Einstellung 'modle' (bekannt: " in capsys.readouterr().err
    config.write_text("", encoding="utf-8")
    assert main(["run", "derivatives", "--say", "hi", "--model", "gpt"]) == 2
    assert capsys.readouterr().err.strip() == ("maic-tui: unbekanntes Modell 'gpt': nimm 'demo', 'openai:<model>' "
                                               "oder 'script:<path>'")
    assert main(["run", "derivatives", "--say", "@nobody hi"]) == 2
    assert "kein Agent namens '@nobody' in dieser Klasse (versuch @" in capsys.readouterr().err


def test_a_script_file_a_setting_and_audio_out_are_said_in_chinese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANGUAGE", "zh_CN")
    script = tmp_path / "s.json"
    script.write_text("{oops", encoding="utf-8")
    assert main(["run", "derivatives", "--say", "hi", "--model", f"script:{script}"]) == 2
    assert f"{script}：不是有效的 JSON（" in capsys.readouterr().err
    assert main(["derivatives", "--voice", "off", "--audio-out", str(tmp_path / "audio")]) == 2
    assert capsys.readouterr().err.strip() == ("maic-tui: --audio-out 需要一个语音：--voice espeak（离线）"
                                               "或 --voice openai")
    set_interface_language("zh_CN")
    with pytest.raises(ConfigError, match=r"^未知设置 'colour'$"):
        save_setting("colour", "red")


def test_a_theme_and_a_taken_port_are_said_in_arabic_and_russian() -> None:
    set_interface_language("ar")
    theme = {"name": "Bad Name"}
    with pytest.raises(ValueError, match=r"^name: 'Bad Name' ليس اسم سمة \(أحرف لاتينية صغيرة وأرقام و'-'\)$"):
        parse_theme(theme)
    set_interface_language("ru")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ServeError, match=rf"^не удаётся слушать 127\.0\.0\.1:{port}: "):
            check_port("127.0.0.1", port)


def test_an_unknown_widget_action_is_english_for_the_model_and_translated_for_the_learner() -> None:
    classroom = load_classroom("derivatives")
    scene = next(s for s in classroom.scenes if s.type == "interactive")
    set_interface_language("es")
    with pytest.raises(SceneChangeError) as refused:
        SceneStates().action(scene, "widget_explode", {}, "reyes")
    assert str(refused.value) == "not a widget action: widget_explode"
    assert refused.value.shown == "no es una acción de widget: widget_explode"
