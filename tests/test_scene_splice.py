"""Lines in a TOML text (toml_layout) and one scene replaced or put in with the rest of the file as it was
(scene_splice), on every bundled sample and on layouts meant to mislead a line scanner."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from maic_tui.classroom.scene_splice import CannotSplice, insert_scene, replace_scene
from maic_tui.classroom.toml_layout import Layout
from maic_tui.paths import SAMPLES_DIR

SAMPLES = sorted(SAMPLES_DIR.glob("*.toml"))
NEW = {"id": "fresh", "title": "A fresh scene", "script": [{"agent": "x", "say": "Hello [[scenes]] # not a comment"}],
       "elements": [{"type": "title", "id": "e1", "text": "Fresh"}]}


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_each_scene_of_each_sample_is_replaced_and_only_its_lines_change(sample: Path) -> None:
    text = sample.read_text(encoding="utf-8")
    layout = Layout.of(text)
    spans = layout.scene_spans()
    assert len(spans) == len(tomllib.loads(text)["scenes"]) > 0
    for index, (start, end) in enumerate(spans):
        new = replace_scene(text, index, NEW)
        lines = new.splitlines(keepends=True)
        tail = len(layout.lines) - end
        assert lines[:start] == layout.lines[:start] and lines[len(lines) - tail:] == layout.lines[end:]
        assert tomllib.loads(new)["scenes"][index] == NEW


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_a_scene_put_in_anywhere_leaves_the_old_text_whole_around_it(sample: Path) -> None:
    text = sample.read_text(encoding="utf-8")
    count = len(tomllib.loads(text)["scenes"])
    for index in range(count + 1):
        new = insert_scene(text, index, NEW)
        scenes = tomllib.loads(new)["scenes"]
        assert scenes[index] == NEW and [s for n, s in enumerate(scenes) if n != index] == \
            tomllib.loads(text)["scenes"]
        start = new.index('[[scenes]]\nid = "fresh"')
        end = new.index('text = "Fresh"\n') + len('text = "Fresh"\n')
        assert new[:start] + new[end:].removeprefix("\n") == text or new[:start - 1] + new[end:] == text


def test_headers_inside_strings_and_comments_are_not_headers() -> None:
    text = ('title = "T"\n# [[scenes]] in a comment\n[[scenes]]\nid = "a"\nnote = """\n[[scenes]]\nid = "x"\n"""\n'
            "other = '[[scenes]]'\n\n# before b\n[[scenes]]\nid = \"b\"\n")
    layout = Layout.of(text)
    assert layout.scene_spans() == [(2, 9), (11, 13)]
    assert layout.line_of("scenes[1].id") == 13 and layout.line_of("scenes[0].other") == 9
    new = replace_scene(text, 0, {"id": "a2", "title": "A"})
    assert new.endswith("\n\n# before b\n[[scenes]]\nid = \"b\"\n") and new.startswith(text[:text.index("[[sc")])


def test_a_field_path_names_the_line_of_its_item_key_or_table() -> None:
    text = ('title = "T"\n\n[[agents]]\nid = "a"\n\n[[scenes]]\nid = "s"\nscript = [\n  { say = "1" },\n'
            '  { say = "2" },\n]\n\n[[scenes.elements]]\ntype = "title"\n')
    layout = Layout.of(text)
    assert layout.line_of("title") == 1 and layout.line_of("agents[0].id") == 4
    assert layout.line_of("scenes[0].script[1].say") == 10 and layout.line_of("scenes[0].script[0]") == 9
    assert layout.line_of("scenes[0].script[7]") == 8  # no such item: its key
    assert layout.line_of("scenes[0].elements[0].text") == 13  # no such key: its table
    assert layout.line_of("scenes[0, 2 and 3].id") == 7 and layout.line_of("nothing") is None


def test_scenes_written_inline_are_refused_not_rewritten() -> None:
    text = 'title = "T"\nscenes = [{ id = "a", title = "A" }]\n'
    with pytest.raises(CannotSplice, match="not each written as a \\[\\[scenes\\]\\] table"):
        replace_scene(text, 0, NEW)
