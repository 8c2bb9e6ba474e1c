"""What the pane shows of an interactive scene below its elements, as its widget's state has it: a simulation's
variables (each on a slider), its computed values and its plot (plotext), or a diagram drawn as text (a flowchart
of boxes, a mind map or a hierarchy as a tree), hidden nodes as blanks. Everything fits ``width``; labels are made
plain text first."""

from __future__ import annotations

from collections import OrderedDict

from rich.style import Style
from rich.text import Span, Text

from maic_tui.formulas import number_text
from maic_tui.i18n import _
from maic_tui.scenes.interactive.model import Diagram, InteractiveScene, Simulation, WidgetState, unit_text
from maic_tui.text_safety import terminal_safe
from maic_tui.whiteboard.render.board_drawing import BoardPalette
from maic_tui.whiteboard.render.slide import INDENT

CURVE_COLORS = ("#3b82f6", "#ef4444", "#10b981", "#f59e0b")
MIN_PLOT_ROWS = 6
MIN_PLOT_COLS = 20


def lines(scene: InteractiveScene, width: int, palette: BoardPalette, state: WidgetState | None = None,
          rows: int = 40) -> list[Text]:
    """The widget as text, ``width`` wide and about ``rows`` tall (the plot takes what is left)."""
    state = state if state is not None else scene.initial()
    if isinstance(scene.widget, Diagram):
        return diagram_lines(scene, scene.widget, state, width, palette)
    return simulation_lines(scene, scene.widget, state, width, rows, palette)


def slider(value: float, low: float, high: float, cells: int) -> str:
    """``├──●─────┤``: where ``value`` sits in its range."""
    cells = max(cells, 3)
    at = 0 if high <= low else round((value - low) / (high - low) * (cells - 1))
    return "├" + "".join("●" if k == at else "─" for k in range(cells)) + "┤"


