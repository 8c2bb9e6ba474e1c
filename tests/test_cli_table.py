"""The table of commands (maic_tui/cli/table.py): every verb has help, the README's *Commands* list names exactly
the table's verbs, reading the command line loads no verb's work, and the checks of argument combinations that each
verb makes for itself."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from maic_tui.cli import main, table
from maic_tui.cli.command import Command
from maic_tui.cli.table import APP, COMMANDS, VERBS, app_parser

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_commands(text: str) -> list[str]:
    """The first word after ``maic-tui`` on each line of the sh block under "## Commands" ("" for the app)."""
    section = text.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None, "README's Commands section has no sh block"
    words = [line.split()[1] for line in block.group(1).splitlines() if line.startswith("maic-tui ")]
    return ["" if word.startswith(("-", "[")) else word for word in words]


def test_the_readme_lists_every_verb_of_the_table_and_no_other() -> None:
    listed = readme_commands(README.read_text(encoding="utf-8"))
    assert set(listed) - {""} == set(VERBS), (sorted(set(VERBS) - set(listed)), sorted(set(listed) - set(VERBS)))
    assert "" in listed  # the app itself


def test_the_readme_check_sees_a_verb_missing_or_one_too_many() -> None:
    text = README.read_text(encoding="utf-8")
    assert "fork" not in readme_commands(re.sub(r"(?m)^maic-tui fork .*\n", "", text))
    assert "frobnicate" in readme_commands(text.replace("maic-tui sessions ", "maic-tui frobnicate ", 1))


def test_the_table_names_each_verb_once_and_every_verb_defined() -> None:
    assert len(VERBS) == len(COMMANDS) and "" not in VERBS and APP not in COMMANDS
    defined = [value for path in sorted(Path(table.__file__).parent.glob("*_verbs.py"))
               for value in vars(importlib.import_module(f"maic_tui.cli.{path.stem}")).values()
               if isinstance(value, Command)]
    assert len(defined) > len(COMMANDS) // 2
    assert {command.name for command in defined} == {APP.name, *VERBS}  # none left out of COMMANDS


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command.name)
def test_every_verb_has_help_shown_by_its_help_flag(command: Command, capsys: pytest.CaptureFixture[str]) -> None:
    assert len(command.help.split()) >= 3, command.name
    assert main([command.name, "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith(f"usage: maic-tui {command.name}") and " ".join(command.help.split()) in out


def test_the_apps_help_names_every_verb(capsys: pytest.CaptureFixture[str]) -> None:
    assert APP.help
    help_text = " ".join(app_parser().format_help().split())
    assert f"other commands: {', '.join(VERBS)} (maic-tui COMMAND --help)" in help_text
    assert main(["--help"]) == 0
    assert "other commands: demo, run," in " ".join(capsys.readouterr().out.split())


def test_reading_the_command_line_loads_no_verbs_work() -> None:
    # Each handler imports its verb's work inside itself: the app's first frame waits for what the table loads.
    code = ("import sys; from maic_tui.cli.table import app_parser, verb_parser; app_parser(); verb_parser(); "
            "print(sorted(m for m in sys.modules if m.startswith('maic_tui.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = ast.literal_eval(out.strip().splitlines()[-1])
    allowed = ("maic_tui.cli", "maic_tui.paths", "maic_tui.data", "maic_tui.i18n")  # i18n: gettext, no more
    assert loaded and all(m.startswith(allowed) for m in loaded), loaded


@pytest.mark.parametrize(("argv", "line"), [
    (["run", "derivatives"], "maic-tui: run needs --say TEXT (a learner message) or --lesson"),
    (["run", "--say", "hi"], "maic-tui: run needs a classroom or --resume ID (one of them)"),
    (["run", "derivatives", "--resume", "abc", "--lesson"],
     "maic-tui: run needs a classroom or --resume ID (one of them)"),
    (["eval", "--from-session", "abc", "--turn", "1"],
     "maic-tui: eval --from-session ID --turn N -o FILE writes a scenario (and takes no scenario names)"),
    (["eval", "x", "--from-session", "abc", "--turn", "1", "-o", "out.toml"],
     "maic-tui: eval --from-session ID --turn N -o FILE writes a scenario (and takes no scenario names)"),
    (["eval", "--turn", "2"],
     "maic-tui: eval --from-session ID --turn N -o FILE writes a scenario (and takes no scenario names)"),
    (["derivatives", "--resume", "abc"], "maic-tui: give a classroom or --resume, not both"),
])
def test_a_combination_a_verb_cannot_take_is_one_line_and_exit_2(argv: list[str], line: str, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--data-dir", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.err == line + "\n" and captured.out == ""
    assert list(tmp_path.iterdir()) == []  # refused before any work
