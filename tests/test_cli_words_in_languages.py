"""What the authoring and archive commands print for a person (README, *Languages*): `edit`, `regen`, `fork`,
`replay --headless`, `export --audio` and the "warning:" lines, in the interface's language; the ids and records
a program reads stay as they are."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.commands.archive import warn_skipped
from maic_tui.i18n import set_interface_language
from maic_tui.llm.errors import describe
from tests.authoring_helpers import script_editor
from tests.fake_openai import Reply, closed_port_url, fake_openai
from tests.fake_speech import fake_speech
from tests.test_edit import SAMPLE
from tests.test_fork import _out, _session
from tests.test_regen import COMMENTED, flags


def test_edits_lines_are_in_the_interfaces_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MAIC_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LANGUAGE", "ja")
    script_editor(monkeypatch, tmp_path / "editor", {"replace": ["Derivatives: the slope", "Slopes: the slope"]})
    assert main(["edit", "derivatives"]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said == ["derivatives は同梱のサンプルです：コピー derivatives.toml を編集します",
                    "derivatives.toml を書き込みました：有効"]
    classroom = tmp_path / "class.toml"
    classroom.write_text(SAMPLE, encoding="utf-8")
    script_editor(monkeypatch, tmp_path / "editor", {"keep": True})
    monkeypatch.setenv("LANGUAGE", "de")
    assert main(["edit", str(classroom)]) == 0
    assert capsys.readouterr().out == f"{classroom}: unverändert\n"


def test_giving_up_on_an_edit_is_said_in_the_interfaces_language_and_so_are_the_drafts_notes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MAIC_DATA_DIR", str(tmp_path / "data"))
    classroom = tmp_path / "class.toml"
    classroom.write_text(SAMPLE, encoding="utf-8")
    monkeypatch.setenv("LANGUAGE", "fr")
    script_editor(monkeypatch, tmp_path / "editor", {"replace": ['title = "', 'title = ']}, {"keep": True})
    assert main(["edit", str(classroom)]) == 1
    [kept] = sorted((tmp_path / "data" / "drafts").glob("*.toml"))
    err = capsys.readouterr().err.strip()
    assert err.startswith("maic-tui: le brouillon de la classe est revenu inchangé avec 1 problème (le premier : ")
    assert err.endswith(f"rien n'a été écrit ; le brouillon de la classe est conservé dans {kept}")
    assert kept.read_text(encoding="utf-8").startswith("#! maic-tui : ce brouillon de la classe n'a pas été "
                                                       "enregistré : 1 problème.")  # read by the author, in French
    other = tmp_path / "other.toml"
    other.write_text(SAMPLE, encoding="utf-8")
    script_editor(monkeypatch, tmp_path / "editor2", {"replace": ["Derivatives", "Integrals"], "exit": 3})
    monkeypatch.setenv("LANGUAGE", "ru")
    assert main(["edit", str(other)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("maic-tui: редактор завершился с кодом 3: ничего не записано; черновик класса сохранён в ")
    assert classroom.read_text(encoding="utf-8") == SAMPLE == other.read_text(encoding="utf-8")


def test_regens_lines_are_in_the_interfaces_language_with_each_languages_plural(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text(COMMENTED.replace('role = "student"', 'role = "pupil"', 1), encoding="utf-8")
    classroom = tmp_path / "class.toml"
    classroom.write_text(COMMENTED, encoding="utf-8")
    monkeypatch.setenv("LANGUAGE", "ru")
    with fake_openai() as server:
        assert main(["regen", str(broken), "intro", *flags(server)]) == 1
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"maic-tui: {broken} некорректен (1 проблема; первая: ")
        assert err.endswith(f"сначала исправь его (maic-tui edit {broken})")
        server.answer = lambda body: Reply(status=500, text="the server broke")
        monkeypatch.setenv("LANGUAGE", "ar")
        assert main(["regen", str(classroom), "intro", *flags(server), "--timeout", "5"]) == 1
    err_lines = [line for line in capsys.readouterr().err.splitlines() if not line.startswith("[")]
    # the stage by its name in the interface's language (its id, "scene", stays in records and draft files)
    assert len(err_lines) == 1 and err_lines[0].endswith(f"(المرحلة المشهد)؛ {classroom} كما كان")
    assert "أجاب خادم النموذج بالرمز 500" in err_lines[0]  # the model's failure in the same words
    assert classroom.read_text(encoding="utf-8") == COMMENTED


def test_a_request_new_or_regen_cannot_start_on_is_refused_in_the_interfaces_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    classroom = tmp_path / "class.toml"
    classroom.write_text(COMMENTED, encoding="utf-8")
    monkeypatch.setenv("LANGUAGE", "de")
    assert main(["regen", str(classroom), "nowhere", "--model", "openai:m", "--base-url", "http://127.0.0.1:9"]) == 2
    assert capsys.readouterr().err.strip() == ("maic-tui: keine Szene 'nowhere': die Szenen sind intro, definition, "
                                               "shortcuts, secant, check (oder 1-5)")
    monkeypatch.setenv("LANGUAGE", "zh_CN")
    assert main(["new", "Fractions", "--model", "demo"]) == 2
    assert capsys.readouterr().err.strip().startswith("maic-tui: 生成课堂需要真实的模型：")
    assert main(["regen", str(classroom), "intro"]) == 2
    assert capsys.readouterr().err.strip().startswith("maic-tui: 重新生成场景需要真实的模型：")


def test_fork_and_a_headless_replay_say_their_lines_in_the_interfaces_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path)
    original = _session(tmp_path, capsys, "What is a derivative?", "why?")
    monkeypatch.setenv("LANGUAGE", "zh_CN")
    code, out, err = _out(capsys, "fork", original, "--turn", "2", "--data-dir", data)
    forked = out.strip()  # the id a script reads stays alone on stdout
    assert code == 0 and forked != original and "\n" not in forked
    assert err == (f"已在第 2 轮之前分叉 {original}：用 maic-tui --resume {forked} 继续"
                   f"（或 maic-tui run --resume {forked} --say TEXT）\n")
    exported = _out(capsys, "export", original, "--format", "jsonl", "--data-dir", data)[1]
    assert json.loads(exported.splitlines()[0])["type"]  # the JSONL stays as a program reads it
    log = tmp_path / "session.jsonl"
    log.write_text(exported, encoding="utf-8")
    monkeypatch.setenv("LANGUAGE", "ru")
    assert main(["replay", str(log), "--headless"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    count = len(exported.splitlines()) - 1  # the header line is the session's, not a record
    assert header.endswith(f" · сеанс {original} · {count} {_russian_records(count)}")
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(["replay", str(log), "--headless"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(f" · session {original} · {count} records")


def _russian_records(count: int) -> str:
    """Russian's three forms of "records", by its own rule (1, 21: one; 2-4, 22-24: few; the rest: many)."""
    if count % 10 == 1 and count % 100 != 11:
        return "запись"
    return "записи" if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14 else "записей"


