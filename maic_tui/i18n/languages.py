"""The interface's languages, and which one a locale name or a classroom's language code means."""

from __future__ import annotations

from collections.abc import Mapping

ENGLISH = "en"
# Each language by its own name: the palette lists them so, whatever the interface speaks now.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "zh_CN": "简体中文",
    "ja": "日本語",
    "ru": "Русский",
    "ar": "العربية",
    "es": "Español",
    "de": "Deutsch",
    "fr": "Français",
}
# Each language as a prompt in English names it (a classroom's language is told to the model by name and code).
ENGLISH_NAMES: dict[str, str] = {
    "en": "English", "zh_CN": "Simplified Chinese", "ja": "Japanese", "ru": "Russian", "ar": "Arabic",
    "es": "Spanish", "de": "German", "fr": "French",
}
# The variables that choose the interface's language, in the order gettext reads them.
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
_NO_LANGUAGE = {"", "c", "posix"}


def supported(tag: str) -> str | None:
    """The language of ours a locale name or language code means (``zh_CN.UTF-8``, ``zh-Hans``, ``de-AT``, ``fr``),
    None when it names none of ours (or no language, as ``C`` does)."""
    base = tag.split(".", 1)[0].split("@", 1)[0].replace("-", "_").strip()
    if base.casefold() in _NO_LANGUAGE:
        return None
    language, _, region = base.partition("_")
    language = language.casefold()
    if language == "zh":
        # Only Simplified Chinese is translated: traditional script (Hant, TW, HK, MO) is not it.
        return None if region.casefold() in {"hant", "tw", "hk", "mo"} else "zh_CN"
    return language if language in LANGUAGES else None


def from_environment(env: Mapping[str, str]) -> tuple[str, str] | None:
    """The language the environment chooses and the variable that chose it, None when no variable names a language.

    The first variable set to a language decides (LANGUAGE may list several, ``fr:de``: its first of ours); a
    variable naming only languages we have not translated chooses English, as gettext would."""
    for name in ENVIRONMENT:
        value = env.get(name, "")
        tags = [tag for tag in value.split(":") if tag.split(".", 1)[0].casefold() not in _NO_LANGUAGE]
        if not tags:
            continue
        found = next((code for code in map(supported, tags) if code), ENGLISH)
        return found, name
    return None


def named_in_english(code: str) -> str:
    """A classroom's language as a prompt names it: ``zh-CN`` is "Simplified Chinese (zh-CN)", and a language we
    have no catalog for still by its code (``pt-BR``)."""
    ours = supported(code)
    return f"{ENGLISH_NAMES[ours]} ({code})" if ours else f"the language with code '{code}'"


def choose(env: Mapping[str, str], configured: object = None) -> str:
    """The interface's language: the environment's, else ``[interface] language`` from the config file, else English."""
    chosen = from_environment(env)
    if chosen:
        return chosen[0]
    return (supported(configured) if isinstance(configured, str) else None) or ENGLISH
