"""Where things live: bundled samples and themes (beside the package), the default classroom, and which
file a classroom name means.

A light module on purpose: the app reads it before its first frame.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]
SAMPLES_DIR = PROJECT_DIR / "sample_classrooms"
THEMES_DIR = PROJECT_DIR / "themes"
DEFAULT_CLASSROOM = "derivatives"  # the sample opened when no classroom is named


def resolve(name_or_path: str | Path) -> Path:
    """A path to a classroom file, or the name of a bundled sample."""
    path = Path(name_or_path)
    if path.exists() or path.suffix == ".toml" or len(path.parts) > 1:
        return path
    return SAMPLES_DIR / f"{name_or_path}.toml"


def data_dir(override: str | Path | None = None, env: Mapping[str, str] | None = None) -> Path:
    """Where sessions are recorded: ``--data-dir``, else ``MAIC_DATA_DIR``, else the platform data directory."""
    from platformdirs import user_data_dir

    env = os.environ if env is None else env
    return Path(override or env.get("MAIC_DATA_DIR") or user_data_dir("maic-tui"))
