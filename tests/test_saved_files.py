"""Files we write: the config file saved whole and under a lock, targets checked before any work, atomic writes."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from maic_tui.files import Unwritable, check_target, encodable, write_atomically
from maic_tui.settings import ConfigError, read_setting, save_setting

SETTINGS = '# my settings\nmodel = "demo"  # offline\ntimeout = 30\n\n[unused]\n'


def _saver(path: Path, theme: str, times: int) -> subprocess.Popen[bytes]:
    code = ("import sys; from maic_tui.settings import save_setting\n"
            f"for _ in range({times}): save_setting('theme', sys.argv[1], {{'MAIC_CONFIG': sys.argv[2]}})\n")
    return subprocess.Popen([sys.executable, "-c", code, theme, str(path)])


def test_two_apps_switching_themes_at_once_never_lose_or_garble_the_config(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('# my settings\nmodel = "demo"  # offline\ntimeout = 30\n', encoding="utf-8")
    savers = [_saver(path, "paper", 60), _saver(path, "midnight", 60), _saver(path, "chalkboard", 60)]
    assert [saver.wait(120) for saver in savers] == [0, 0, 0]
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert data["model"] == "demo" and data["timeout"] == 30 and data["theme"] in ("paper", "midnight", "chalkboard")
    assert text.startswith("# my settings\nmodel = \"demo\"  # offline\n") and text.count("theme") == 1
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]  # no temporary file left behind


def test_a_saved_setting_keeps_comments_tables_and_the_file_mode(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(SETTINGS.replace("[unused]\n", 'theme = "paper"\n'), encoding="utf-8")
    path.chmod(0o640)
    save_setting("theme", "midnight", {"MAIC_CONFIG": str(path)})
    assert path.read_text(encoding="utf-8") == SETTINGS.replace("[unused]\n", 'theme = "midnight"\n')
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    new = tmp_path / "new" / "config.toml"
    save_setting("theme", "paper", {"MAIC_CONFIG": str(new)})
    assert read_setting("theme", {"MAIC_CONFIG": str(new)}) == "paper"
    assert stat.S_IMODE(new.stat().st_mode) == 0o600  # a new config may later hold an API key


def test_a_broken_config_is_never_overwritten_by_a_theme_change(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('model = "demo"\ntheme = [\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"config.toml: not valid TOML.*'theme' was not saved"):
        save_setting("theme", "paper", {"MAIC_CONFIG": str(path)})
    assert path.read_text(encoding="utf-8") == 'model = "demo"\ntheme = [\n'
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError, match="not a regular file"):
        save_setting("theme", "paper", {"MAIC_CONFIG": str(fifo)})
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_target_is_checked_before_any_work(tmp_path: Path) -> None:
    assert check_target(tmp_path / "new.toml") == tmp_path / "new.toml"
    (tmp_path / "old.toml").write_text("x", encoding="utf-8")
    assert check_target(tmp_path / "old.toml") == tmp_path / "old.toml"
    (tmp_path / "link.toml").symlink_to(tmp_path / "old.toml")
    (tmp_path / "full").symlink_to("/dev/full")
    os.mkfifo(tmp_path / "fifo")
    for bad, expected in [("/dev/null", "not a regular file"), (str(tmp_path / "fifo"), "not a regular file"),
                          (str(tmp_path), "is a directory"), (str(tmp_path / "nope" / "x.toml"), "does not exist"),
                          (str(tmp_path / "link.toml"), "is a symbolic link"),
                          (str(tmp_path / "full"), "is a symbolic link"), ("", "path is empty")]:
        with pytest.raises(Unwritable, match=expected) as caught:
            check_target(Path(bad), "classroom")
        assert caught.value.lines[0].count("\n") == 0
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    if os.geteuid() != 0:  # root may write anywhere
        with pytest.raises(Unwritable, match="not writable"):
            check_target(locked / "x.toml")


def test_an_atomic_write_is_whole_or_nothing(tmp_path: Path) -> None:
    target = tmp_path / "x.toml"
    target.write_text("before", encoding="utf-8")
    with pytest.raises(Unwritable, match="cannot be written as UTF-8"):
        write_atomically(target, "title = 'a\udc00b'")
    assert target.read_text(encoding="utf-8") == "before" and len(list(tmp_path.iterdir())) == 1
    write_atomically(target, "after")
    assert target.read_text(encoding="utf-8") == "after"
    assert encodable("fine ✓", "here") == "fine ✓"
