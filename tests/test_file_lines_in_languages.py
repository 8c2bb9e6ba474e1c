"""The one-line errors of the lower layers, where a person reads them (README, *Languages*): a file that cannot be
read or written, a broken scenario, a bad session log or record, in the interface's language; the path, the option
and the value in the line stay as they were typed, and the English is as it was."""

from __future__ import annotations

import ast
import json
import sqlite3
from pathlib import Path

import pytest

from maic_tui.bad_input import FILE_KINDS
from maic_tui.cli import main
from maic_tui.i18n import set_interface_language
from maic_tui.log.playback import LogPlayer
from maic_tui.log.records import InterruptRecord, Timed
from maic_tui.log.store import DB_NAME
from tests.test_fork import _out, _session

ROOT = Path(__file__).resolve().parent.parent / "maic_tui"


def _err(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, language: str, *args: str) -> str:
    monkeypatch.setenv("LANGUAGE", language)
    assert main(list(args)) == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(("language", "missing", "directory", "not_utf8"), [
    ("en", "no such file", "a directory; expected a classroom file", "not UTF-8 text (byte 0 cannot be decoded)"),
    ("de", "Datei nicht gefunden", "ein Verzeichnis; erwartet: Klassenzimmer-Datei",
     "kein UTF-8-Text (Byte 0 lässt sich nicht dekodieren)"),
    ("zh_CN", "文件不存在", "是目录；应为课堂文件", "不是 UTF-8 文本（第 0 个字节无法解码）"),
])
def test_a_classroom_file_that_cannot_be_read_is_said_in_the_interfaces_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], language: str,
        missing: str, directory: str, not_utf8: str) -> None:
    (tmp_path / "a folder").mkdir()
    (tmp_path / "latin1.toml").write_bytes(b"\xff\xfe title")
    assert _err(capsys, monkeypatch, language, "validate", str(tmp_path / "gone.toml")).strip() == (
        f"{tmp_path / 'gone.toml'}: {missing}")
    assert _err(capsys, monkeypatch, language, "validate", str(tmp_path / "a folder")).strip() == (
        f"{tmp_path / 'a folder'}: {directory}")
    assert _err(capsys, monkeypatch, language, "validate", str(tmp_path / "latin1.toml")).strip() == (
        f"{tmp_path / 'latin1.toml'}: {not_utf8}")


def test_an_export_path_that_cannot_be_written_is_said_in_the_interfaces_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    folder, nowhere = tmp_path / "out", tmp_path / "no such folder" / "class.md"
    folder.mkdir()
    said = {language: [_err(capsys, monkeypatch, language, "export", "any", "-o", str(target)).strip()
                       for target in (folder, nowhere)] for language in ("en", "de", "zh_CN")}
    assert said["en"] == [f"maic-tui: {folder}: is a directory; give a file name for the export",
                          f"maic-tui: {nowhere}: the folder {nowhere.parent} does not exist"]
    assert said["de"] == [f"maic-tui: {folder}: ist ein Verzeichnis; gib einen Dateinamen an (Export)",
                          f"maic-tui: {nowhere}: der Ordner {nowhere.parent} existiert nicht"]
    assert said["zh_CN"] == [f"maic-tui: {folder}：是目录；请为导出文件给出文件名",
                             f"maic-tui: {nowhere}：文件夹 {nowhere.parent} 不存在"]


def test_a_broken_scenario_is_said_in_the_interfaces_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    broken, names = tmp_path / "broken.toml", tmp_path / "names.toml"
    broken.write_text("classroom = [\n", encoding="utf-8")
    names.write_text("classroom = 'derivatives'\nscene = 'nowhere'\n[[turns]]\nsay = 'x'\n"
                     "expect = { first_speaker = 'nobody' }\n", encoding="utf-8")
    report = str(tmp_path / "r.json")
    assert _err(capsys, monkeypatch, "de", "eval", str(broken), "--report", report).startswith(
        f"maic-tui: {broken}: kein gültiges TOML: ")
    assert _err(capsys, monkeypatch, "de", "eval", str(names), "--report", report).splitlines() == [
        f"maic-tui: {names}: scene: 'nowhere' ist keine Szene im Klassenzimmer dieses Szenarios (intro, definition, "
        "shortcuts, secant, check)",
        f"maic-tui: {names}: turns[0].expect.first_speaker: 'nobody' ist kein Agent im Klassenzimmer dieses "
        "Szenarios (juno, lena, marcus, priya, reyes, theo)"]
    assert _err(capsys, monkeypatch, "zh_CN", "eval", str(broken), "--report", report).startswith(
        f"maic-tui: {broken}: 不是有效的 TOML：")
    assert _err(capsys, monkeypatch, "zh_CN", "eval", str(names), "--report", report).splitlines()[1] == (
        f"maic-tui: {names}: turns[0].expect.first_speaker: 'nobody' 不是这个场景脚本所用课堂的智能体"
        "（juno, lena, marcus, priya, reyes, theo）")
    assert not Path(report).exists()


