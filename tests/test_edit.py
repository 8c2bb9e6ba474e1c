"""``maic-tui edit``: a scripted editor breaks the file, sees the problems above the reopened draft (each at the
line it names), fixes it or gives up; the file changes only when a valid draft is saved."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.editing.editor import NoEditor, editor_command
from maic_tui.paths import SAMPLES_DIR
from tests.authoring_helpers import script_editor, seen

SAMPLE = (SAMPLES_DIR / "derivatives.toml").read_text(encoding="utf-8")


@pytest.fixture
def classroom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MAIC_DATA_DIR", str(tmp_path / "data"))
    path = tmp_path / "class.toml"
    path.write_text(SAMPLE, encoding="utf-8")
    return path


def drafts(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "data" / "drafts").glob("*.toml"))


def test_a_broken_draft_reopens_with_its_problems_on_the_lines_they_name_and_a_fix_is_written_as_typed(
        classroom: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    broken = 'id = "lena"\nname = "Lena"\nrole = "pupil"'
    editor = script_editor(monkeypatch, tmp_path / "editor",
                           {"replace": ['id = "lena"\nname = "Lena"\nrole = "student"', broken]},
                           {"replace": ['role = "pupil"', 'role = "student"  # fixed by hand']})
    assert main(["edit", str(classroom)]) == 0
    first, second = seen(editor)
    assert first == SAMPLE  # a valid file opens as it is
    header = [line for line in second.splitlines() if line.startswith("#!")]
    assert header[0].startswith("#! maic-tui: this classroom draft was not saved: 1 problem.")
    number, message = re.fullmatch(r"#!\s+line (\d+): (.*)", header[1]).groups()  # type: ignore[union-attr]
    assert message.startswith("agents[5].role: ")
    assert second.splitlines()[int(number) - 1] == 'role = "pupil"'  # the line as the editor shows it
    assert second.endswith(SAMPLE.replace('id = "lena"\nname = "Lena"\nrole = "student"', broken))
    written = classroom.read_text(encoding="utf-8")
    assert written == SAMPLE.replace('id = "lena"\nname = "Lena"\nrole = "student"',
                                     'id = "lena"\nname = "Lena"\nrole = "student"  # fixed by hand')
    assert "#!" not in written and drafts(tmp_path) == []
    assert capsys.readouterr().out == f"wrote {classroom}: valid\n"


def test_giving_up_on_a_broken_draft_writes_nothing_and_says_where_the_draft_is(
        classroom: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    editor = script_editor(monkeypatch, tmp_path / "editor", {"replace": ['title = "', 'title = ']}, {"keep": True})
    assert main(["edit", str(classroom)]) == 1
    assert classroom.read_text(encoding="utf-8") == SAMPLE
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "came back unchanged with 1 problem" in err[0] and "not valid TOML" in err[0]
    [kept] = drafts(tmp_path)
    assert err[0].endswith(f"the classroom draft is kept in {kept}")
    assert len(seen(editor)) == 2 and kept.read_text(encoding="utf-8").startswith("#! maic-tui:")
    assert (kept.stat().st_mode & 0o777) == 0o600
    # the next edit goes on from that draft, and fixing it writes the file
    script_editor(monkeypatch, tmp_path / "editor2", {"replace": ['title = Derivatives', 'title = "Derivatives']})
    capsys.readouterr()
    assert main(["edit", str(classroom)]) == 0
    assert "going on from the draft kept in" in capsys.readouterr().out
    assert classroom.read_text(encoding="utf-8") == SAMPLE and drafts(tmp_path) == []


def test_an_editor_that_fails_writes_nothing(classroom: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    script_editor(monkeypatch, tmp_path / "editor", {"replace": ["Derivatives", "Integrals"], "exit": 3})
    assert main(["edit", str(classroom)]) == 1
    assert classroom.read_text(encoding="utf-8") == SAMPLE
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("maic-tui: the editor exited with status 3: nothing was written")


def test_unchanged_and_valid_writes_nothing(classroom: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    script_editor(monkeypatch, tmp_path / "editor", {"keep": True})
    before = classroom.stat().st_mtime_ns
    assert main(["edit", str(classroom)]) == 0
    assert classroom.stat().st_mtime_ns == before and capsys.readouterr().out == f"{classroom}: unchanged\n"


def test_a_bundled_sample_is_edited_as_a_copy_in_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MAIC_DATA_DIR", str(tmp_path / "data"))
    script_editor(monkeypatch, tmp_path / "editor", {"replace": ["Derivatives: the slope", "Slopes: the slope"]})
    assert main(["edit", "derivatives"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("derivatives is a bundled sample: editing a copy, derivatives.toml\n")
    copy = tmp_path / "derivatives.toml"
    assert copy.read_text(encoding="utf-8") == SAMPLE.replace("Derivatives: the slope", "Slopes: the slope", 1)
    assert (SAMPLES_DIR / "derivatives.toml").read_text(encoding="utf-8") == SAMPLE


def test_the_editor_is_visual_then_editor_then_one_on_the_path() -> None:
    assert editor_command({"VISUAL": "code --wait", "EDITOR": "vi", "PATH": ""}) == "code --wait"
    assert editor_command({"VISUAL": " ", "EDITOR": "nano -w", "PATH": ""}) == "nano -w"
    with pytest.raises(NoEditor, match="set VISUAL or EDITOR"):
        editor_command({"PATH": ""})


def test_no_editor_is_one_line(classroom: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.setenv("PATH", "")
    assert main(["edit", str(classroom)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_second_edit_is_refused_naming_the_first_and_a_file_changed_meanwhile_is_not_written_over(
        classroom: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    go = tmp_path / "go"
    folder = script_editor(monkeypatch, tmp_path / "ed", {"wait_for": str(go), "replace": ["Derivatives", "Slopes"]})
    first = subprocess.Popen([sys.executable, "-m", "maic_tui", "edit", str(classroom)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        deadline = time.monotonic() + 30
        while not (folder / "seen-1").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert main(["edit", str(classroom)]) == 2  # the second author, while the first one's editor is open
        refused = capsys.readouterr().err
        assert f"already open in another maic-tui edit (pid {first.pid})" in refused and refused.count("\n") == 1
        theirs = SAMPLE.replace("Derivatives", "Rates of change", 1)
        classroom.write_text(theirs, encoding="utf-8")  # someone saves the file meanwhile, without maic-tui
        go.touch()
        out, err = first.communicate(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 1 and "changed since the editor opened it: nothing was written" in err, (out, err)
    assert classroom.read_text(encoding="utf-8") == theirs  # their save is kept
    assert "Slopes" in drafts(tmp_path)[0].read_text(encoding="utf-8")  # and so is the first author's work
