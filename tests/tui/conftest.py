from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every app test gets its own config file: a theme switch must not touch the user's."""
    path = tmp_path / "config.toml"
    monkeypatch.setenv("MAIC_CONFIG", str(path))
    for name in ("MAIC_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "MAIC_API_KEY", "MAIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return path