def test_a_bad_session_log_and_a_skipped_record_are_said_in_the_interfaces_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    original = _session(tmp_path, capsys, "What is a derivative?")
    header = _out(capsys, "export", original, "--format", "jsonl", "--data-dir", str(tmp_path))[1].splitlines()[0]
    log = tmp_path / "session.jsonl"
    log.write_text(f"{header}\nnot json\n", encoding="utf-8")
    said = {language: _err(capsys, monkeypatch, language, "replay", str(log), "--headless").strip()
            for language in ("en", "de", "zh_CN")}
    assert said == {"en": f"maic-tui: {log}:2: not JSON: Expecting value at line 1 column 1",
                    "de": f"maic-tui: {log}:2: kein JSON: Expecting value in Zeile 1, Spalte 1",
                    "zh_CN": f"maic-tui: {log}:2: 不是 JSON：Expecting value（第 1 行第 1 列）"}
    with sqlite3.connect(tmp_path / DB_NAME) as db:  # the learner's first record, broken on disk
        db.execute("UPDATE records SET body = '{\"type\": \"learner\"}' WHERE seq = (SELECT MIN(seq) FROM records "
                   "WHERE type = 'learner')")
        [(seq,)] = db.execute("SELECT MIN(seq) FROM records WHERE type = 'learner'").fetchall()
    monkeypatch.setenv("LANGUAGE", "de")
    assert main(["trace", original, "--data-dir", str(tmp_path)]) == 0
    [warning] = [line for line in capsys.readouterr().err.splitlines() if line.startswith("maic-tui")]
    assert warning.startswith(f"maic-tui: Warnung: {tmp_path / DB_NAME}: Sitzung {original}, Eintrag {seq} "
                              "übersprungen: fehlerhafter learner-Eintrag: data: ")


def test_the_voice_and_a_pick_refused_are_said_in_the_interfaces_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    run = ["run", "derivatives", "--say", "hi", "--data-dir", str(tmp_path)]
    assert _err(capsys, monkeypatch, "fr", *run, "--audio-out", str(tmp_path / "audio")).strip() == (
        "maic-tui: --audio-out a besoin d'une voix : --voice espeak (hors ligne) ou --voice openai")
    assert _err(capsys, monkeypatch, "ja", *run, "--pick", "ghost").strip() == (
        "maic-tui: --pick ghost：このクラスにはいません。reyes, theo, juno, priya, marcus, lena、USER、END の"
        "いずれかを選んでください")


def test_every_kind_of_file_a_caller_names_is_in_the_catalogs() -> None:
    """A file's kind is spliced into a translated line as a label: each one a caller names is marked (FILE_KINDS),
    else that line would name it in English."""
    readers = {"read_file_bytes", "read_text_file", "read_toml_file", "check_target"}
    named: dict[str, str] = {}
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in readers:
                kinds = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "what")]
                named |= {k.value: str(path) for k in kinds if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    assert len(named) >= 10  # the scan finds the callers
    assert {kind: where for kind, where in named.items() if kind not in FILE_KINDS} == {}


def test_eval_says_its_table_and_comparison_in_the_interfaces_language_the_report_stays_english(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    monkeypatch.setenv("LANGUAGE", "de")
    assert main(["eval", "guard-student-first", "--report", str(old)]) == 0
    out = capsys.readouterr().out
    assert "Routing-Auswertung · 1 Lauf pro Szenario" in out and "Erwartung" in out
    assert f"1 von 1 Szenarien bestanden; Bericht: {old}" in out
    report = json.loads(old.read_text(encoding="utf-8"))
    assert report["scenarios"][0]["expectations"][0]["expectation"].isascii()  # what a program reads: as it was
    report["scenarios"][0]["expectations"][0]["rate"] = 0.5
    new.write_text(json.dumps(report), encoding="utf-8")
    monkeypatch.setenv("LANGUAGE", "zh_CN")
    assert main(["eval", "--compare", str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert "更差" in out and out.strip().endswith("更好 0，更差 1，不变 3")
    bad = tmp_path / "bad.json"
    bad.write_text("[1]", encoding="utf-8")
    assert main(["eval", "--compare", str(bad), str(new)]) == 2
    assert capsys.readouterr().err.strip() == f"maic-tui: {bad}：不是 maic-tui 评测报告（JSON list，不是对象）"


def test_a_replays_progress_is_said_in_the_interfaces_language_with_its_plural() -> None:
    records = [Timed(0.0, InterruptRecord()) for _ in range(22)]
    player = LogPlayer(records, speed=1.0)
    player.played = 3
    assert player.progress() == "playing · 3/22 records"
    set_interface_language("ru")
    assert player.progress() == "воспроизводится · 3/22 записи"
    player.toggle_pause()
    set_interface_language("de")
    assert LogPlayer(records[:1], 1.0).progress() == "läuft · 0/1 Eintrag" and player.progress().startswith("pausiert")
