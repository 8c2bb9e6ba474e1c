"""The voice's own lines and a replay's progress in the interface's language (issue 53): a speech server that
cannot be reached, espeak-ng missing, the voice turned off, the replay line under the composer."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest

from maic_tui.i18n import _, set_interface_language
from maic_tui.speech.providers import INSTALL_ESPEAK, OpenAISpeech, SpeechError
from maic_tui.speech.speaker import Speaker
from maic_tui.tui.replay_player import progress_line


def _unreachable() -> str:
    speech = OpenAISpeech(url="http://127.0.0.1:9/v1", timeout=2)
    with pytest.raises(SpeechError) as caught:
        asyncio.run(speech.synthesize("Hello", "alloy"))
    return str(caught.value)


def test_a_speech_server_that_cannot_be_reached_is_said_in_the_interfaces_language() -> None:
    assert _unreachable().startswith("the speech server cannot be reached at http://127.0.0.1:9/v1/audio/speech: ")
    set_interface_language("de")
    assert _unreachable().startswith("der Sprachserver ist unter http://127.0.0.1:9/v1/audio/speech nicht erreichbar: ")
    set_interface_language("zh_CN")
    assert _unreachable().startswith("无法连接 http://127.0.0.1:9/v1/audio/speech 的语音服务器：")
    assert _(INSTALL_ESPEAK) == ("未安装 espeak-ng：apt install espeak-ng（Debian、Ubuntu）或 brew install espeak-ng"
                                 "（macOS）")


def test_the_voice_turned_off_is_said_in_the_interfaces_language() -> None:
    said: list[str] = []
    set_interface_language("fr")
    speaker = Speaker(OpenAISpeech(url="http://127.0.0.1:9/v1"), {}, notice=said.append)
    speaker._quiet(_("the voice stopped"))
    assert said == ["voix coupée : la voix s'est arrêtée ; la classe continue en texte"]


@dataclass
class _Player:
    paused: bool

    def progress(self) -> str:
        return "3/10"


def test_a_replays_progress_line_is_in_the_interfaces_language() -> None:
    assert progress_line("s1", _Player(False), True) == "Replay of s1: 3/10 · Space pauses · nothing is sent"  # type: ignore[arg-type]
    set_interface_language("de")
    assert progress_line("s1", _Player(True), True) == \
        "Wiedergabe von s1: 3/10 · Leertaste setzt fort · nichts wird gesendet"  # type: ignore[arg-type]
    set_interface_language("ja")
    assert progress_line("", _Player(False), False) == "記録されたセッション の再生：3/10 · 何も送られません"  # type: ignore[arg-type]
