"""Taken spans: kept in runs, they answer exactly as one sorted list of them did."""

from bisect import bisect_left

from hypothesis import given, settings
from hypothesis import strategies as st

from factcheck.extractors.taken import Taken


class _SortedTaken:
    """Taken spans in one sorted list, a new span before those of its start (as `Taken` was)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def free(self, start: int, end: int) -> bool:
        i = bisect_left(self.starts, end)
        return i == 0 or self.ends[i - 1] <= start

    def take(self, start: int, end: int) -> None:
        i = bisect_left(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)


_SPAN = st.tuples(st.integers(0, 60), st.integers(0, 8)).map(lambda s: (s[0], s[0] + s[1]))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.booleans(), _SPAN), max_size=80))
def test_taken_spans_answer_as_one_sorted_list(steps: list[tuple[bool, tuple[int, int]]]) -> None:
    # overlapping spans and equal starts included: some readings take a span without asking
    runs, reference = Taken(), _SortedTaken()
    for take, (start, end) in steps:
        if take:
            runs.take(start, end)
            reference.take(start, end)
        else:
            assert runs.free(start, end) == reference.free(start, end)
    for start in range(0, 70):
        for end in (start, start + 1, start + 5):
            assert runs.free(start, end) == reference.free(start, end)
