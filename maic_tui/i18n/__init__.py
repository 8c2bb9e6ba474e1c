"""The languages the app, the command line and a class speak (ARCHITECTURE.md, *Languages*): gettext catalogs of
the ``maic_tui`` domain. ``_`` is the interface's language; ``translator(language)`` a class's own."""

from maic_tui.i18n.catalogs import (
    DOMAIN,
    LOCALE_DIR,
    N_,
    _,
    interface_language,
    ngettext,
    set_interface_language,
    translator,
)
from maic_tui.i18n.languages import (
    ENGLISH,
    ENVIRONMENT,
    LANGUAGES,
    choose,
    from_environment,
    named_in_english,
    supported,
)

__all__ = ["DOMAIN", "ENGLISH", "ENVIRONMENT", "LANGUAGES", "LOCALE_DIR", "N_", "_", "choose", "from_environment",
           "interface_language", "named_in_english", "ngettext", "set_interface_language", "supported", "translator"]
