"""Number look-ups over one run's walked evidence: equal values, a field's values, each call's operands."""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from decimal import Decimal
from functools import cached_property
from itertools import repeat
from typing import Any

from factcheck.extractors.mentions import Mention
from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.flat import Flat, Leaf, number_text, shape_of
from factcheck.grounding.search import HITS_READ, NEAR, merge_hits, windows
from factcheck.grounding.walked import DIGIT, Located, WalkedEvidence, add_number, count_number
from factcheck.lexicon import field_name
from factcheck.report import FactKind

_MASKED = re.compile(r"(?:[*•●xX]{2,}|\.{3,})[ -]?$")
"""Mask marks right before digits ("****3407", "•••• 1234"): the end of a masked card or account number,
no value of the field the string stands under."""
_UNIT_NUMBERS = 20
"""How many numbers of one field a unit conversion reads."""
_DERIVED_OPERANDS = 40
"""How many numbers of one tool call arithmetic may combine."""
MONEY_OPERANDS = 60
"""How many amounts of money of one tool call a price difference may take (a catalogue's variants)."""
_LEADING_CHARS = 4096
"""How much of a long string is read first for its leading numbers (operands for arithmetic)."""


class NumberLookups(WalkedEvidence):
    """The numbers of the walked evidence, found by value, by field or by call (sorted look-ups, read once)."""

    def _names_field(self, shape: str, labels: frozenset[str]) -> bool:
        """Whether a path shape names one of the field `labels` (a new shape's words are checked first)."""
        info = self.lex.path_cache.get(shape)
        if info is None:
            if not any(self.shape_holds(shape, "field", label) for label in labels):
                return False
            info = self.path_info(shape)
        return not info[0].isdisjoint(labels)

    def equal_numbers(self, targets: list[tuple[Decimal, int]]) -> list[Located]:
        """Numbers equal to any target at its precision: JSON numbers, list lengths, numbers in text.

        Args:
            targets: (value, exponent of the last written digit) pairs.
        """
        out = self._json_numbers(targets)
        for count, leaf in self.list_counts:
            if any(equal_at(Decimal(count), t, e) for t, e in targets):
                out.append(count_number(leaf))
        hits: dict[int, list[int] | None] = {}
        for target, exponent in targets:
            merge_hits(hits, self.strings.number_entries(target, exponent))
        for entry in sorted(hits):
            for loc in self._mentions_near(entry, hits[entry]):
                if loc.mention.kind == FactKind.NUMBER and any(
                    equal_at(Decimal(loc.mention.value), t, e) for t, e in targets
                ):
                    out.append(loc)
        return out

    def _json_numbers(self, targets: list[tuple[Decimal, int]]) -> list[Located]:
        columns, (sizes, places), (minor_sizes, minor_places) = self._number_columns
        # each target as a float, and half a unit of its last digit (and a hair more, for float rounding)
        near = [(target, exponent, float(target), float(Decimal(5).scaleb(exponent - 1)) * 1.000001)
                for target, exponent in targets]
        # (field, target, scale, size, place): the order of a walk field by field, target by target, each
        # field's numbers by absolute value (in document order when equal)
        found: list[tuple[int, int, int, Any, int]] = []
        for j, (_, _, as_float, half) in enumerate(near):
            for s, (scale, column_sizes, column_places) in enumerate(
                ((1, sizes, places), (100, minor_sizes, minor_places))  # a field of hundredths: also x100
            ):
                t = as_float * scale
                lo = bisect_left(column_sizes, t - half * scale)
                hi = bisect_right(column_sizes, t + half * scale)
                found += [(column, j, s, size, at) for size, (column, at) in
                          zip(column_sizes[lo:hi], column_places[lo:hi], strict=True)]
        out = []
        for column, j, _, _, at in sorted(found):
            flat, shape, (values, nodes, keys) = columns[column]
            target, exponent = near[j][:2]
            for loc in self._number_locs(flat.call, flat.path(nodes[at], keys[at]), shape, values[at]):
                if equal_at(Decimal(loc.mention.value), target, exponent):
                    out.append(loc)
        return out

    @cached_property
    def _number_columns(
        self,
    ) -> tuple[list[tuple[Flat, str, Any]], tuple[list[Any], list[tuple[int, int]]],
               tuple[list[Any], list[tuple[int, int]]]]:
        """The run's JSON numbers for look-ups by value, sorted once per run (signs are read as words, as in text).

        Returns:
            Each field's (flat, shape, its number columns) in walk order; then every number's absolute value
            in order (in document order when equal) with its (field, place in the field); and the same for
            the fields of hundredths (`amount_cents`) only.
        """
        columns: list[tuple[Flat, str, Any]] = []
        every: tuple[list[Any], list[tuple[int, int]]] = ([], [])
        minor: tuple[list[Any], list[tuple[int, int]]] = ([], [])
        for flat in self.flats:
            for shape, numbers in flat.numbers.items():
                column = len(columns)
                columns.append((flat, shape, numbers))
                for merged in (every, minor) if self.path_info(shape)[2] else (every,):
                    merged[0].extend(map(abs, numbers[0]))
                    merged[1].extend(zip(repeat(column), range(len(numbers[0]))))
        merged_columns = []
        for merged_sizes, merged_places in (every, minor):
            order = sorted(range(len(merged_sizes)), key=merged_sizes.__getitem__)
            merged_columns.append(([merged_sizes[k] for k in order], [merged_places[k] for k in order]))
        return columns, merged_columns[0], merged_columns[1]

    def _number_locs(self, call: int, path: str, shape: str, value: int | float) -> list[Located]:
        """A JSON number; a field holding hundredths (`amount_cents`) also gives it in whole units."""
        text = number_text(value)
        leaf = self.leaf(call, path, shape, text, numeric=True)
        digits = text.lstrip("-")
        exponent = -len(digits.split(".")[1]) if "." in digits else 0
        out: list[Located] = []
        add_number(out, Mention(FactKind.NUMBER, 0, len(digits), digits, None, exponent, leaf.labels), leaf)
        return out

    def numbers_in_units(self, units: Iterable[str]) -> list[tuple[str, Decimal, Leaf]]:
        """(unit, value, leaf) of each JSON number whose field name gives one of `units` (`总量MB`, `distance_m`).

        Only the first few numbers of each field are read: a converted number names one record.
        """
        words = {u: re.compile(rf"(?<![a-z]){re.escape(u)}(?![a-z])") for u in units}
        out = []
        for flat in self.flats:
            for shape, (values, nodes, keys) in flat.numbers.items():
                name = field_name(shape)
                unit = next((u for u, word in words.items() if word.search(name)), None)
                if unit is None:
                    continue
                for value, node, key in list(zip(values, nodes, keys, strict=True))[:_UNIT_NUMBERS]:
                    leaf = self.leaf(flat.call, flat.path(node, key), shape, number_text(value), numeric=True)
                    out.append((unit, Decimal(number_text(value)), leaf))
        return out

    def labelled_numbers(self, labels: frozenset[str]) -> list[Located]:
        """Numbers whose field labels share one with `labels` (a field's values)."""
        out: list[Located] = []
        for flat in self.flats:
            for shape, (values, nodes, keys) in flat.numbers.items():
                if self._names_field(shape, labels):
                    for value, node, key in zip(values, nodes, keys, strict=True):
                        out += self._number_locs(flat.call, flat.path(node, key), shape, value)
        out += [count_number(leaf) for _, leaf in self.list_counts if leaf.labels & labels]
        for entry, places in self._labelled_entries(labels).items():
            text = self.strings.texts[entry]
            out += [
                loc for loc in self._labelled_mentions(entry, places)
                if loc.mention.kind == FactKind.NUMBER and loc.mention.labels & labels
                and not _MASKED.search(text, 0, loc.mention.start)
            ]
        return out

    def _labelled_mentions(self, entry: int, places: list[int] | None) -> list[Located]:
        """The mentions of a string under a labelled field (`places` None), or of one naming a field word.

        A long string naming a field word is read in windows around the first `HITS_READ` places
        of the words: a number it labels stands right after it (a log's `refund_amount=45.00`).
        """
        text = self.strings.texts[entry]
        if places is None or len(text) <= 4 * NEAR:
            return self._entry_mentions(entry)
        return [
            loc for start, end, _ in windows(text, sorted(set(places))[:HITS_READ])
            for loc in self._window_mentions(entry, start, end)
        ]

    def _labelled_entries(self, labels: frozenset[str]) -> dict[int, list[int] | None]:
        """Entries under a field with one of `labels` (None), or naming one of its field words (where), in order."""
        words = (word for label in sorted(labels) for word in self.lex.field_words.get(label, ()))
        found: dict[int, list[int] | None] = dict(self.strings.hits(words))
        for _, shape, first, end in self.strings.buckets:
            if self._names_field(shape, labels):
                found.update(dict.fromkeys(range(first, end)))
        return dict(sorted(found.items()))

    def number_at(self, call: int, path: str) -> Located | None:
        """The JSON number at `path` (`flights[0].fare`) of one call's output, if there is one."""
        value = self.value_at(call, path)
        if type(value) not in (int, float) or not math.isfinite(value):
            return None
        return self._number_locs(call, path, shape_of(path), value)[0]

    def currency_of(self, loc: Located) -> tuple[str, Leaf] | None:
        """The currency a tool gives for a number it states, and the leaf that gives it (None: it does not say).

        A number written with its currency in text (`45 USD`) has it as its unit; a JSON
        number's is in its field name (`amount_cny`) or in a currency field beside it
        (`{"amount": 45, "currency": "USD"}`).
        """
        lex = self.lex
        if loc.mention.unit in lex.currency_codes:
            return loc.mention.unit, loc.leaf
        if loc.leaf.source != "tool" or not loc.leaf.numeric:
            return None
        parent, _, field = loc.leaf.path.rpartition(".")
        for word in field_name(field).split():
            code = lex.currency_of(word)
            if code:
                return code, loc.leaf
        record = self.value_at(loc.leaf.index, parent)  # the object holding the number
        for name in lex.list("currency_fields") if isinstance(record, dict) else ():
            value = record.get(name)
            code = lex.currency_of(value) if isinstance(value, str) else None
            if code:
                path = f"{parent}.{name}" if parent else name
                return code, self.leaf(loc.leaf.index, path, shape_of(path), value)
        return None

    def unit_of(self, loc: Located) -> tuple[str, Leaf] | None:
        """The unit of measure a tool gives for a JSON number it states (a `unit_scales` word), and the leaf
        that gives it: in the field name (`distance_km`) or in a unit field beside it (`{"distance": 2448.5,
        "units": "km"}`); None when it does not say.
        """
        scales = self.lex.unit_scales
        if loc.leaf.source != "tool" or not loc.leaf.numeric:
            return None
        parent, _, field = loc.leaf.path.rpartition(".")
        words = field_name(field).split()
        if len(words) > 2 and words[-2] == "in":
            words = words[-1:]  # `minute_window_resets_in_s`: the unit is what follows "in", here unknown
        # `min` is minutes only as the field's last word (`duration_min`); alone or before others it is a bound
        # (`eta_days: {min: 3, max: 5}`, `min_delay_hours`)
        words = [w for i, w in enumerate(words) if w != "min" or 0 < i == len(words) - 1]
        if "per" in words:
            words = words[: words.index("per")]  # `hours_per_day`: hours
        # the last unit word is the field's unit (`rest_day_hours`: hours); a one-letter name is no unit (`M`, a fare)
        for word in reversed(words if len(field) > 1 else []):
            if word in scales:
                return word, loc.leaf
        record = self.value_at(loc.leaf.index, parent)
        for name in self.lex.list("unit_fields") if isinstance(record, dict) else ():
            value = record.get(name)
            if isinstance(value, str) and value.strip().lower() in scales:
                path = f"{parent}.{name}" if parent else name
                return value.strip().lower(), self.leaf(loc.leaf.index, path, shape_of(path), value)
        return None

    def call_numbers(self) -> list[list[Located]]:
        """For each call with numbers, its first numbers in document order (operands for arithmetic).

        Lengths of lists and percentages are left out. Read once per check: the lists are shared.
        """
        return self._call_numbers

    @cached_property
    def _call_numbers(self) -> list[list[Located]]:
        by_call: dict[int, list[Located]] = {}
        for flat in self.flats:
            found = by_call.setdefault(flat.call, [])
            for path, shape, value, is_count in flat.scalars():
                if len(found) >= _DERIVED_OPERANDS:
                    break
                if is_count or isinstance(value, bool):
                    continue
                if isinstance(value, (int, float)):
                    if math.isfinite(value):
                        found += self._number_locs(flat.call, path, shape, value)
                elif isinstance(value, str) and DIGIT.search(value):
                    entry = self._entry_index.get((id(flat), shape, value))
                    found += [] if entry is None else self._leading_numbers(entry, _DERIVED_OPERANDS - len(found))
            del found[_DERIVED_OPERANDS:]
        return [locs for locs in by_call.values() if locs]

    def money_numbers(self) -> list[list[Located]]:
        """For each call, its JSON numbers in fields the lexicon calls money (`money_labels`: price, amount,
        fee...), the first `MONEY_OPERANDS` of them: the operands of a price difference or a balance.

        Read once per check: the lists are shared.
        """
        return self._money_numbers

    @cached_property
    def _money_numbers(self) -> list[list[Located]]:
        by_call: dict[int, list[Located]] = {}
        labels = self.lex.money_labels
        for flat in self.flats[: len(self.calls)]:
            found = by_call.setdefault(flat.call, [])
            for path, shape, value, is_count in flat.scalars():
                if len(found) >= MONEY_OPERANDS:
                    break
                if is_count or isinstance(value, bool) or not isinstance(value, (int, float)):
                    continue
                if math.isfinite(value) and self.path_info(shape)[0] & labels:
                    found += self._number_locs(flat.call, path, shape, value)
        return [by_call.get(i, []) for i in range(len(self.calls))]

    def _leading_numbers(self, entry: int, needed: int) -> list[Located]:
        """The first numbers of one string (no percentages), at least `needed` of them when it holds so many.

        A long string (a log) is read from its start in windows that grow fourfold until they hold
        enough; a number within `NEAR` characters of a window's end is left to the next window.
        """
        text, size = self.strings.texts[entry], _LEADING_CHARS
        while True:
            end = len(text) if size >= len(text) else windows(text, [size])[0][1]
            whole = end >= len(text)
            found = [
                loc for loc in (self._entry_mentions(entry) if whole else self._window_mentions(entry, 0, end))
                if loc.mention.kind == FactKind.NUMBER and loc.mention.unit != "%"
                and (whole or loc.mention.end <= end - NEAR)
            ]
            if whole or len(found) >= needed:
                return found
            size *= 4

    @cached_property
    def _entry_index(self) -> dict[tuple[int, str, str], int]:
        strings = self.strings
        return {
            (id(flat), shape, strings.texts[i]): i for flat, shape, first, end in strings.buckets
            for i in range(first, end)
        }
