"""How fast the lecture (and the demo model) speaks, as a reader counts it (ARCHITECTURE.md, *The lesson*): words
a minute, one step at a time (the lesson waits for F7 after each step), or as fast as possible. A word is counted
as six characters (five letters and a space), so 250 words a minute, a comfortable reading pace, is 25
characters a second."""

from __future__ import annotations

from dataclasses import dataclass

from maic_tui.i18n import _

CHARS_PER_WORD = 6
READING_WPM = 250
# The paces F8 and F9 step through; below the slowest, the lesson goes one step at a time (read at 250).
LEVELS_WPM = (100, 150, 200, 250, 300, 400, 600, 900, 1500)


@dataclass(frozen=True, slots=True)
class Pace:
    chars_per_second: float  # 0: as fast as possible
    step_by_step: bool = False  # the lesson waits for F7 after each step

    @classmethod
    def of_words(cls, wpm: float) -> Pace:
        return cls(wpm * CHARS_PER_WORD / 60)

    @property
    def wpm(self) -> float:
        return self.chars_per_second * 60 / CHARS_PER_WORD

    def slower(self) -> Pace:
        if self.step_by_step:
            return self
        if self.chars_per_second == 0:
            return Pace.of_words(LEVELS_WPM[-1])
        below = [level for level in LEVELS_WPM if level < round(self.wpm)]
        # One step at a time, each read at a reading pace: the learner sets the pace between steps.
        return Pace.of_words(below[-1]) if below else Pace(READING_WPM * CHARS_PER_WORD / 60, step_by_step=True)

    def faster(self) -> Pace:
        if self.step_by_step:
            return Pace.of_words(LEVELS_WPM[0])
        if self.chars_per_second == 0:
            return self
        above = [level for level in LEVELS_WPM if level > round(self.wpm)]
        return Pace.of_words(above[0]) if above else self

    def words(self) -> str:
        """As the lesson line says it."""
        if self.step_by_step:
            return _("step by step")
        if self.chars_per_second == 0:
            return _("at once")
        return _("{wpm} wpm").format(wpm=round(self.wpm))


READING_PACE = Pace.of_words(READING_WPM)
