"""Who a new session records as its learner, read without pydantic (the app reads it before its first frame)."""

from __future__ import annotations

from collections.abc import Mapping

from maic_tui.i18n import _
from maic_tui.settings import ConfigError, config_path, read_setting
from maic_tui.text_safety import one_line

MAX_NAME = 200


def learner_name(flag: str | None, env: Mapping[str, str] | None = None) -> str | None:
    """``--learner``, else ``[learner] name`` in the config (None: the classroom's learner)."""
    if flag is not None and flag.strip():
        return one_line(flag.strip(), MAX_NAME)
    table = read_setting("learner", env)
    name = table.get("name") if isinstance(table, dict) else None
    if name is None:
        return None
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise ConfigError(_("{path}: [learner] name must be a name of 1 to {limit} characters").format(
            path=one_line(str(config_path(env)), 200), limit=MAX_NAME))
    return one_line(name.strip(), MAX_NAME)
