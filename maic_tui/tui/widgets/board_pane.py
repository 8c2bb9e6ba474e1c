"""The whiteboard drawn to scale at whatever size the pane has, or the current slide when the board is
closed (with the spotlight / laser on its element; a tall pane keeps the board's drawings in sight below it).
Maximised (F4), ← and → step through the boards the class cleared earlier (the whiteboard keeps them as
snapshots) and back to the board of now."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.reactive import reactive
from textual.widget import Widget

from maic_tui import text_cells
from maic_tui.i18n import N_, _, ngettext
from maic_tui.tui.plain import plain
from maic_tui.tui.theming import board_palette
from maic_tui.tui.widgets.drawn_rows import DrawnRows

if TYPE_CHECKING:
    from textual.content import Content
    from textual.strip import Strip

    from maic_tui.room.view import ClassroomView
    from maic_tui.tui.themes import ThemeSpec
    from maic_tui.whiteboard.elements import Element

Mode = Literal["auto", "board", "slide"]
SPLIT_ROWS = 30  # a pane at least this tall shows the slide and, below it, what the board holds


class BoardPane(Widget, can_focus=False):
    """``mode`` "auto" follows the board (open → board, closed → slide); F3 pins one or the other."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "earlier", N_("Earlier board")),  # only while maximised: it has the focus only then
        Binding("right", "later", N_("Later board")),
    ]

    mode: reactive[Mode] = reactive("auto")
    looking_back: reactive[int | None] = reactive(None)  # an earlier board shown (a snapshot's index), or now

    def __init__(self, view: ClassroomView, themes: dict[str, ThemeSpec]) -> None:
        super().__init__(id="board")
        self.view = view
        self.themes = themes
        self._version = -1
        self._board_changes = -1
        self._cache: tuple[object, list[Text]] | None = None
        self._title: str | Content | None = None  # the border title last set
        self.rows = DrawnRows()  # the rows on screen: a change redraws the rows it changed (a slider, the plot)
        self._visible: int | None = None  # elements with a cell on screen, once drawn
        self._cut = 0  # elements cut short by another's cells at this size

    def on_mount(self) -> None:
        self.refresh_titles()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """← and → show (in the footer) only when there is an earlier or a later board to go to."""
        if action == "earlier":
            return bool(self.view.board.history) and self.looking_back != 0
        if action == "later":
            return self.looking_back is not None
        return True

    def action_earlier(self) -> None:
        count = len(self.view.board.history)
        if count:
            self.mode = "board"
            self.looking_back = count - 1 if self.looking_back is None else max(0, self.looking_back - 1)

    def action_later(self) -> None:
        if self.looking_back is not None:
            later = self.looking_back + 1
            self.looking_back = later if later < len(self.view.board.history) else None

    def watch_looking_back(self) -> None:
        self.refresh_titles()
        self.refresh_bindings()
        self.refresh()

    def _elements(self) -> tuple[Element, ...]:
        history = self.view.board.history
        if self.looking_back is not None and self.looking_back < len(history):
            return history[self.looking_back].elements
        return self.view.board.elements

    @property
    def showing_board(self) -> bool:
        if self.mode != "auto":
            return self.mode == "board" or self.view.scene is None
        return self.view.board.is_open or self.view.scene is None

    def sync(self, view: ClassroomView) -> None:
        self.view = view
        if view.board_version != self._version:
            if view.board_changes != self._board_changes:
                self._board_changes = view.board_changes
                self.mode = "auto"  # new board work: show it again
            self._version = view.board_version
            self.refresh_titles()
            self._redraw()

    def _redraw(self) -> None:
        """The rows that changed drawn again (a slider and the plot's curve, not the whole slide)."""
        before = len(self.rows)
        changed = self.rows.show(self.shown_lines())
        if len(self.rows) != before or not self.size.width:
            self.refresh()
        elif changed:
            self.refresh(*(Region(0, y, self.size.width, 1) for y in changed))

    def toggle(self) -> None:
        self.mode = "slide" if self.showing_board else "board"

    def watch_mode(self) -> None:
        self.refresh_titles()
        self.refresh()

    def refresh_titles(self) -> None:
        """The border title: what the pane shows, and (maximised) the earlier boards to step back to."""
        view = self.view
        title: str | Content | None = None
        if self.showing_board:
            count = len(self._elements()) if self._visible is None else self._visible
            cut = _(" · some cut: F4 enlarges") if self._cut and not self.has_class("-maximized") else ""
            title = ngettext("Whiteboard · {count} element", "Whiteboard · {count} elements",
                             count).format(count=count) + cut
            earlier = len(view.board.history)
            if self.looking_back is not None:
                title = ngettext("Earlier board {number} of {earlier} · {count} element · ← → · Esc",
                                 "Earlier board {number} of {earlier} · {count} elements · ← → · Esc",
                                 count).format(number=self.looking_back + 1, earlier=earlier, count=count)
            elif earlier and self.has_class("-maximized"):
                title += ngettext(" · ← {earlier} earlier board", " · ← {earlier} earlier boards",
                                  earlier).format(earlier=earlier)
        elif view.scene is not None:  # a border title string would be read as markup
            title = plain(_("Slide {number}/{count} · {title}").format(
                number=view.scene_index + 1, count=len(view.classroom.scenes), title=view.scene.title))
        if title is not None and title != self._title:  # a title set redraws the whole pane
            self._title = title
            self.border_title = title

    def render_lines(self, crop: Region) -> list[Strip]:
        self.rows.show(self.shown_lines())
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        return self.rows.strip(self, y)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.rows.forget()

    def shown_lines(self) -> list[Text]:
        """What the pane shows, a Text a row, laid out for its size (kept until the board, slide or size change)."""
        from maic_tui.whiteboard.render import draw_board, fitted_size, render_slide

        width, height = self.content_size
        palette = board_palette(self.app, self.themes)
        key = (self._version, self.showing_board, width, height, palette, self.looking_back)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        base = Style(color=palette.ink, bgcolor=palette.background)
        if self.showing_board:
            elements = self._elements()
            if not elements:
                self._visible, self._cut = None, 0
                lines = [Text(_("The whiteboard is empty."), style=base + Style(dim=True, italic=True))]
            else:
                cols, rows = fitted_size(width, height)
                drawn = draw_board(elements, cols, rows, palette)
                pad = " " * ((width - cols) // 2)
                lines = [Text(pad) + line for line in drawn.lines]
                if (drawn.visible, drawn.cut) != (self._visible, self._cut):
                    self._visible, self._cut = drawn.visible, drawn.cut
                    self.call_later(self.refresh_titles)  # the title counts what is on screen
        else:
            assert self.view.scene is not None
            elements = self.view.board.elements
            if elements and height >= SPLIT_ROWS:  # room for both: what the scene drew stays in sight
                slide_rows = height // 2
                lines = render_slide(self.view.scene, width, slide_rows, palette, self.view.pointer,
                                     self.view.scene_states.of(self.view.scene))
                lines += [Text("")] * (slide_rows - len(lines))
                rule = "─ " + ngettext("whiteboard · {count} element (F3)", "whiteboard · {count} elements (F3)",
                                       len(elements)).format(count=len(elements)) + " "
                lines.append(Text(text_cells.pad(rule, width, "─"), style=palette.style(palette.grid)))
                cols, rows = fitted_size(width, height - slide_rows - 1)
                pad = " " * ((width - cols) // 2)
                lines += [Text(pad) + line for line in draw_board(elements, cols, rows, palette).lines]
            else:
                lines = render_slide(self.view.scene, width, height, palette, self.view.pointer,
                                     self.view.scene_states.of(self.view.scene))
        self._cache = (key, lines)
        return lines
