"""Progress of the long commands: a live `rich` line on a terminal, nothing on a pipe."""

from __future__ import annotations

import atexit
import sys
import time
from typing import Any, TextIO

_REFRESH_S = 0.1
"""Shortest time between two redraws (the last one is always drawn)."""
_LIVE: set[ProgressLine] = set()
"""Lines drawing now: `close_all` finishes them before an error message (and at exit), so the cursor comes back."""


def close_all() -> None:
    """Finish every live progress line (before printing an error, or when the command is interrupted)."""
    for line in list(_LIVE):
        line.close()


class ProgressLine:
    """A live progress line with rate and time left, and a second line for the steps inside one long item.

    `rich` is imported only when the stream is a terminal, so pipes, `--quiet` and `--help` never load it.
    """

    def __init__(self, label: str, unit: str = "items", stream: TextIO | None = None, enabled: bool = True) -> None:
        """Set up the line; nothing is drawn before the first call.

        Args:
            label: What is being done (`audit`, `factcheck`, `calibrate`).
            unit: What is counted, shown with the rate (`lines/s`).
            stream: Where to draw (default stderr).
            enabled: False to stay silent regardless of the stream.
        """
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = enabled and bool(isatty and isatty())
        self.label, self.unit = label, unit
        self._progress: Any = None
        self._task: Any = None
        self._inner: Any = None
        self._drawn = 0.0

    def _start(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        console = Console(file=self.stream, force_terminal=True, highlight=False)
        rate = TextColumn("{task.fields[rate]}")
        self._progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), rate,
                                  TimeElapsedColumn(), TimeRemainingColumn(), TextColumn("left"),
                                  console=console, auto_refresh=False, transient=False)
        self._progress.start()
        if not _LIVE:
            atexit.register(close_all)
        _LIVE.add(self)
        self._task = self._progress.add_task(self.label, total=total, rate="")

    def __call__(self, done: int, total: int) -> None:
        """Show `done` of `total` items; the line is finished when `done == total`.

        Args:
            done: Items finished.
            total: All items.
        """
        if not self.enabled or total <= 0:
            return
        if self._progress is None:
            self._start(total)
        speed = self._progress.tasks[self._task].speed
        rate = f"{speed:,.0f} {self.unit}/s" if speed and speed >= 10 else f"{speed:.1f} {self.unit}/s" if speed \
            else ""
        self._progress.update(self._task, completed=done, total=total, rate=rate)
        if self._inner is not None:  # the item whose steps it showed is done
            self._progress.remove_task(self._inner)
            self._inner = None
        self._draw(force=done >= total)
        if done >= total:
            self.close()

    def step(self, what: str, done: int, total: int) -> None:
        """Show progress inside one item (the turns of a long conversation) on a second line.

        Args:
            what: The item (`h.jsonl:3`).
            done: Steps of the item finished.
            total: All its steps.
        """
        if not self.enabled or self._progress is None or total <= 0:
            return
        if self._inner is None:
            self._inner = self._progress.add_task(f"  {what}", total=total, rate="")
        self._progress.update(self._inner, description=f"  {what}", completed=done, total=total)
        self._draw(force=False)

    def _draw(self, force: bool) -> None:
        now = time.monotonic()
        if force or now - self._drawn >= _REFRESH_S:
            self._drawn = now
            self._progress.refresh()

    def close(self) -> None:
        """Finish the line (idempotent)."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
        _LIVE.discard(self)
