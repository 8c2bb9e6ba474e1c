"""``maic-tui report`` as CSV that a spreadsheet never runs (issue 54, item 8): every text cell is inert, the
header row's too, whose question columns carry the classroom's name (a file name anyone chooses)."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.paths import SAMPLES_DIR
from tests.records_helpers import played

FORMULAS = ("=1+2", "+A1", "-2+3", "@SUM(1)")


def test_classroom_names_that_are_formulas_are_text_in_the_header_and_the_rows(
        private_data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in FORMULAS:
        shutil.copy(SAMPLES_DIR / "derivatives.toml", tmp_path / f"{name}.toml")
        played(str(tmp_path / f"{name}.toml"), "right", capsys)
    assert main(["report"]) == 0
    header, *rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    named = [cell for cell in header if any(name in cell for name in FORMULAS)]
    assert len(named) == 2 * 3 * len(FORMULAS)  # earned and points of three questions, per classroom
    assert all(cell.startswith("'") for cell in named), named
    assert all(not str(cell).startswith(("=", "+", "-", "@")) for row in [header, *rows] for cell in row)
    assert sorted(row[1] for row in rows) == sorted(f"'{name}" for name in FORMULAS)
