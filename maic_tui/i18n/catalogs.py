"""The gettext catalogs of the ``maic_tui`` domain: one translator per language, and the interface's.

The messages are English in the code; a language's catalog is compiled from
``maic_tui/locale/<lang>/LC_MESSAGES/maic_tui.po`` by the package build (never committed compiled). A language
whose catalog is missing, or a message it lacks, reads as the English in the code, never as a key."""

from __future__ import annotations

import gettext
import struct
from functools import cache
from pathlib import Path

from maic_tui.i18n.languages import ENGLISH, supported

DOMAIN = "maic_tui"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


@cache
def translator(language: str) -> gettext.NullTranslations:
    """The catalog for a language code or locale name (``zh-CN``, ``de_DE.UTF-8``); English for one we lack."""
    code = supported(language) or ENGLISH
    # Opened by its path, not through gettext.translation: that one reads the locale module's tables to expand
    # the name, time the app's first frame would spend for a path we know.
    path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if code == ENGLISH or not path.is_file():
        return gettext.NullTranslations()
    try:
        with path.open("rb") as file:
            return gettext.GNUTranslations(file)
    except (OSError, ValueError, struct.error):  # unreadable or not a catalog: English rather than no app
        return gettext.NullTranslations()


class _Interface:
    """The language the app and the command line speak now (the palette may switch it while the app runs)."""

    language = ENGLISH
    catalog: gettext.NullTranslations = gettext.NullTranslations()


def interface_language() -> str:
    return _Interface.language


def set_interface_language(language: str) -> str:
    """Speak ``language`` from now on; returns the code it means (English for one we lack)."""
    _Interface.language = supported(language) or ENGLISH
    _Interface.catalog = translator(_Interface.language)
    return _Interface.language


def _(message: str) -> str:
    """A message of the interface in its language ("" stays "": gettext would give the catalog's header)."""
    return _Interface.catalog.gettext(message) if message else message


def ngettext(singular: str, plural: str, count: int) -> str:
    """A message of the interface that depends on a count, in its language's plural form for ``count``."""
    return _Interface.catalog.ngettext(singular, plural, count)


def N_(message: str) -> str:
    """Marks a message for the catalogs where it is defined; it is translated where it is shown (``_(name)``)."""
    return message