def simulation_lines(scene: InteractiveScene, widget: Simulation, state: WidgetState, width: int, rows: int,
                     palette: BoardPalette) -> list[Text]:
    values = scene.values(state)
    out: list[Text] = []
    pad = " " * INDENT
    label_width = min(max(len(v.label) for v in widget.variables), max(width // 3, 6))
    for variable in widget.variables:
        marked = state.highlight == variable.name
        value = f"{number_text(values[variable.name])}{unit_text(variable)}"
        head = f"{terminal_safe(variable.label)[:label_width]:<{label_width}} {value:>9} "
        bar = slider(values[variable.name], variable.min, variable.max, width - INDENT - len(head) - 4)
        line = Text(pad + head, style=palette.style(bold=marked))
        line.append(bar if width - INDENT - len(head) >= 7 else "", style=palette.style(palette.grid))
        out.append(line)
    for computed in widget.computed:
        marked = state.highlight == computed.name
        shown = f"{terminal_safe(computed.label)} = {number_text(values[computed.name])}{unit_text(computed)}"
        out.append(Text(pad + ("◆ " if marked else "") + shown, style=palette.style(bold=True)))
    for target, note in state.notes.items():
        out.append(Text(pad + f"✎ {terminal_safe(target)}: {terminal_safe(note)}", style=palette.style(italic=True)))
    plot = widget.plot
    left = rows - len(out) - 1
    if plot is not None and left >= MIN_PLOT_ROWS and width - INDENT >= MIN_PLOT_COLS:
        out.append(Text(pad + terminal_safe(plot.title), style=palette.style(dim=True)) if plot.title else Text(""))
        out += plotted(scene, state, width - INDENT, left - 1, palette, pad)
    for line in out:
        line.truncate(width, overflow="ellipsis")
    return out


def plotted(scene: InteractiveScene, state: WidgetState, cols: int, rows: int, palette: BoardPalette,
            pad: str = "") -> list[Text]:
    """The plot's curves over its range in braille dots, ``cols`` x ``rows`` cells with its axes' numbers and a
    legend, each row after ``pad``. Drawn here rather than by plotext: plotext took some 25 ms a redraw at 60 x 40,
    and a learner holding an arrow key redraws it many times a second (so each row is one string and its spans)."""
    curves = scene.curves(state)
    axis = 7  # the y axis's numbers
    width, height = max(cols - axis, 4), max(rows - 2, 2)  # the legend above, the x axis's numbers below
    first = curves[0][2] if curves and curves[0][2] else [y for _, _, ys in curves for y in ys] or [0.0]
    low, high = min(first), max(first)
    margin = (high - low) * 0.1 or 1.0
    low, high = low - margin, high + margin
    x_low, x_high = scene_range(scene)
    dots = [[0] * width for _ in range(height)]  # braille bits per cell
    owner = [[-1] * width for _ in range(height)]  # which curve drew the cell last
    for number, (_label, xs, ys) in enumerate(curves):
        for cell_y, cell_x, bits in _dots(xs, ys, (x_low, x_high, low, high), width, height):
            dots[cell_y][cell_x] |= bits
            owner[cell_y][cell_x] = number
    colors = [palette.style(CURVE_COLORS[n % len(CURVE_COLORS)]) for n in range(len(curves))]
    legend = Text(pad + " " * axis)
    for number, (label, _xs, _ys) in enumerate(curves):
        legend.append(f"── {terminal_safe(label)[:20]}  ", style=colors[number])
    out = [legend]
    grid = palette.style(palette.grid)
    for row in range(height):
        mark = {0: high, height // 2: (high + low) / 2, height - 1: low}.get(row)
        head = pad + (f"{number_text(mark, 3):>{axis - 1}}┤" if mark is not None else " " * (axis - 1) + "│")
        cells, owners = dots[row], owner[row]
        spans, start, at = [Span(len(pad), len(head), grid)], 0, len(head)
        for col in range(1, width + 1):  # a run of cells of one curve is one span
            if col == width or (owners[col] if cells[col] else -1) != (owners[start] if cells[start] else -1):
                if cells[start]:
                    spans.append(Span(at + start, at + col, colors[owners[start]]))
                start = col
        out.append(Text(head + "".join(chr(0x2800 + bits) if bits else " " for bits in cells), spans=spans))
    ends = f"{number_text(x_low, 3)}".ljust(width // 2) + f"{number_text(x_high, 3)}".rjust(width - width // 2)
    out.append(Text(pad + " " * axis + ends, spans=[Span(len(pad), len(pad) + axis + len(ends), grid)]))
    return out


_BRAILLE = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # the dot's bit by (row, column) in a cell
_DRAWN: OrderedDict[tuple[object, ...], tuple[list[float], list[tuple[int, int, int]]]] = OrderedDict()


def _dots(xs: list[float], ys: list[float], box: tuple[float, float, float, float], width: int,
          height: int) -> list[tuple[int, int, int]]:
    """A curve's braille dots (cell row, cell column, bits) in a ``width`` x ``height`` plot of ``box`` (x from, to,
    y from, to). A curve the scene did not work out again (``InteractiveScene.curves`` keeps one whose inputs are
    the same) is the same list, so its dots are kept too: a change of h draws the secant only."""
    key = (id(ys), width, height, *box)
    if (kept := _DRAWN.get(key)) is not None and kept[0] is ys:  # ``ys`` kept in the value: its id is not reused
        _DRAWN.move_to_end(key)
        return kept[1]
    x_low, x_high, low, high = box
    cells: list[tuple[int, int, int]] = []
    previous: tuple[int, int] | None = None
    for x, y in zip(xs, ys, strict=True):
        if not low <= y <= high:
            previous = None
            continue
        dot = (round((x - x_low) / (x_high - x_low) * (width * 2 - 1)),
               round((high - y) / (high - low) * (height * 4 - 1)))
        cells += ((py // 4, px // 2, _BRAILLE[py % 4][px % 2]) for px, py in _segment(previous, dot))
        previous = dot
    _DRAWN[key] = (ys, cells)
    if len(_DRAWN) > 32:
        _DRAWN.popitem(last=False)
    return cells


def scene_range(scene: InteractiveScene) -> tuple[float, float]:
    plot = getattr(scene.widget, "plot", None)
    return plot.range if plot is not None else (0.0, 1.0)


def _segment(start: tuple[int, int] | None, end: tuple[int, int]) -> list[tuple[int, int]]:
    """The dots from ``start`` to ``end`` (Bresenham), so a steep curve stays joined."""
    if start is None:
        return [end]
    (x0, y0), (x1, y1) = start, end
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    error, out = dx + dy, []
    while True:
        out.append((x0, y0))
        if (x0, y0) == (x1, y1) or len(out) > 4096:
            return out
        twice = 2 * error
        if twice >= dy:
            error += dy
            x0 += sx
        if twice <= dx:
            error += dx
            y0 += sy


def _order(diagram: Diagram) -> list[tuple[str, int]]:
    """The nodes as a walk from the first along the edges (depth first), each once, with its depth; nodes no edge
    reaches come last, at depth 0."""
    children: dict[str, list[str]] = {}
    for edge in diagram.edges:
        children.setdefault(edge.source, []).append(edge.to)
    seen: set[str] = set()
    out: list[tuple[str, int]] = []
    for root in (node.id for node in diagram.nodes):
        stack = [(root, 0)]
        while stack:
            node, depth = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            out.append((node, depth))
            stack += [(child, depth + 1) for child in reversed(children.get(node, [])) if child not in seen]
    return out


def diagram_lines(scene: InteractiveScene, diagram: Diagram, state: WidgetState, width: int,
                  palette: BoardPalette) -> list[Text]:
    hidden = set(scene.hidden(state))
    labels = {node.id: terminal_safe(node.label) for node in diagram.nodes}
    edges = {(edge.source, edge.to): terminal_safe(edge.label) for edge in diagram.edges}
    pad = " " * INDENT
    out: list[Text] = []
    order = _order(diagram)

    def name(node: str) -> str:
        return "?" * min(len(labels[node]), 8) if node in hidden else labels[node]

    def style(node: str) -> Style:
        return palette.style(dim=node in hidden, bold=state.highlight == node)

    if diagram.layout == "flowchart":
        for k, (node, _depth) in enumerate(order):
            text = name(node)[:max(width - INDENT - 4, 1)]
            out.append(Text(pad + "┌" + "─" * (len(text) + 2) + "┐", style=style(node)))
            out.append(Text(pad + "│ " + text + " │", style=style(node)))
            out.append(Text(pad + "└" + "─" * (len(text) + 2) + "┘", style=style(node)))
            _notes(out, state, node, pad, palette)
            following = [to for (source, to) in edges if source == node]
            for to in following:
                back = to in dict(order[:k + 1])
                said = "" if to in hidden or node in hidden else edges[(node, to)]
                arrow = _("↑ back to {node}").format(node=name(to)) if back else "↓"
                out.append(Text(pad + "  " + arrow + (f"  {said}" if said else ""), style=palette.style(dim=True)))
    else:
        marks = {0: "◉ "} if diagram.layout == "mindmap" else {0: "■ "}
        for node, depth in order:
            lead = marks.get(depth, "  " * (depth - 1) + "└─ ")
            out.append(Text(pad + lead + name(node), style=style(node)))
            _notes(out, state, node, pad + "  " * depth, palette)
    if hidden:
        left = _("{count} to reveal: Enter or type {command}").format(count=len(hidden), command="reveal")
        out.append(Text(pad + left, style=palette.style(dim=True)))
    for line in out:
        line.truncate(width, overflow="ellipsis")
    return out


def _notes(out: list[Text], state: WidgetState, node: str, pad: str, palette: BoardPalette) -> None:
    if node in state.notes:
        out.append(Text(pad + f"✎ {terminal_safe(state.notes[node])}", style=palette.style(italic=True)))
