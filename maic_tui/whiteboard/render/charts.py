"""Charts as terminal text: plotext for bar, column, line, area and scatter; a labelled list for the rest.

Pie, ring and radar charts have no faithful character-cell form, so they become a readable list with
proportional bars and percentages (pie, ring) or one line per axis (radar).
"""

from __future__ import annotations

import re
from functools import lru_cache

from rich.style import Style
from rich.text import Text

from maic_tui.colors import to_rgb
from maic_tui.text_cells import cell_len, pad
from maic_tui.text_safety import terminal_safe
from maic_tui.whiteboard.elements import ChartElement

PLOTTED = ("bar", "column", "line", "area", "scatter")
MIN_PLOT = (16, 6)  # smaller boxes get the labelled list: an axis needs room


def _label(text: str) -> str:
    return " ".join(terminal_safe(text).split()) or "?"


def _number(value: float) -> str:
    return f"{value:g}"


def _listed(chart: ChartElement, colors: tuple[str, ...], cols: int) -> list[Text]:
    """The chart as one line per label (pie, ring, tiny boxes) or per axis (radar)."""
    lines: list[Text] = []
    labels = [_label(label) for label in chart.labels]
    series = chart.series
    if chart.chart_type == "radar" or len(series) > 1:
        names = [_label(chart.legends[n]) if n < len(chart.legends) else f"Series {n + 1}" for n in range(len(series))]
        full = [_series_line(label, index, series, names, colors) for index, label in enumerate(labels)]
        if max((line.cell_len for line in full), default=0) <= cols:
            return full
        # Too narrow for the names on every line: a colour key first, then the values in those colours.
        key = [Text(f"■ {name}", style=Style(color=colors[n % len(colors)]), no_wrap=True)
               for n, name in enumerate(names)]
        return key + [_series_line(label, index, series, None, colors) for index, label in enumerate(labels)]
    values = list(series[0]) if series else []
    total = sum(v for v in values if v > 0) or 1.0
    width = max(max((cell_len(label) for label in labels), default=0), 1)
    room = max(cols - width - 9, 1)
    for index, label in enumerate(labels):
        value = values[index] if index < len(values) else 0.0
        share = max(value, 0) / total
        line = Text(f"{pad(label, width)} ", no_wrap=True)
        line.append("█" * max(1, round(share * room)), Style(color=colors[index % len(colors)]))
        line.append(f" {share:.0%}")
        lines.append(line)
    return lines


def _series_line(label: str, index: int, series: list[list[float]] | tuple[tuple[float, ...], ...],
                 names: list[str] | None, colors: tuple[str, ...]) -> Text:
    line = Text(f"{label}: ", no_wrap=True)
    for number, row in enumerate(series):
        if index < len(row):
            shown = f"{names[number]} {_number(row[index])}  " if names else f"{_number(row[index])} "
            line.append(shown, Style(color=colors[number % len(colors)]))
    line.rstrip()
    return line


def _plotted(chart: ChartElement, colors: tuple[str, ...], cols: int, rows: int) -> list[Text]:
    import plotext as plt  # loaded with the first chart: start-up stays fast

    rgb = [to_rgb(c) for c in colors]
    labels = [_label(label) for label in chart.labels]
    legends = [_label(legend) for legend in chart.legends]
    series = [list(row) for row in chart.series]
    plt.clf()
    plt.theme("clear")
    plt.plotsize(cols, rows)
    if chart.chart_type in ("bar", "column"):
        orientation = "horizontal" if chart.chart_type == "bar" else "vertical"
        if len(series) == 1:
            plt.bar(labels, series[0][:len(labels)], color=rgb[0], orientation=orientation)
        else:
            rows_of_values = [row[:len(labels)] for row in series]
            plt.multiple_bar(labels, rows_of_values, labels=legends if len(legends) == len(series) else None,
                             color=[rgb[i % len(rgb)] for i in range(len(series))], orientation=orientation)
    else:
        xs = list(range(1, len(labels) + 1))
        for number, row in enumerate(series):
            legend = legends[number] if number < len(legends) and len(series) > 1 else None
            color = rgb[number % len(rgb)]
            values = row[:len(xs)]
            if chart.chart_type == "scatter":
                plt.scatter(xs[:len(values)], values, color=color, label=legend, marker="●")
            else:
                plt.plot(xs[:len(values)], values, color=color, label=legend, marker="braille",
                         fillx=chart.chart_type == "area")
        plt.xticks(xs, labels)
    built = plt.build()
    plt.clf()
    return [_realigned(Text.from_ansi(line, no_wrap=True, end="")) for line in built.splitlines()]


def _realigned(line: Text) -> Text:
    """plotext lays out by characters: a wide label ("位置") takes a cell more than it counted, which pushes the
    rest of the line right. The next run of padding gives the cells back (one space of it stays, as it may part
    two words), so the plot's columns stay where they were."""
    owed, dropped = 0, list[int]()
    for found in re.finditer(r"\S+|  +", line.plain):
        if found.group().startswith(" "):
            give = min(owed, len(found.group()) - 1)
            dropped += range(found.end() - give, found.end())
            owed -= give
        else:
            owed += cell_len(found.group()) - len(found.group())
    if not dropped:
        return line
    kept = [line[start + 1:end] for start, end in zip([-1, *dropped], [*dropped, len(line.plain)], strict=True)]
    return Text("", no_wrap=True, end="").join(kept)


def plots(chart: ChartElement, cols: int, rows: int) -> bool:
    """Whether the chart is plotted in that box (else it is listed, one line per label)."""
    return chart.chart_type in PLOTTED and cols >= MIN_PLOT[0] and rows >= MIN_PLOT[1] and bool(chart.labels)


def listed_height(chart: ChartElement, cols: int) -> int:
    """How many lines the listed form takes at ``cols`` (without drawing a plot to find out)."""
    return len(_listed(chart, ("#000000",), cols))


@lru_cache(maxsize=64)
def chart_lines(chart: ChartElement, cols: int, rows: int, colors: tuple[str, ...]) -> tuple[Text, ...]:
    """The chart drawn into ``cols`` x ``rows`` cells, series in ``colors`` (already readable on the board)."""
    colors = colors or ("#5b9bd5",)
    if plots(chart, cols, rows):
        try:
            return tuple(_plotted(chart, colors, cols, rows))
        except Exception:  # plotext on odd data (NaN, empty series): the list still shows the numbers
            pass
    return tuple(_listed(chart, colors, cols))
