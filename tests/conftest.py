"""Hypothesis profiles (random locally, a fixed seed sequence in CI), a private data directory (and config
file) per test, and the interface in English whatever the machine's locale (a test of another language asks for
it)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from maic_tui.i18n import ENVIRONMENT

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Sessions recorded by any test go to a temporary folder, never the user's data directory; a setting saved
    (the theme, the voice) goes to a config file of the test's own."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("MAIC_DATA_DIR", str(folder))
    if "MAIC_CONFIG" not in os.environ:
        monkeypatch.setenv("MAIC_CONFIG", str(folder / "config.toml"))
    for name in ("MAIC_LRS_USER", "MAIC_LRS_PASSWORD"):  # the learning records go to no LRS of the machine's
        monkeypatch.delenv(name, raising=False)
    return folder


@pytest.fixture(autouse=True)
def english_interface(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The app and the command line speak English in every test unless it chooses another language, and a test
    that does leaves English behind (the interface's language is the process's)."""
    from maic_tui.i18n import set_interface_language

    for name in ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    set_interface_language("en")
    yield
    set_interface_language("en")
