"""Where things live: bundled samples, scenarios and themes (package data, read through
``importlib.resources``), the default classroom, which file a classroom name means, and the data directory.

A light module on purpose: the app reads it before its first frame.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path

# The package is installed as files (a wheel, or this source tree), so the bundled folders are real paths;
# the loaders glob and read them like any file the learner names.
DATA_DIR = Path(str(files("maic_tui.data")))
SAMPLES_DIR = DATA_DIR / "sample_classrooms"
SCENARIOS_DIR = SAMPLES_DIR / "scenarios"
THEMES_DIR = DATA_DIR / "themes"
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
