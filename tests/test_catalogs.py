"""The gettext catalogs (README, *Languages*): every language has every message of the code, translated, with the
placeholders its English has; the compiled catalogs are the .po as they are; a missing catalog or message reads as
English, never as a key."""

from __future__ import annotations

import gettext
import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from maic_tui.i18n import DOMAIN, ENGLISH, LANGUAGES, LOCALE_DIR, translator

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = sorted(set(LANGUAGES) - {ENGLISH})
PERCENT = re.compile(r"%(?:\([a-z_]+\))?[sdrf]")


def code_messages() -> set[str]:
    """Every message the code marks (``_``, ``N_``, ``ngettext``, a translator's ``gettext``), read from the code."""
    found = extract_from_dir(str(ROOT), method_map=[("maic_tui/**.py", "python")], keywords=DEFAULT_KEYWORDS)
    return {message if isinstance(message, str) else message[0] for _, _, message, _, _ in found}


def catalog(language: str) -> Catalog:
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
        return read_po(file, locale=language)


def fields(text: str) -> set[str]:
    """A message's placeholders: ``{name}`` fields and argparse's ``%s`` / ``%(name)r``."""
    named = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    return named | set(PERCENT.findall(text))


def forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


GETTEXT_CALLS = {"_", "N_", "ngettext", "gettext"}


def test_no_message_is_marked_inside_an_f_string() -> None:
    """Babel cannot see a message marked inside an f-string: it would reach no catalog and show in English."""
    import ast

    for path in sorted((ROOT / "maic_tui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                for call in ast.walk(node):
                    if isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Constant):
                        name = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")
                        assert name not in GETTEXT_CALLS, f"{path.relative_to(ROOT)}:{call.lineno}"


def test_the_template_holds_every_message_of_the_code() -> None:
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("rb") as file:
        template = {message.id if isinstance(message.id, str) else message.id[0] for message in read_po(file)}
    assert code_messages() == template - {""}, "run `make catalogs` after changing the code's messages"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(language: str) -> None:
    messages = {message.id if isinstance(message.id, str) else message.id[0]: message
                for message in catalog(language) if message.id}
    wanted = code_messages()
    assert wanted <= set(messages), sorted(wanted - set(messages))[:5]
    for key in sorted(wanted):
        message = messages[key]
        # A plural's forms have the singular's placeholders at least, the plural's at most ("the question" and
        # "the {count} questions": a language's form for one may leave the number out, or say it).
        least, most = (fields(message.id), fields(message.id)) if isinstance(message.id, str) else \
            (fields(message.id[0]), fields(message.id[0]) | fields(message.id[1]))
        assert "fuzzy" not in message.flags, (language, key)
        for form in forms(message):
            assert form.strip(), (language, key)
            assert least <= fields(form) <= most, (language, key, form)
            if not PERCENT.search(key):
                form.format(**dict.fromkeys(most, "x"))  # braces that do not pair fail here


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalog_is_the_po_as_it_is(language: str) -> None:
    compiled = translator(language)
    assert isinstance(compiled, gettext.GNUTranslations), f"{language}: no .mo (make .venv/.installed compiles it)"
    for message in catalog(language):
        if message.id and not isinstance(message.id, tuple):
            assert compiled.gettext(message.id) == message.string, (language, message.id)
        elif message.id:
            assert compiled.ngettext(*message.id, 1) in message.string, (language, message.id)


def test_the_package_build_compiles_every_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """setup.py's step, as the wheel's build and the editable install run it: a .mo beside every .po."""
    import runpy

    monkeypatch.chdir(ROOT)
    written = runpy.run_path(str(ROOT / "setup.py"))["compile_catalogs"](tmp_path)
    assert sorted(Path(path).parts[-3] for path in written) == TRANSLATED
    with (tmp_path / "maic_tui" / "locale" / "ja" / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as file:
        assert gettext.GNUTranslations(file).gettext("Class") == "クラス"


def test_a_missing_catalog_or_message_reads_as_english(tmp_path: Path) -> None:
    nothing = gettext.translation(DOMAIN, tmp_path, languages=["de"], fallback=True)
    assert nothing.gettext("Class") == "Class"
    assert translator("pt-BR").gettext("Class") == "Class"  # a language we have no catalog for
    assert translator("de").gettext("a message no catalog has") == "a message no catalog has"
    assert translator("de").gettext("Class") == "Klasse"
    assert translator("zh-CN").gettext("Class") == translator("zh_CN.UTF-8").gettext("Class") != "Class"


def test_a_broken_or_missing_compiled_catalog_reads_as_english(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from maic_tui.i18n import catalogs

    folder = tmp_path / "ja" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / f"{DOMAIN}.mo").write_bytes(b"\xde\x12\x04\x95 not a catalog")
    monkeypatch.setattr(catalogs, "LOCALE_DIR", tmp_path)
    translator.cache_clear()
    try:
        assert translator("ja").gettext("Class") == "Class"  # a broken file
        assert translator("de").gettext("Class") == "Class"  # no file
    finally:
        translator.cache_clear()


def test_an_empty_message_is_empty_not_the_catalogs_header() -> None:
    from maic_tui.i18n import _, set_interface_language

    set_interface_language("fr")
    assert _("") == ""
    assert _("Class") != "Class"
