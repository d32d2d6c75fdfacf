"""The spans of a text the mention extractors have claimed, asked whether a new one is free."""

from __future__ import annotations

from bisect import bisect_left


class Taken:
    """Spans already claimed by a higher-priority mention.

    A span is free when the taken span with the last start before its end (of those, the first
    taken) ends by its start. Each reading takes its spans left to right, so they are kept in runs
    of rising starts, one run per stretch taken in order: taking one appends to the last run (one
    sorted list would move its tail on every insert, quadratic over a long text), and `free` asks
    each run. Past `_MAX_RUNS` runs they are merged into one.
    """

    def __init__(self) -> None:
        self.runs: list[tuple[list[int], list[int]]] = []
        """(starts, ends) of each run, in the order they were taken."""

    def free(self, start: int, end: int) -> bool:
        """Whether `text[start:end]` may still be claimed (see the class)."""
        best, best_end = -1, 0
        for starts, ends in self.runs:  # an earlier run wins a tie: its span was taken first
            i = bisect_left(starts, end)
            if i and starts[i - 1] > best:
                best, j = starts[i - 1], i - 1
                if j and starts[j - 1] == best:
                    j = bisect_left(starts, best, 0, j)  # the first taken of those starting there
                best_end = ends[j]
        return best < 0 or best_end <= start

    def take(self, start: int, end: int) -> None:
        """Claim `text[start:end]` (it need not be free: some readings take a span without asking)."""
        if not self.runs or start < self.runs[-1][0][-1]:
            if len(self.runs) >= _MAX_RUNS:
                self._merge()
            self.runs.append(([], []))
        starts, ends = self.runs[-1]
        starts.append(start)
        ends.append(end)

    def _merge(self) -> None:
        """One run of every span, by start, the first taken first among equal starts (a stable sort)."""
        spans = sorted(((s, e) for starts, ends in self.runs for s, e in zip(starts, ends, strict=True)),
                       key=lambda span: span[0])
        self.runs = [([s for s, _ in spans], [e for _, e in spans])]


_MAX_RUNS = 4
"""Runs of taken spans `Taken` keeps before merging them (a reading takes a few: one per pass)."""
