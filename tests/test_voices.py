"""A voice per agent: the file's own (a name, or one per provider), else one assigned by role and order that no
one else in the class has; what a provider cannot speak is one line from validate."""

from __future__ import annotations

from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.classroom.models import Agent, Voices
from maic_tui.classroom.voices import OPENAI_VOICES, PROVIDERS, assign, espeak_problem
from maic_tui.cli import main
from maic_tui.paths import SAMPLES_DIR


def agent(ident: str, role: str, voice: object = None) -> Agent:
    return Agent.model_validate({"id": ident, "name": ident.title(), "role": role, "persona": "p", "avatar": "a",
                                 "color": "#123456", "voice": voice})


@pytest.mark.parametrize("sample", sorted(SAMPLES_DIR.glob("*.toml")), ids=lambda p: p.stem)
def test_every_sample_names_a_distinct_voice_for_each_agent_and_provider(sample: Path) -> None:
    room = load_classroom(sample)
    for provider in PROVIDERS:
        named = [getattr(a.voice, provider) for a in room.agents if isinstance(a.voice, Voices)]
        assert len(named) == len(room.agents) == len(set(named))


def test_the_class_assigns_by_role_then_order_and_never_twice() -> None:
    class_ = [agent("kim", "student"), agent("hale", "teacher"), agent("tom", "assistant"),
              agent("lee", "student", {"openai": "onyx"})]
    voices = assign(class_, "openai", "en")
    assert voices["lee"] == "onyx"  # its own; the teacher then gets the next of the palette, not onyx
    assert [voices[a] for a in ("hale", "tom", "kim")] == ["nova", "alloy", "echo"]
    espeak = assign(class_, "espeak", "pt-BR")
    assert espeak["hale"] == "pt-br+m3" and len(set(espeak.values())) == 4
    crowd = [agent(f"s{n}", "student") for n in range(12)]
    assert len(set(assign(crowd, "openai", "en").values())) == len(OPENAI_VOICES)  # all of them before any twice


def test_a_bare_name_is_the_voice_for_whichever_provider_speaks() -> None:
    assert assign([agent("hale", "teacher", "af_bella")], "openai", "en") == {"hale": "af_bella"}
    assert espeak_problem("en-us+f3") is None and espeak_problem("fr") is None and espeak_problem("de+Alex") is None
    assert "no variant 'robot'" in str(espeak_problem("en+robot"))
    assert "not an espeak-ng voice" in str(espeak_problem("Nova"))


def test_validate_rejects_what_a_provider_cannot_speak_in_one_line(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    text = (SAMPLES_DIR / "water-cycle.toml").read_text(encoding="utf-8")
    bare = tmp_path / "bare.toml"
    bare.write_text(text.replace('voice = { openai = "onyx", espeak = "en+m3" }', 'voice = "onyx"'),
                    encoding="utf-8")
    assert main(["validate", str(bare)]) == 0
    assert main(["validate", "--voice", "openai", str(bare)]) == 0
    capsys.readouterr()
    assert main(["validate", "--voice", "espeak", str(bare)]) == 2
    assert capsys.readouterr().err == (f"{bare}: agents[0].voice: 'onyx' is not an espeak-ng voice (a language "
                                       "code, then +m1…+m7 or +f1…+f5: en+f3)\n")
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace('espeak = "en+m3"', 'espeak = "en+m9"'), encoding="utf-8")
    assert main(["validate", str(broken)]) == 2
    assert "agents[0].voice.espeak: 'en+m9': espeak-ng has no variant 'm9'" in capsys.readouterr().err
