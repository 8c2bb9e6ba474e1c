"""Theme files, colour legibility, and the saved theme choice."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom, sample_names
from maic_tui.colors import contrast, readable_on, to_rgb
from maic_tui.settings import ConfigError, read_setting, resolve_settings, save_setting
from maic_tui.tui.themes import THEMES_DIR, ThemeError, load_theme, load_themes, parse_theme


def test_the_bundled_themes_load_three_or_more_with_a_light_one() -> None:
    themes, errors = load_themes()
    assert errors == [] and len(themes) >= 3
    assert any(not t.dark for t in themes) and any(t.dark for t in themes)


def test_every_sample_agent_colour_is_readable_on_every_theme() -> None:
    themes, _ = load_themes()
    colors = {a.color for name in sample_names() for a in load_classroom(name).agents}
    for theme in themes:
        for color in colors:
            adjusted = readable_on(color, theme.background)
            assert contrast(adjusted, theme.background) >= 4.5, (theme.name, color, adjusted)
            assert contrast(theme.foreground, theme.background) >= 4.5, theme.name


def test_readable_on_keeps_a_colour_that_already_reads_well() -> None:
    assert readable_on("#000000", "#ffffff") == "#000000"
    assert readable_on("navy", "#000000") != "#000080"
    assert to_rgb("rebeccapurple") == (0x66, 0x33, 0x99) and to_rgb("#abc") == (0xAA, 0xBB, 0xCC)
    with pytest.raises(ValueError):
        to_rgb("not-a-colour")


def test_a_broken_theme_file_is_one_line_naming_file_and_field(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text('name = "bad"\ndark = true\nprimary = "blue"\n', encoding="utf-8")
    (tmp_path / "worse.toml").write_text("name = [", encoding="utf-8")
    themes, errors = load_themes(tmp_path)
    assert themes == [] and len(errors) == 2
    assert all("\n" not in e for e in errors)
    assert any("bad.toml" in e and "primary" in e for e in errors)
    with pytest.raises(ThemeError):
        load_theme(tmp_path / "worse.toml")


def test_saving_the_theme_keeps_the_rest_of_the_config(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('# my settings\nmodel = "demo"\ntimeout = 30\n', encoding="utf-8")
    env = {"MAIC_CONFIG": str(path)}
    save_setting("theme", "paper", env)
    save_setting("theme", "midnight", env)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# my settings\n") and text.count("theme") == 1
    assert tomllib.loads(text) == {"model": "demo", "timeout": 30, "theme": "midnight"}
    assert read_setting("theme", env) == "midnight"
    spec, options = resolve_settings({}, env)  # the theme is not a model setting
    assert spec == "demo" and options.timeout == 30
    with pytest.raises(ConfigError):
        save_setting("colour", "x", env)


@pytest.mark.parametrize(("change", "expected"), [
    ({"extra": 1}, "extra: unknown key"),
    ({"dark": "yes"}, "dark: 'yes' is not true or false"),
    ({"board": {"background": "#fff", "ink": "red", "grid": "#eee"}}, "board.ink: not a colour: 'red'"),
    ({"board": {"background": "#fff", "ink": "#000"}}, "board.grid: missing"),
    ({"board": 3}, "board: must be a table"),
    ({"accent": None}, "accent: missing"),
    ({"name": "Bad Name"}, "name: 'Bad Name' is not a theme name"),
])
def test_each_theme_rule_names_the_field(tmp_path: Path, change: dict[str, object], expected: str) -> None:
    data = tomllib.loads((THEMES_DIR / "paper.toml").read_text(encoding="utf-8"))
    data.update(change)
    data = {key: value for key, value in data.items() if value is not None}
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}"):
        parse_theme(data)
    assert parse_theme(tomllib.loads((THEMES_DIR / "paper.toml").read_text(encoding="utf-8"))).board.ink == "#1f2328"
