"""A progress bar on standard error, for the work of a command that can take minutes.

Nothing is written for work that is over within :data:`DELAY` seconds, so quick runs
stay silent. After that, on a terminal, one line is redrawn in place (at most every
:data:`REDRAW` seconds) and ended with a newline when the work is done or stops;
anywhere else (a log file, a pipe) a line is written at most every :data:`LOG_EVERY`
seconds, and a last one at the end. Standard output is never touched.

The environment variable ``IRMEANS_PROGRESS=off`` silences every bar (for logs that
must not depend on the machine's speed, such as tests comparing standard error).
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

__all__ = ["Progress", "DELAY", "ENV"]

#: The environment variable that turns the bars off when set to ``off`` (or ``0``, ``no``, ``false``).
ENV = "IRMEANS_PROGRESS"

#: Seconds of work before anything is shown.
DELAY = 2.0
#: Seconds between redraws of the bar on a terminal.
REDRAW = 0.2
#: Seconds between lines when standard error is not a terminal.
LOG_EVERY = 10.0
_WIDTH = 24


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class Progress:
    """Counts work towards ``total`` and shows how far it is, once it has taken more than :data:`DELAY` s.

    Use it as a context manager and call :meth:`update` with each piece done::

        with Progress(40_000, "irmeans consistency", "splits") as bar:
            for piece in work:
                ...
                bar.update(len(piece))

    ``what`` (optional) follows the count, as in "10,000 splits (4 averages)". With
    ``per`` > 1, ``total`` and the updates count pieces of which ``per`` make one
    unit shown (a split is done when all 4 of its averages are): the count shown
    is rounded down.
    """

    def __init__(
        self, total: int, prefix: str, unit: str, *, what: str = "", per: int = 1, stream: TextIO | None = None
    ):
        self.total = max(1, int(total))
        self.per = per
        self.prefix = prefix
        self.unit = unit
        self.what = what
        self.stream = sys.stderr if stream is None else stream
        try:
            self.tty = bool(self.stream.isatty())
        except (AttributeError, ValueError, OSError):
            self.tty = False
        self.done = 0
        self.silent = os.environ.get(ENV, "").strip().lower() in {"off", "0", "no", "false"}
        self.started = time.monotonic()
        self.shown_at: float | None = None  # when the bar was last written, None before the first time
        self.shown_done: int | None = None  # the count it showed then
        self.width = 0  # length of the line on the terminal, to blank it out when it shrinks

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(finished=exc[0] is None)

    def update(self, k: int = 1) -> None:
        """Count ``k`` more units done; redraw if it is time."""
        self.done += k
        if self.silent:
            return
        now = time.monotonic()
        if self.shown_at is None:
            if now - self.started < DELAY:
                return
        elif now - self.shown_at < (REDRAW if self.tty else LOG_EVERY):
            return
        self._show(now)

    def close(self, finished: bool = True) -> None:
        """End the bar: its last state if it was ever shown, and the end of its line on a terminal."""
        if self.shown_at is None:
            return
        if self.shown_done != self.done and (finished or self.tty):
            self._show(time.monotonic(), last=True)
        elif self.tty:
            self._write("\n")

    def line(self, now: float) -> str:
        """The text of the bar at time ``now``."""
        share = min(1.0, self.done / self.total)
        filled = int(share * _WIDTH)
        elapsed = now - self.started
        text = (
            f"{self.prefix}: {share:4.0%} [{'#' * filled}{'-' * (_WIDTH - filled)}] "
            f"{self.done // self.per:,} of {self.total // self.per:,} {self.unit}{self.what}, {_duration(elapsed)}"
        )
        if 0 < self.done < self.total:
            text += f", about {_duration(max(1.0, elapsed * (self.total - self.done) / self.done))} left"
        return text

    def _show(self, now: float, last: bool = False) -> None:
        text = self.line(now)
        if self.tty:
            self._write("\r" + text + " " * max(0, self.width - len(text)) + ("\n" if last else ""))
            self.width = len(text)
        else:
            self._write(text + "\n")
        self.shown_at, self.shown_done = now, self.done

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # standard error closed or full: the work goes on without a bar
            pass
