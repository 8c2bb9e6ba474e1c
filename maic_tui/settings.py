"""Model settings from flags, the environment and the config file, in that order of precedence.

Config file: ``config.toml`` in the platform's config directory (``MAIC_CONFIG`` overrides the path), e.g.::

    model = "openai:gpt-4o-mini"
    base_url = "http://127.0.0.1:8080/v1"
    api_key = "..."          # better: OPENAI_API_KEY in the environment
    timeout = 60
    retries = 2
    structured_output = "auto"  # the first the server accepts; or "json_schema" / "gbnf" / "json_object" / "off"
    theme = "chalkboard"       # the TUI's theme; the app saves your choice here

    [interface]
    language = "de"            # the app's and the command line's language when LANGUAGE, LC_ALL, LC_MESSAGES
                               # and LANG name none; the palette saves your choice here

    [voice]
    provider = "espeak"        # off, openai or espeak: saved when --voice is given
    language = "en"            # what the voices speak, whatever the class's language (README, *Languages*)

    [learner]                  # who the learning records are about (README, *Learning records*)
    name = "Ana"

    [records]                  # where they go
    lrs = "http://127.0.0.1:8100/xAPI/"
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from platformdirs import user_config_dir

from maic_tui.bad_input import BadInput, Unreadable, describe_path, read_text_file, read_toml_file, validation_line
from maic_tui.i18n import _

if TYPE_CHECKING:
    from maic_tui.llm import ModelOptions

DEFAULT_MODEL = "demo"
_ENV = {
    "model": ("MAIC_MODEL",),
    "base_url": ("MAIC_BASE_URL", "OPENAI_BASE_URL"),
    "api_key": ("MAIC_API_KEY", "OPENAI_API_KEY"),
    "timeout": ("MAIC_TIMEOUT",),
    "retries": ("MAIC_RETRIES",),
    "structured_output": ("MAIC_STRUCTURED_OUTPUT",),
}
# read by the TUI, the interface's language, the voice and the records: not model settings
_UI_KEYS = {"theme", "interface", "voice", "learner", "records"}
_KEYS = set(_ENV) | _UI_KEYS


class ConfigError(BadInput):
    """A config file or setting that cannot be used; one line naming where."""


def config_path(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    return Path(env.get("MAIC_CONFIG") or Path(user_config_dir("maic-tui")) / "config.toml")


def _file_settings(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    name = describe_path(path)
    try:
        data = read_toml_file(path, "config file", limit=2**20)
    except Unreadable as exc:
        raise ConfigError(f"{name}: {exc.reason}") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ConfigError(_("{name}: unknown setting '{key}' (known: {known})")
                          .format(name=name, key=unknown[0], known=", ".join(sorted(_KEYS))))
    return data


def _merged(flags: Mapping[str, Any], env: Mapping[str, str] | None) -> dict[str, Any]:
    """Config file, then environment, then command line: each later one wins."""
    env = os.environ if env is None else env
    merged: dict[str, Any] = _file_settings(config_path(env))
    for key, names in _ENV.items():
        value = next((env[name] for name in names if env.get(name)), None)
        if value is not None:
            merged[key] = value
    return merged | {key: value for key, value in flags.items() if value is not None}


def requested_model(flags: Mapping[str, Any], env: Mapping[str, str] | None = None) -> str:
    """The model spec the settings ask for, read without loading pydantic (the app checks it first)."""
    return str(_merged(flags, env).get("model", DEFAULT_MODEL))


def resolve_settings(flags: Mapping[str, Any], env: Mapping[str, str] | None = None) -> tuple[str, ModelOptions]:
    """The model spec and options; ``flags`` holds the command-line values (None = not given)."""
    # Imported here: the app reads its theme from this module before the first frame, without pydantic.
    from pydantic import ValidationError

    from maic_tui.llm import ModelOptions

    merged = _merged(flags, env)
    for key in _UI_KEYS:
        merged.pop(key, None)
    spec = str(merged.pop("model", DEFAULT_MODEL))
    if "structured_output" in merged:
        merged["structured"] = merged.pop("structured_output")
    try:
        return spec, ModelOptions(**merged)
    except ValidationError as exc:
        raise ConfigError(_("setting {problem}").format(problem=validation_line(exc))) from None


def read_setting(key: str, env: Mapping[str, str] | None = None) -> Any:
    """One setting from the config file (None when absent)."""
    return _file_settings(config_path(env)).get(key)


def interface_language(env: Mapping[str, str] | None = None) -> str:
    """The language the app and the command line speak: the environment's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG),
    else ``[interface] language``, else English. A config file that cannot be read is the verb's to report."""
    from maic_tui.i18n import choose

    env = os.environ if env is None else env
    try:
        interface = read_setting("interface", env)
    except ConfigError:
        interface = None
    return choose(env, interface.get("language") if isinstance(interface, dict) else None)


def save_setting(key: str, value: str, env: Mapping[str, str] | None = None) -> Path:
    """Set a top-level string setting in the config file, keeping every other line (and comment) as written.

    Two apps may save at once: the read, change and write happen under a lock, and the file is replaced in
    one step, so it is never seen half-written and no other setting is lost."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    from maic_tui.files import locked, write_atomically

    table, _dot, inner = key.rpartition(".")  # "voice.provider": a key of the [voice] table
    if (table or inner) not in _KEYS:
        raise ConfigError(_("unknown setting '{key}'").format(key=key))
    path = config_path(env)
    name = describe_path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with locked(path):
            text = read_text_file(path, "config file", limit=2**20) if path.exists() else ""
            try:
                document = tomlkit.parse(text)
            except TOMLKitError as exc:
                raise ConfigError(_("{name}: not valid TOML ({reason}); '{key}' was not saved")
                                  .format(name=name, reason=exc, key=key)) from None
            place = document
            if table:
                if not isinstance(document.get(table, {}), dict):
                    raise ConfigError(_("{name}: '{table}' is not a table; '{key}' was not saved")
                                      .format(name=name, table=table, key=key))
                place = document.setdefault(table, tomlkit.table())
            if place.get(inner) == value:
                return path
            place[inner] = value
            write_atomically(path, tomlkit.dumps(document), mode=0o600)  # it may hold an API key
    except Unreadable as exc:
        raise ConfigError(_("{name}: {reason}; '{key}' was not saved").format(name=name, reason=exc.reason, key=key)) \
            from None
    except OSError as exc:
        raise ConfigError(_("{name}: cannot save '{key}': {reason}").format(name=name, key=key,
                                                                          reason=exc.strerror or exc)) from None
    return path
