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
from maic_tui.i18n import N_, _, ngettext
from maic_tui.text_safety import one_line

Key = tuple[str, str, int, str]  # model, scenario, turn, expectation


def summary_line(summary: dict[str, Any]) -> str:
    median = summary.get("medianDecisionMs")
    tokens = summary.get("promptTokens")
    return _("pass rate {rate} ({ok}/{expectations} expectations ok); median decision {median}; prompt tokens "
             "{tokens}; fallbacks {fallbacks} and guard interventions {interventions} a turn").format(
        rate=f"{summary['passRate']:.0%}", ok=summary["expectationsOk"], expectations=summary["expectations"],
        median=_("{ms} ms").format(ms=f"{median:.0f}") if median is not None else "-",
        tokens=tokens if tokens is not None else _("not reported"),
        fallbacks=f"{summary['fallbacksPerTurn']:.2f}", interventions=f"{summary['interventionsPerTurn']:.2f}")


def title(models: int, repeat: int) -> str:
    """The evaluation table's title (a count of models when there are several)."""
    runs = ngettext("{count} run per scenario", "{count} runs per scenario", repeat).format(count=repeat)
    if models:
        return _("Routing evaluation · {models} models · {runs}").format(models=models, runs=runs)
    return _("Routing evaluation · {runs}").format(runs=runs)


# The summary rows under the models' columns: a label, the summary's field, how its value is shown.
_SUMMARY_ROWS = ((N_("pass rate"), "passRate", "{:.0%}"), (N_("median decision ms"), "medianDecisionMs", "{:.0f}"),
                 (N_("prompt tokens"), "promptTokens", "{}"), (N_("fallbacks a turn"), "fallbacksPerTurn", "{:.2f}"),
                 (N_("guard interventions a turn"), "interventionsPerTurn", "{:.2f}"))


def _rates(report: dict[str, Any]) -> dict[tuple[str, int, str], float]:
    return {(s["scenario"], e["turn"], e["expectation"]): e["rate"] for s in report["scenarios"]
            for e in s["expectations"]}


def models_table(models: list[str], reports: list[dict[str, Any]], repeat: int) -> Table:
    table = Table(title=title(len(models), repeat), title_justify="left")
    table.add_column(_("scenario"), overflow="fold")
    table.add_column(_("turn"), justify="right")
    table.add_column(_("expectation"), overflow="fold")
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
    for label, field, shown in _SUMMARY_ROWS:
        values = [s.get(field) for s in summaries]
        table.add_row("", "", Text(_(label), style="bold"),
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
    for column in (_("model"), _("scenario"), _("turn"), _("expectation"), _("before"), _("after"), ""):
        table.add_column(column, overflow="fold")
    worse = better = 0
    for key in sorted(set(old) | set(new)):
        before, after = old.get(key), new.get(key)
        if before == after:
            continue
        if before is not None and after is not None:
            change = Text(_("better"), style="green") if after > before else Text(_("worse"), style="bold red")
            better, worse = better + (after > before), worse + (after < before)
        else:
            change = Text(_("new") if before is None else _("gone"), style="yellow")
        model, scenario, turn, expectation = key
        table.add_row(Text(one_line(model, 30)), Text(one_line(scenario)), str(turn), Text(one_line(expectation)),
                      "-" if before is None else f"{before:.0%}", "-" if after is None else f"{after:.0%}", change)
    same = sum(1 for key in set(old) & set(new) if old[key] == new[key])
    if table.row_count:
        console.print(table)
    console.print(Text(_("{better} better, {worse} worse, {same} unchanged").format(better=better, worse=worse,
                                                                                    same=same),
                       style="bold red" if worse else "bold"))
    for path, report in ((old_path, old_report), (new_path, new_report)):
        if report.partial is not None:
            console.print(Text(one_line(_("note: {name} is a partial report (stopped after {played} of {runs} runs)")
                                        .format(name=Path(path).name, played=report.partial[0],
                                                runs=report.partial[1])), style="yellow"))
    return 1 if worse else 0
