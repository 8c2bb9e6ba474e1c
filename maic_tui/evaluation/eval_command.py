"""``maic-tui eval SCENARIO... [--model SPEC]... [--repeat N]``: progress, a table (a column per model when several
are compared), a JSON report, an exit code."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from maic_tui.evaluation.comparison import models_table, summary_line, title
from maic_tui.evaluation.runner import Progress, ScenarioRun, prepare, report, run_scenarios
from maic_tui.evaluation.scenario import scenario_names
from maic_tui.evaluation.stopping import interruptible
from maic_tui.files import check_target, write_atomically
from maic_tui.i18n import _
from maic_tui.settings import resolve_settings
from maic_tui.text_safety import one_line

EXIT_ALL_PASSED, EXIT_BELOW_THRESHOLD = 0, 1


def run_eval(names: list[str], flags: dict[str, Any], repeat: int, report_path: str, out: TextIO,
             err: TextIO, concurrency: int = 1) -> int:
    """``flags["model"]``: the models to compare (a list; none: each scenario's own); ``concurrency``: runs played at
    once against the model server."""
    target = check_target(Path(report_path), "report")  # before any run: a report that cannot be written loses all
    models: list[str] = list(flags.get("model") or [])
    _spec, options = resolve_settings({**flags, "model": None})  # the key, base URL and timeouts
    names = names or scenario_names()
    chosen: list[str | None] = [*models] or [None]
    by_model = [[prepare(name, model) for name in names] for model in chosen]  # bad files fail first
    total = len(names) * repeat * len(by_model)
    with interruptible() as stop, progress_on(err, total) as progress:
        for runs in by_model:
            run_scenarios(runs, repeat, options, progress, concurrency, stop)
    played = sum(run.played for runs in by_model for run in runs)
    reports = [report(runs, repeat) for runs in by_model]
    if len(models) > 1:
        data: dict[str, Any] = {"repeat": repeat, "ok": all(r["ok"] for r in reports),
                                "models": [{"model": model, **r} for model, r in zip(models, reports, strict=True)]}
    else:
        data = reports[0]
    if stop.exit_code is not None:  # what was played is reported, and marked as a part: it passes nothing
        data = {"partial": True, "runsPlayed": played, "runs": total, **data, "ok": False}
    write_atomically(target, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    # A terminal gets its own width; a file or pipe a wide one, so that names are never cut or folded.
    console = Console(file=out, highlight=False, width=None if out.isatty() else 160)
    if len(models) > 1:
        console.print(models_table(models, reports, repeat))
    else:
        console.print(_table(by_model[0], repeat))
        console.print(Text(summary_line(reports[0]["summary"]), style="dim"), soft_wrap=True)
    failed = [(model, s) for model, r in zip(models or [""], reports, strict=True) for s in r["scenarios"]
              if not s["ok"]]
    passed = len(names) * len(reports) - len(failed)
    summary = _("{passed} of {count} scenarios passed; report: {path}").format(
        passed=passed, count=len(names) * len(reports), path=one_line(str(target)))
    if stop.exit_code is not None:  # a part of the runs passes nothing, whatever its rates
        summary = _("stopped after {played} of {total} runs: {passed} of {count} scenarios passed in them, which does "
                    "not pass the eval; report: {path}").format(played=played, total=total, passed=passed,
                                                               count=len(names) * len(reports),
                                                               path=one_line(str(target)))
    console.print(Text(summary, style="bold green" if data["ok"] else "bold red"), soft_wrap=True)
    for model, scenario in failed:
        for error in scenario["errors"]:
            where = f"{model}: " if model else ""
            console.print(Text(one_line(f"{where}{scenario['scenario']}: {error}"), style="red"))
    if stop.exit_code is not None:
        err.write(_("maic-tui: eval stopped after {played} of {total} runs; partial report: {path}").format(
            played=played, total=total, path=one_line(str(target))) + "\n")
        return stop.exit_code
    return EXIT_ALL_PASSED if data["ok"] else EXIT_BELOW_THRESHOLD


@contextmanager
def progress_on(err: TextIO, total: int) -> Iterator[Progress]:
    """A progress bar on a terminal; one line a run otherwise (a log, a pipe)."""
    done = 0
    if not err.isatty():
        def line(name: str, number: int, repeats: int) -> None:
            nonlocal done
            done += 1
            err.write(f"[{done}/{total}] " + _run_of(name, number, repeats) + "\n")
            err.flush()

        yield line
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as Bar

    with Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
             console=Console(file=err), transient=True) as bar:
        task = bar.add_task("eval", total=total)

        def advance(name: str, number: int, repeats: int) -> None:
            bar.update(task, advance=1, description=one_line(_run_of(name, number, repeats), 40))

        yield advance


def _run_of(name: str, number: int, repeats: int) -> str:
    return _("{scenario} (run {number} of {runs})").format(scenario=one_line(name), number=number, runs=repeats)


def _table(runs: list[ScenarioRun], repeat: int) -> Table:
    table = Table(title=title(0, repeat), title_justify="left")
    for column, justify in ((_("scenario"), "left"), (_("turn"), "right"), (_("expectation"), "left"),
                            (_("pass rate"), "right"), (_("need"), "right"), ("", "center"),
                            (_("seen when failing"), "left")):
        table.add_column(column, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for run in runs:
        first = True
        if run.errors:
            table.add_row(Text(one_line(run.name)), "", Text(_("(could not run)")), "", "", Text("✗", style="red"),
                          Text(one_line(run.errors[0])))
            first = False
        for tally in run.tallies.values():
            mark = Text("✓", style="green") if tally.ok else Text("✗", style="bold red")
            table.add_row(Text(one_line(run.name) if first else ""), str(tally.turn), Text(one_line(tally.name)),
                          f"{tally.rate:.0%}", f"{tally.threshold:.0%}", mark,
                          Text(one_line("; ".join(tally.failures), 60)))
            first = False
        table.add_section()
    return table
