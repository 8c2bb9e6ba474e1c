"""Who the learning records are about and where they go: the config file's ``[learner]`` and ``[records]`` tables,
and the LRS credentials from the environment (README, *Learning records*).

    [learner]
    name = "Ana Souza"
    mbox = "mailto:ana@example.org"                                 # or:
    account = { homePage = "https://lms.example.org", name = "4711" }

    [records]
    activity_base = "https://courses.example.org/maic"  # activity IRIs start here
    lrs = "https://lrs.example.org/xAPI/"                # the LRS's endpoint (its statements resource is below)
    auto = true                                          # send each session's statements when it ends
    user = "maic"                                        # better: MAIC_LRS_USER / MAIC_LRS_PASSWORD
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator

from maic_tui.bad_input import validation_line
from maic_tui.i18n import _
from maic_tui.settings import ConfigError, config_path, read_setting
from maic_tui.strict import Strict
from maic_tui.text_safety import one_line

DEFAULT_ACTIVITY_BASE = "https://maic-tui.invalid/xapi"  # .invalid never resolves: set your own
USER_ENV, PASSWORD_ENV = "MAIC_LRS_USER", "MAIC_LRS_PASSWORD"


def web_address(value: str, what: str) -> str:
    """An http(s) address with a host and nothing a person could mistake for a secret in it."""
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(_("{what} must be an http:// or https:// address, not {value}").format(
            what=what, value=repr(one_line(value, 80))))
    if parts.username is not None or parts.password is not None:
        raise ValueError(_("{what} must not hold a user or password; give them in {user} and {password}").format(
            what=what, user=USER_ENV, password=PASSWORD_ENV))
    return value.strip()


class Account(Strict):
    home_page: Annotated[str, Field(alias="homePage")]
    name: Annotated[str, Field(min_length=1, max_length=200)]

    @field_validator("home_page")
    @classmethod
    def _home_page(cls, value: str) -> str:
        return web_address(value, "homePage")


class LearnerConfig(Strict):
    name: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    mbox: Annotated[str, Field(pattern=r"^mailto:[^@\s]+@[^@\s]+$")] | None = None
    account: Account | None = None


class RecordsConfig(Strict):
    activity_base: str = DEFAULT_ACTIVITY_BASE
    lrs: str | None = None
    auto: bool = False
    user: str | None = None
    password: str | None = None  # allowed, as the API key is; the environment is better
    batch: Annotated[int, Field(ge=1, le=1000)] = 100  # statements per request
    timeout: Annotated[float, Field(gt=0, le=600)] = 30.0  # seconds per request

    @field_validator("activity_base")
    @classmethod
    def _base(cls, value: str) -> str:
        return web_address(value, "activity_base").rstrip("/")

    @field_validator("lrs")
    @classmethod
    def _lrs(cls, value: str | None) -> str | None:
        return None if value is None else web_address(value, "lrs")


def _table(key: str, model: type[Strict], env: Mapping[str, str] | None) -> Any:
    raw = read_setting(key, env)
    where = f"{one_line(str(config_path(env)), 200)}: [{key}]"
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(_("{where} must be a table").format(where=where))
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(f"{where} {validation_line(exc)}") from None


def learner_config(env: Mapping[str, str] | None = None) -> LearnerConfig:
    return _table("learner", LearnerConfig, env)


def records_config(env: Mapping[str, str] | None = None) -> RecordsConfig:
    return _table("records", RecordsConfig, env)


def lrs_credentials(config: RecordsConfig, env: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """The LRS's user and password: the environment's, else the config file's; None when neither gives a user."""
    env = os.environ if env is None else env
    user = env.get(USER_ENV) or config.user
    if not user:
        return None
    return user, env.get(PASSWORD_ENV) or config.password or ""
