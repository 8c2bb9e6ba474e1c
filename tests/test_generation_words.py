"""What ``new`` and ``regen`` say while they work, in the interface's language (README, *Languages*): a stage's
name, what it is doing, a repair's problem, why the generation stopped, the material's lines. What a program or
the model reads stays English: the problems sent back to the model, the kept draft, the stage ids."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from maic_tui.cli import main
from maic_tui.generation.material import MaterialError, read_material
from maic_tui.i18n import set_interface_language
from tests.fake_openai import Reply, fake_openai
from tests.test_generation import ROSTER, script
from tests.test_regen import COMMENTED, SCENE, flags, prompt_of


def _progress(err: str) -> list[str]:
    """The progress lines without their clock (stderr is no terminal here)."""
    return [line.split("] ", 1)[1] for line in err.splitlines() if line.startswith("[")]


def test_news_progress_and_its_stage_table_are_in_german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANGUAGE", "de")
    nobody: dict[str, Any] = {"agents": []}
    spec = script(tmp_path, roster=["no json here", nobody, ROSTER])
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--model", spec, "-o", str(out)]) == 0
    err = capsys.readouterr().err
    progress = _progress(err)
    assert progress[:4] == ["Gliederung: slopes", "Besetzung: Slopes",
                            "Besetzung: Reparatur 1: die Antwort enthält kein JSON-Objekt",
                            "Besetzung: Reparatur 2: die Besetzung ist leer"]
    assert "Szene: 1/3 Rise over run" in progress and "Quiz: Slopes" in progress
    assert "Demomaterial: Slopes" in progress
    assert "  Besetzung 3 Runden" in err and "  Szene    1 Runde" in err  # the table's column by cells


def test_a_stage_that_never_validates_is_said_in_chinese_and_the_draft_keeps_the_english(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANGUAGE", "zh_CN")
    spec = script(tmp_path, roster=["no json here"] * 3)
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--model", spec, "-o", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    partial = tmp_path / "slopes.toml.partial.json"
    assert _progress("\n".join(err))[:3] == ["大纲：slopes", "名单：Slopes", "名单：修复 1：回答里没有 JSON 对象"]
    assert err[-1] == f"maic-tui: 回答里没有 JSON 对象（阶段 名单；已生成的内容在 {partial}）"
    kept = json.loads(partial.read_text(encoding="utf-8"))
    assert kept["stoppedAt"] == "roster" and kept["problems"] == ["the answer has no JSON object"]


def test_the_model_is_told_its_problems_in_english_whatever_the_interface_speaks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    classroom = tmp_path / "class.toml"
    classroom.write_text(COMMENTED, encoding="utf-8")
    monkeypatch.setenv("LANGUAGE", "de")
    with fake_openai(Reply("not json"), Reply(json.dumps(SCENE))) as server:
        assert main(["regen", str(classroom), "definition", *flags(server)]) == 0
    assert "That answer has these problems:\n- the answer has no JSON object" in prompt_of(server.requests[1])
    captured = capsys.readouterr()
    assert _progress(captured.err) == ["neu schreiben: Szene 2 (definition)",
                                       "Szene: Reparatur 1: die Antwort enthält kein JSON-Objekt"]
    assert captured.out == f"{classroom} geschrieben: Szene 2 (definition) (2 Modellaufrufe)\n"


def test_regens_failure_names_the_stage_and_the_model_failure_in_french(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    classroom = tmp_path / "class.toml"
    classroom.write_text(COMMENTED, encoding="utf-8")
    monkeypatch.setenv("LANGUAGE", "fr")
    with fake_openai() as server:
        server.answer = lambda body: Reply(status=500, text="the server broke")
        assert main(["regen", str(classroom), "intro", *flags(server), "--timeout", "5"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("maic-tui : scène: le serveur du modèle a répondu 500")
    assert err[-1].endswith(f"(étape scène) ; {classroom} est resté tel quel")


def test_the_materials_lines_are_in_the_interfaces_language(tmp_path: Path) -> None:
    empty = tmp_path / "notes.md"
    empty.write_text("  \n", encoding="utf-8")
    set_interface_language("de")
    with pytest.raises(MaterialError, match=rf"^{empty}: das Material ist leer$"):
        read_material(empty)
    set_interface_language("zh_CN")
    with pytest.raises(MaterialError, match=rf"^{tmp_path / 'gone.md'}：无法读取材料（"):
        read_material(tmp_path / "gone.md")


def test_a_pdf_the_worker_refuses_is_said_in_the_interfaces_language(tmp_path: Path) -> None:
    from io import BytesIO

    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(10, 10)
    writer.encrypt("secret")
    buffer = BytesIO()
    writer.write(buffer)
    (tmp_path / "locked.pdf").write_bytes(buffer.getvalue())
    set_interface_language("ru")
    with pytest.raises(MaterialError, match=r"locked\.pdf: PDF зашифрован; дай вместо него его текст"):
        read_material(tmp_path / "locked.pdf")
