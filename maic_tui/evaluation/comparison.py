"""Routing QA at scale (README, *Routing QA*): the same scenarios on several models, one column per model; and two
reports compared (``eval --compare OLD.json NEW.json``), for a prompt change or a model upgrade."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from maic_tui.bad_input import BadInput, Unreadable, describe_path, read_text_file
from maic_tui.i18n import _
from maic_tui.text_safety import one_line

Key = tuple[str, str, int, str]  # model, scenario, turn, expectation


def summary_line(summary: dict[str, Any]) -> str:
    median = summary.get("medianDecisionMs")
    tokens = summary.get("promptTokens")
    return (f"pass rate {summary['passRate']:.0%} ({summary['expectationsOk']}/{summary['expectations']} "
            f"expectations ok); median decision {f'{median:.0f} ms' if median is not None else '-'}; "
            f"prompt tokens {tokens if tokens is not None else 'not reported'}; fallbacks "
            f"{summary['fallbacksPerTurn']:.2f} and guard interventions {summary['interventionsPerTurn']:.2f} a turn")


def _rates(report: dict[str, Any]) -> dict[tuple[str, int, str], float]:
    return {(s["scenario"], e["turn"], e["expectation"]): e["rate"] for s in report["scenarios"]
            for e in s["expectations"]}


def models_table(models: list[str], reports: list[dict[str, Any]], repeat: int) -> Table:
    table = Table(title=f"Routing evaluation · {len(models)} models · {repeat} run{'s' if repeat != 1 else ''} "
                  "per scenario", title_justify="left")
    table.add_column("scenario", overflow="fold")
    table.add_column("turn", justify="right")
    table.add_column("expectation", overflow="fold")
    for model in models:
        table.add_column(Text(one_line(model, 30)), justify="right")
    rates = [_rates(report) for report in reports]
    keys = list(dict.fromkeys(key for rate in rates for key in rate))
    last = ""
    for scenario, turn, expectation in keys:
        cells = []
        for rate in rates:
            value = rate.get((scenario, turn, expectation))
            cells.append(Text("-") if value is None else Text(f"{value:.0%}", style="green" if value == 1 else "red"))
        table.add_row(Text(one_line(scenario) if scenario != last else ""), str(turn), Text(one_line(expectation)),
                      *cells)
        last = scenario
    table.add_section()
    summaries = [report["summary"] for report in reports]
    for label, field, shown in (("pass rate", "passRate", "{:.0%}"),
                                ("median decision ms", "medianDecisionMs", "{:.0f}"),
                                ("prompt tokens", "promptTokens", "{}"),
                                ("fallbacks a turn", "fallbacksPerTurn", "{:.2f}"),
                                ("guard interventions a turn", "interventionsPerTurn", "{:.2f}")):
        values = [s.get(field) for s in summaries]
        table.add_row("", "", Text(label, style="bold"),
                      *(Text("-" if value is None else shown.format(value)) for value in values))
    return table


class _Report:
    """A report read back: its pass rates by model (one report of one model: its own name), scenario, turn and
    expectation, and how many of its runs were played when it was stopped early (None: it was not)."""

    def __init__(self, path: str) -> None:
        name = describe_path(path)
        try:
            data = json.loads(read_text_file(path, "eval report"))
            if not isinstance(data, dict):
                raise ValueError(_("a JSON {kind}, not an object").format(kind=type(data).__name__))
            reports = data.get("models", [{"model": "", **data}])
            self.rates = {(str(r["model"]), str(s["scenario"]), int(e["turn"]), str(e["expectation"])): _rate(e)
                          for r in reports for s in r["scenarios"] for e in s["expectations"]}
            self.partial = (int(data.get("runsPlayed", 0)), int(data.get("runs", 0))) if data.get("partial") else None
        except Unreadable as exc:
            raise BadInput(f"{name}: {exc.reason}") from None
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise BadInput(_("{path}: not a maic-tui eval report ({problem})").format(
                path=name, problem=one_line(str(exc), 80))) from None


def _rate(expectation: dict[str, Any]) -> float:
    rate = float(expectation["rate"])
    if not 0 <= rate <= 1:  # NaN and infinities too
        raise ValueError(_("a pass rate of {rate}").format(rate=repr(rate)))
    return rate


def compare(old_path: str, new_path: str, out: TextIO) -> int:
    """What changed from one report to the other, per scenario and expectation; 0 when nothing got worse."""
    old_report, new_report = _Report(old_path), _Report(new_path)
    old, new = old_report.rates, new_report.rates
    console = Console(file=out, highlight=False, width=None if out.isatty() else 160)
    table = Table(title=f"{one_line(Path(old_path).name)} -> {one_line(Path(new_path).name)}", title_justify="left")
    for column in ("model", "scenario", "turn", "expectation", "before", "after", ""):
        table.add_column(column, overflow="fold")
    worse = better = 0
    for key in sorted(set(old) | set(new)):
        before, after = old.get(key), new.get(key)
        if before == after:
            continue
        if before is not None and after is not None:
            change = Text("better", style="green") if after > before else Text("worse", style="bold red")
            better, worse = better + (after > before), worse + (after < before)
        else:
            change = Text("new" if before is None else "gone", style="yellow")
        model, scenario, turn, expectation = key
        table.add_row(Text(one_line(model, 30)), Text(one_line(scenario)), str(turn), Text(one_line(expectation)),
                      "-" if before is None else f"{before:.0%}", "-" if after is None else f"{after:.0%}", change)
    same = sum(1 for key in set(old) & set(new) if old[key] == new[key])
    if table.row_count:
        console.print(table)
    console.print(Text(f"{better} better, {worse} worse, {same} unchanged", style="bold red" if worse else "bold"))
    for path, report in ((old_path, old_report), (new_path, new_report)):
        if report.partial is not None:
            console.print(Text(one_line(f"note: {Path(path).name} is a partial report (stopped after "
                                        f"{report.partial[0]} of {report.partial[1]} runs)"), style="yellow"))
    return 1 if worse else 0
