"""A classroom written as TOML in the samples' style loads back to the same classroom (the base of `maic-tui new`)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from maic_tui.classroom import load_classroom
from maic_tui.classroom.loader import load_classroom_text, sample_names
from maic_tui.classroom.toml_writer import classroom_toml, string


@pytest.mark.parametrize("name", sample_names())
def test_every_sample_written_back_loads_to_the_same_classroom(name: str) -> None:
    room = load_classroom(name)
    text = classroom_toml(room, comment=f"{name}, written back")
    assert text.startswith(f"# {name}, written back\ntitle = ")
    assert load_classroom_text(text, "written") == room


def test_the_written_file_reads_like_the_samples() -> None:
    text = classroom_toml(load_classroom("derivatives"))
    assert "\n[[agents]]\nid = \"reyes\"\n" in text and "\n[[scenes]]\nid = \"intro\"\n" in text
    assert "\nscript = [\n  { agent = \"reyes\", say = " in text  # one step per line
    assert "priority = 5" not in text.split("[[agents]]")[4]  # a default is not written
    assert text.index("[[demo.answers]]") > text.index("[[scenes.questions]]")


@given(st.text())
def test_any_text_is_a_toml_string_that_reads_back_the_same(text: str) -> None:
    assert tomllib.loads(f"x = {string(text)}")["x"] == text


def test_a_written_file_round_trips_through_the_disk(tmp_path: Path) -> None:
    path = tmp_path / "class.toml"
    path.write_text(classroom_toml(load_classroom("car-free-city")), encoding="utf-8")
    assert load_classroom(path) == load_classroom("car-free-city")