def test_a_warning_line_is_in_the_interfaces_language() -> None:
    err = io.StringIO()
    set_interface_language("fr")
    warn_skipped(["line 3: not JSON"], err)
    assert err.getvalue() == "maic-tui : avertissement : line 3: not JSON\n"
    set_interface_language("en")
    warn_skipped(["line 3: not JSON"], err)
    assert err.getvalue().endswith("\nmaic-tui: warning: line 3: not JSON\n")


def test_export_audio_says_what_it_wrote_in_the_interfaces_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "derivatives", "--say", "What is a derivative?", "--say", "Why?"]) == 0
    capsys.readouterr()
    assert main(["sessions"]) == 0
    ident = capsys.readouterr().out.splitlines()[1].split()[0]
    out = tmp_path / "podcast"
    monkeypatch.setenv("LANGUAGE", "de")
    assert main(["export", ident, "--audio", str(out)]) == 2
    assert capsys.readouterr().err.strip() == ("maic-tui: export --audio braucht eine Stimme: --voice espeak (offline) "
                                               "oder --voice openai")
    with fake_speech() as server:
        assert main(["export", ident, "--audio", str(out), "--voice", "openai", "--voice-url", server.url]) == 0
    index = (out / "index.jsonl").read_text(encoding="utf-8").splitlines()
    assert capsys.readouterr().out == f"{len(index)} Äußerungen und {out / 'class.wav'} geschrieben\n"


def test_doctor_says_why_a_server_fails_in_the_interfaces_language_a_records_error_stays_english(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANGUAGE", "es")
    assert main(["doctor", "--model", "openai:fake-model", "--base-url", closed_port_url(), "--timeout", "5"]) == 2
    out = capsys.readouterr().out
    assert "no se puede contactar con el servidor del modelo" in out and "¿está en marcha" in out
    assert "is it running" not in out
    set_interface_language("es")
    refused = type("AuthenticationError", (Exception,), {"status_code": 401})("no")
    assert describe(refused, who="ana").message == ("ana: the model server refused the API key (401); check "
                                                    "MAIC_API_KEY or OPENAI_API_KEY")  # as the records keep it
    assert describe(refused, who="ana", shown=True).message == ("ana: el servidor del modelo rechazó la clave de "
                                                                "API (401); revisa MAIC_API_KEY u OPENAI_API_KEY")


def test_the_printed_transcripts_own_words_are_in_the_interfaces_language(monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANGUAGE", "de")
    assert main(["demo", "python-loops", "--pace", "0"]) == 0
    out = capsys.readouterr().out
    assert "── Tafel ──" in out and "── Whiteboard ──" not in out
    assert "L5: # range end is exclusive" in out  # the class's own words as the classroom has them
