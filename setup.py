"""The package build compiles the gettext catalogs (``maic_tui/locale/*/LC_MESSAGES/*.po``) into the ``.mo`` files
the app reads: into the wheel, or, for an editable install (``make``'s), beside the ``.po`` in the source tree.
Everything else about the package is in pyproject.toml."""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LOCALE = Path("maic_tui") / "locale"


def compile_catalogs(into: Path) -> list[str]:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parts[-3])
        target = into / po.with_suffix(".mo")
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as out:
            write_mo(out, catalog)
        written.append(str(target))
    return written


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        super().run()
        self._catalogs = compile_catalogs(Path() if self.editable_mode else Path(self.build_lib))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), *getattr(self, "_catalogs", [])]


if __name__ == "__main__":  # as setuptools runs it; tests/test_catalogs.py imports compile_catalogs
    setup(cmdclass={"build_py": BuildWithCatalogs})
