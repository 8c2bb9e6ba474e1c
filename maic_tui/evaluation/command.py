"""``maic-tui eval SCENARIO... [--model SPEC] [--repeat N]``: progress, a table, a JSON report, an exit code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from maic_tui.evaluation.runner import ScenarioRun, prepare, report, run_scenarios
from maic_tui.evaluation.scenario import scenario_names
from maic_tui.settings import resolve_settings
from maic_tui.text_safety import one_line

EXIT_ALL_PASSED, EXIT_BELOW_THRESHOLD = 0, 1


def run_eval(names: list[str], flags: dict[str, Any], repeat: int, report_path: str, out: TextIO,
             err: TextIO) -> int:
    _, options = resolve_settings(flags)  # the key, base URL and timeouts; the model comes from each scenario
    runs = [prepare(name, flags.get("model")) for name in (names or scenario_names())]  # bad files fail first
    total = len(runs) * repeat
    done = 0

    def progress(name: str, number: int, repeats: int) -> None:
        nonlocal done
        done += 1
        line = f"[{done}/{total}] {one_line(name)} (run {number} of {repeats})"
        if err.isatty():
            err.write(f"\r\x1b[2K{line}")
        else:
            err.write(line + "\n")
        err.flush()

    run_scenarios(runs, repeat, options, progress)
    if err.isatty():
        err.write("\r\x1b[2K")
    data = report(runs, repeat)
    Path(report_path).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    # A terminal gets its own width; a file or pipe a wide one, so that names are never cut or folded.
    console = Console(file=out, highlight=False, width=None if out.isatty() else 160)
    console.print(_table(runs, repeat))
    failed = [s for s in data["scenarios"] if not s["ok"]]
    summary = f"{len(runs) - len(failed)} of {len(runs)} scenarios passed; report: {report_path}"
    console.print(Text(summary, style="bold green" if not failed else "bold red"), soft_wrap=True)
    for scenario in failed:
        for error in scenario["errors"]:
            console.print(Text(one_line(f"{scenario['scenario']}: {error}"), style="red"))
    return EXIT_ALL_PASSED if data["ok"] else EXIT_BELOW_THRESHOLD


def _table(runs: list[ScenarioRun], repeat: int) -> Table:
    table = Table(title=f"Routing evaluation · {repeat} run{'s' if repeat != 1 else ''} per scenario",
                  title_justify="left")
    for column, justify in (("scenario", "left"), ("turn", "right"), ("expectation", "left"),
                            ("pass rate", "right"), ("need", "right"), ("", "center"), ("seen when failing", "left")):
        table.add_column(column, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for run in runs:
        first = True
        if run.errors:
            table.add_row(Text(one_line(run.name)), "", Text("(could not run)"), "", "", Text("✗", style="red"),
                          Text(one_line(run.errors[0])))
            first = False
        for tally in run.tallies.values():
            mark = Text("✓", style="green") if tally.ok else Text("✗", style="bold red")
            table.add_row(Text(one_line(run.name) if first else ""), str(tally.turn), Text(tally.name),
                          f"{tally.rate:.0%}", f"{tally.threshold:.0%}", mark,
                          Text(one_line("; ".join(tally.failures), 60)))
            first = False
        table.add_section()
    return table
