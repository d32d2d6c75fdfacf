"""An index of what one run's tool outputs say, searched only for what the answer claims."""

from __future__ import annotations

import math
import re
import weakref
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from itertools import accumulate, repeat
from operator import add
from typing import TYPE_CHECKING, Any

from factcheck.config import CheckerConfig
from factcheck.extractors.mentions import Mention, MentionExtractor
from factcheck.extractors.status import StatusExtractor, StatusMention
from factcheck.grounding.arithmetic import conversion_rates, equal_at
from factcheck.grounding.flat import Flat, Leaf, Ref, number_text, shape_of
from factcheck.grounding.records import ToolRecord, as_text, output_value, tool_record
from factcheck.grounding.search import (
    HITS_READ,
    NEAR,
    Blob,
    Strings,
    date_literals,
    find_token,
    holds_any,
    merge_hits,
    search_form,
    time_literals,
    windows,
)
from factcheck.grounding.status_evidence import StatusEvidence, StatusReader
from factcheck.lexicon import Lexicon, field_name, remember, split_camel
from factcheck.phrases import Phrases
from factcheck.report import FactKind

if TYPE_CHECKING:
    from factcheck.grounding.forms import OtherForms

__all__ = ["Blob", "EvidenceIndex", "Leaf", "Located", "StatusEvidence", "ToolRecord"]

_WHEN = (FactKind.DATE, FactKind.TIME)
_DIGIT = re.compile(r"\d")
_LIST_LABELS = frozenset({"quantity", "count"})
"""Field labels a list's own name gives ("items", "results"): they speak of the list's length, not of each item."""
_VALUE_CHARS = 80
"""Longest value of a method or category field read for its value (longer text is a note, not a value)."""
_UNIT_NUMBERS = 20
"""How many numbers of one field a unit conversion reads."""
_DERIVED_OPERANDS = 40
"""How many numbers of one tool call arithmetic may combine."""
MONEY_OPERANDS = 60
"""How many amounts of money of one tool call a price difference may take (a catalogue's variants)."""
_LEADING_CHARS = 4096
"""How much of a long string is read first for its leading numbers (operands for arithmetic)."""


@dataclass(slots=True, eq=False)
class Located:
    """A mention found in the evidence, and the leaf that holds it."""

    mention: Mention
    leaf: Leaf


class EvidenceIndex:
    """Everything one run's tool outputs and context say.

    Each output is walked once into columns (`Flat`); the checks then search those
    for the facts an answer claims: literal searches over the distinct strings, and
    sorted look-ups over the numbers of each field. Leaves, mentions and statuses are
    made only for the values a search finds, so the cost of a check grows with the
    size of the evidence only through one walk and a few C-speed string searches.
    """

    def __init__(
        self,
        tool_calls: Sequence[Any],
        context: Sequence[str],
        config: CheckerConfig,
        lex: Lexicon,
        mentions: MentionExtractor,
        statuses: StatusExtractor,
    ) -> None:
        self.config = config
        self.lex = lex
        self._mentions = mentions
        self.notes: list[str] = []
        self.calls: list[ToolRecord] = []
        self.flats: list[Flat] = []
        """The walked outputs, in call order, then the walked arguments."""
        self.context = Blob()
        depth = min(config.max_json_depth, 400)  # the walk recurses per container
        arg_flats = []
        for i, item in enumerate(tool_calls):
            record = tool_record(i, item, lex)
            if item is None:
                self.notes.append(f"tool call {i} is None: read as a call that returned nothing")
            self.calls.append(record)
            output = output_value(record, config.max_output_chars, self.notes, depth)
            self.flats.append(self._walk(i, "", output, depth))
            if record.args:
                arg_flats.append(self._walk(i, "args", record.args, depth))
        self.flats += arg_flats
        for i, text in enumerate(context):
            if not isinstance(text, str):
                text = as_text(text, self.notes, f"context[{i}]")
            self.context.add(Leaf("context", i, "", text[: config.max_output_chars]))
        self._mention_cache: dict[tuple[int, int, int, bool], list[Located]] = {}
        self._leaf_cache: dict[int, Leaf] = {}
        self._sorted: dict[tuple[int, str], tuple[list[float], list[tuple[Any, Ref]]]] = {}
        self._status_cache: dict[str | None, list[StatusEvidence]] = {}
        # a proxy, not the index itself: a cycle would leave the walked outputs to the cyclic collector
        self._status_reader = StatusReader(weakref.proxy(self), statuses)
        self._category_cache: dict[str, list[tuple[str, Leaf]]] = {}
        self._call_numbers: list[list[Located]] | None = None
        self._money_numbers: list[list[Located]] | None = None
        self._record_keys: dict[int, frozenset[str]] = {}

    def _walk(self, call: int, root: str, value: Any, depth: int) -> Flat:
        try:
            flat = Flat(call, root, value, depth)
        except RecursionError:  # a user-set depth beyond what Python can recurse
            flat = Flat(call, root, None, depth)
            flat.too_deep = True
        if flat.too_deep:
            self.notes.append(f"tool call {call}: JSON deeper than {depth} levels not read below that depth")
        return flat

    def path_info(self, shape: str) -> tuple[frozenset[str], str | None, bool]:
        """Field labels, status concept and minor-unit flag named by a path shape (cached per lexicon)."""
        cache = self.lex.path_cache
        info = cache.get(shape)
        if info is not None:
            return info
        key = split_camel(" ".join(shape.replace("[]", "").split(".")[-2:]))
        concepts = self.lex.concepts_in(split_camel(shape.replace("[]", " ")))
        labels = set(self.lex.fields_in(key))
        parent, _, name = shape.rpartition(".")
        if parent.endswith("[]") and labels & _LIST_LABELS:
            # a list's name ("items[]") counts its items; it does not make each item's field a count
            labels = (labels - _LIST_LABELS) | (set(self.lex.fields_in(split_camel(name))) & _LIST_LABELS)
        info = (
            frozenset(labels),
            concepts[-1] if concepts else None,
            self.lex.minor_units.search(key),
        )
        return remember(cache, shape, info)

    def _names_field(self, shape: str, labels: frozenset[str]) -> bool:
        """Whether a path shape names one of the field `labels` (a new shape's words are checked first)."""
        info = self.lex.path_cache.get(shape)
        if info is None:
            if not any(self.shape_holds(shape, "field", label) for label in labels):
                return False
            info = self.path_info(shape)
        return not info[0].isdisjoint(labels)

    def shape_holds(self, shape: str, kind: str, name: str) -> bool:
        """Whether a path shape holds a word of a field label (`kind` "field") or a concept ("concept").

        Checking this first spares working out what a shape names (`_path_info`) for the many
        shapes that name nothing asked for; the answer is cached per lexicon, as shapes repeat.
        """
        key = (shape, kind, name)
        found = self.lex.shape_word_cache.get(key)
        if found is None:
            words = (self.lex.field_words if kind == "field" else self.lex.concept_words).get(name, ())
            found = remember(self.lex.shape_word_cache, key, holds_any(shape, words))
        return found

    # ---------- leaves ----------
    def leaf(self, call: int, path: str, shape: str, text: str, numeric: bool = False, count: bool = False) -> Leaf:
        """The leaf of a tool output's value at `path` (`shape` is the path without list indexes)."""
        labels, concept, minor = self.path_info(shape)
        if count:
            labels = labels | {"count"}
        return Leaf("tool", call, path, text, labels=labels, concept=concept,
                    minor_unit=minor, numeric=numeric or count, count=count)

    def string_leaf(self, entry: int) -> Leaf:
        leaf = self._leaf_cache.get(entry)
        if leaf is None:
            flat, shape, _, _ = self.strings.bucket(entry)
            text = self.strings.texts[entry]
            ref = flat.strings[shape][text]
            leaf = self._leaf_cache[entry] = self.leaf(flat.call, flat.path(*ref), shape, text)
        return leaf

    @cached_property
    def strings(self) -> Strings:
        texts: list[str] = []
        buckets = []
        for flat in self.flats:
            for shape, bucket in flat.strings.items():
                first = len(texts)
                texts += bucket
                buckets.append((flat, shape, first, len(texts)))
        starts = list(accumulate(map(add, map(len, texts), repeat(1)), initial=0))  # one "\n" after each
        starts.pop()
        return Strings(texts, buckets, search_form("\n".join(texts)), starts, [b[2] for b in buckets])

    @cached_property
    def text_leaves(self) -> list[Leaf]:
        """A leaf for each distinct string of the tool outputs (for fuzzy location)."""
        return [self.string_leaf(i) for i in range(len(self.strings.texts))]

    def string_ending_with(self, digits: str) -> Leaf | None:
        """The first tool-output string holding a token that ends with `digits` (`ba_1PzQ0921`, `••••0921`)."""
        ending = re.compile(r"[\w*•·-]" + re.escape(digits) + r"(?!\d)")
        for entry in sorted(self.strings.hits([digits])):
            if ending.search(self.strings.texts[entry]):
                return self.string_leaf(entry)
        return None

    @cached_property
    def failed_calls(self) -> list[ToolRecord]:
        """The calls that failed and were not run again with success (a retried call is superseded)."""
        calls = self.calls
        return [
            c for c in calls
            if c.status == "error" and not any(d.name == c.name and d.status == "ok" for d in calls[c.index + 1 :])
        ]

    def first_leaf(self, call: int) -> Leaf | None:
        """The first value of a call's output, for showing where a status came from."""
        flat = self.flats[call]
        for path, shape, value, is_count in flat.scalars():
            numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
            text = number_text(value) if numeric and not is_count else str(value)
            return self.leaf(call, path or ("$" if is_count else ""), shape, text, numeric, is_count)
        return None

    # ---------- exact tokens and names ----------
    def find_token(self, value: str, url: bool = False, segment: bool = False) -> Leaf | None:
        """The first tool-output value holding `value` (lower case) as a whole token (`segment`: see `find_token`)."""
        if value.isdigit() and not segment:
            number = int(value)
            for flat in self.flats:
                for shape, (values, nodes, keys) in flat.numbers.items():
                    if number in values:
                        j = values.index(number)
                        if number_text(values[j]) == value:
                            return self.leaf(flat.call, flat.path(nodes[j], keys[j]), shape, value, numeric=True)
        strings = self.strings
        pos = find_token(strings.lower, value, url, segment)
        return None if pos < 0 else self.string_leaf(strings.at(pos))

    @property
    def mentions(self) -> MentionExtractor:
        """The extractor that reads mentions in tool strings and the context."""
        return self._mentions

    @cached_property
    def other_forms(self) -> OtherForms:
        """Values the tools write in another form than the answer: numbers in words, identifiers one edit off."""
        from factcheck.grounding.forms import OtherForms

        return OtherForms(self)

    def find_key(self, value: str) -> Leaf | None:
        """The first field of a tool output named `value` (lower case), or with it as a word of its name: an
        output keyed by names ({"EC2": 1890000}), a metric in a field's name (p95 of `p95LatencyMs`)."""
        for flat in self.flats:
            if flat.root:
                continue
            shapes = [*flat.numbers, *flat.strings, *(shape for *_, shape in flat.bools), *(s for *_, s in flat.lists)]
            for shape in shapes:
                steps = shape.split(".")
                for at, step in enumerate(steps):
                    name = step.removesuffix("[]")
                    if value == name.lower() or value in split_camel(name).lower().split("_"):
                        return Leaf("tool", flat.call, ".".join(steps[: at + 1]), name)  # its place as a shape
        return None

    def find_text(self, value: str) -> Leaf | None:
        """The first tool-output string holding `value` (lower case) anywhere."""
        pos = self.strings.lower.find(value)
        return None if pos < 0 else self.string_leaf(self.strings.at(pos))

    # ---------- numbers ----------
    def equal_numbers(self, targets: list[tuple[Decimal, int]]) -> list[Located]:
        """Numbers equal to any target at its precision: JSON numbers, list lengths, numbers in text.

        Args:
            targets: (value, exponent of the last written digit) pairs.
        """
        out = self._json_numbers(targets)
        for count, leaf in self.list_counts:
            if any(equal_at(Decimal(count), t, e) for t, e in targets):
                out.append(_count_number(leaf))
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
        out = []
        # each target as a float, and half a unit of its last digit (and a hair more, for float rounding)
        near = [(target, exponent, float(target), float(Decimal(5).scaleb(exponent - 1)) * 1.000001)
                for target, exponent in targets]
        for i, flat in enumerate(self.flats):
            for shape in flat.numbers:
                minor = self.path_info(shape)[2]
                values, items = self._sorted_numbers(i, flat, shape)
                for target, exponent, as_float, half in near:
                    for scale in (1, 100) if minor else (1,):
                        t = as_float * scale
                        lo = bisect_left(values, t - half * scale)
                        hi = bisect_right(values, t + half * scale)
                        for value, (node, key) in items[lo:hi]:
                            for loc in self._number_locs(flat.call, flat.path(node, key), shape, value):
                                if equal_at(Decimal(loc.mention.value), target, exponent):
                                    out.append(loc)
        return out

    def _sorted_numbers(self, i: int, flat: Flat, shape: str) -> tuple[list[float], list[tuple[Any, Ref]]]:
        """A field's numbers sorted by absolute value (signs are read as words, as in text)."""
        found = self._sorted.get((i, shape))
        if found is None:
            values, nodes, keys = flat.numbers[shape]
            sizes = list(map(abs, values))
            order = sorted(range(len(values)), key=sizes.__getitem__)
            found = self._sorted[(i, shape)] = (
                [sizes[j] for j in order], [(values[j], (nodes[j], keys[j])) for j in order]
            )
        return found

    def _number_locs(self, call: int, path: str, shape: str, value: int | float) -> list[Located]:
        """A JSON number; a field holding hundredths (`amount_cents`) also gives it in whole units."""
        text = number_text(value)
        leaf = self.leaf(call, path, shape, text, numeric=True)
        digits = text.lstrip("-")
        exponent = -len(digits.split(".")[1]) if "." in digits else 0
        out: list[Located] = []
        _add_number(out, Mention(FactKind.NUMBER, 0, len(digits), digits, None, exponent, leaf.labels), leaf)
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
        out += [_count_number(leaf) for _, leaf in self.list_counts if leaf.labels & labels]
        for entry, places in self._labelled_entries(labels).items():
            out += [
                loc for loc in self._labelled_mentions(entry, places)
                if loc.mention.kind == FactKind.NUMBER and loc.mention.labels & labels
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

    def value_at(self, call: int, path: str) -> Any:
        """The value at `path` (`flights[0]`) of one call's output; None when there is none."""
        flat = next((f for f in self.flats if f.call == call and not f.root), None)
        return None if flat is None else flat.value_at(path)

    def is_record_key(self, path: str) -> bool:
        """Whether the field at `path` holds its record's key (`orders[1].order_id`, `flights[0].flight_no`)."""
        field = path.rsplit(".", 1)[-1]
        key = self.lex.record_key_cache.get(field)
        if key is None:
            key = remember(self.lex.record_key_cache, field, self.lex.is_record_key(field_name(field)))
        return key

    def record_keys(self, call: int) -> frozenset[str]:
        """The keys of the record a call's output is (its top-level `order_id`, `reservation_id`...), lower case
        without a leading `#`; empty when the output is no such record (read once per call)."""
        keys = self._record_keys.get(call)
        if keys is None:
            output = self.flats[call].value  # the parsed output: flats start with one per call, in call order
            found = set()
            if isinstance(output, dict):
                for field, value in output.items():
                    if isinstance(value, str | int) and not isinstance(value, bool) and self.is_record_key(str(field)):
                        found.add(record_key(str(value)))
            keys = self._record_keys[call] = frozenset(found)
        return keys

    def leaf_at(self, call: int, path: str) -> Leaf | None:
        """The leaf of the string or finite number at `path` of one call's output, if there is one."""
        value = self.value_at(call, path)
        if isinstance(value, str):
            return self.leaf(call, path, shape_of(path), value)
        number = self.number_at(call, path)
        return None if number is None else number.leaf

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
        for word in field_name(field).split():
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
        if self._call_numbers is None:
            self._call_numbers = self._read_call_numbers()
        return self._call_numbers

    def _read_call_numbers(self) -> list[list[Located]]:
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
                elif isinstance(value, str) and _DIGIT.search(value):
                    entry = self._entry_index.get((id(flat), shape, value))
                    found += [] if entry is None else self._leading_numbers(entry, _DERIVED_OPERANDS - len(found))
            del found[_DERIVED_OPERANDS:]
        return [locs for locs in by_call.values() if locs]

    def money_numbers(self) -> list[list[Located]]:
        """For each call, its JSON numbers in fields the lexicon calls money (`money_labels`: price, amount,
        fee...), the first `MONEY_OPERANDS` of them: the operands of a price difference or a balance.

        Read once per check: the lists are shared.
        """
        if self._money_numbers is None:
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
            self._money_numbers = [by_call.get(i, []) for i in range(len(self.calls))]
        return self._money_numbers

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
    def list_counts(self) -> list[tuple[int, Leaf]]:
        """The length of each list in the tool outputs and arguments, with its leaf."""
        out = []
        for flat in self.flats:
            for length, node, shape in flat.lists:
                leaf = self.leaf(flat.call, flat.node_path(node) or "$", shape, str(length), count=True)
                out.append((length, leaf))
        return out

    # ---------- dates and times ----------
    def dates_times(self, kind: FactKind, value: str) -> list[Located]:
        """Dates (`YYYY-MM-DD`, `--MM-DD`) or times (`HH:MM`) in tool-output text that may equal `value`."""
        literals = date_literals(value, self.lex) if kind == FactKind.DATE else time_literals(value)
        out = []
        for entry, near in sorted(self.strings.hits(literals).items()):
            out += [loc for loc in self._mentions_near(entry, near, numbers=False) if loc.mention.kind == kind]
        return out

    # ---------- text values ----------
    def _entry_mentions(self, entry: int, numbers: bool = True) -> list[Located]:
        """Numbers, dates and times in one distinct string, numbers with the labels of their field."""
        return self._window_mentions(entry, 0, len(self.strings.texts[entry]), numbers)

    def _window_mentions(self, entry: int, start: int, end: int, numbers: bool = True) -> list[Located]:
        """Numbers, dates and times in `text[start:end]` of one distinct string (cached per window).

        Without `numbers`, only dates and times: they are read from a cached full reading
        when there is one.
        """
        key = (entry, start, end, numbers)
        found = self._mention_cache.get(key)
        if found is not None:
            return found
        if not numbers and (entry, start, end, True) in self._mention_cache:
            full = self._mention_cache[(entry, start, end, True)]
            found = self._mention_cache[key] = [loc for loc in full if loc.mention.kind in _WHEN]
            return found
        found = self._mention_cache[key] = []
        leaf = self.string_leaf(entry)
        text = leaf.text[start:end]
        ex = self._mentions
        for mention in ex.extract(text, words=False, numbers=numbers) if _DIGIT.search(text) else ():
            if mention.kind in _WHEN:
                found.append(Located(mention, leaf))
            elif mention.kind == FactKind.NUMBER:
                labels = leaf.labels | ex.labels_before(text, mention, 0)
                _add_number(found, mention._replace(labels=labels), leaf)
        return found

    @cached_property
    def _entry_index(self) -> dict[tuple[int, str, str], int]:
        strings = self.strings
        return {
            (id(flat), shape, strings.texts[i]): i for flat, shape, first, end in strings.buckets
            for i in range(first, end)
        }

    def entries_with(self, literals: Iterable[str]) -> set[int]:
        """Entries holding any of `literals` (lower case)."""
        return set(self.strings.hits(literals))

    def _mentions_near(self, entry: int, near: list[int] | None, numbers: bool = True) -> list[Located]:
        """Mentions of a string: all of them, or for a long string those holding an offset in `near`.

        Numbers are left out when `numbers` is False.

        A long string is read in windows around the offsets, `NEAR` characters each way
        and then out to white space or a Chinese full stop or comma (never inside a token:
        `SKU-45123` stays an identifier); only mentions over an offset are kept, so what a
        window's edge cuts is never used. Only the first `HITS_READ` offsets are read: a log that
        gives a claimed number on every line is read around its first lines, not whole.
        """
        text = self.strings.texts[entry]
        if near is None or len(text) <= 4 * NEAR:
            return self._entry_mentions(entry, numbers)
        out: list[Located] = []
        for start, end, offsets in windows(text, sorted(set(near))[:HITS_READ]):
            # a mention is kept when an offset falls inside it (a binary search: a dense log's window
            # holds thousands of both)
            for loc in self._window_mentions(entry, start, end, numbers):
                i = bisect_left(offsets, start + loc.mention.start)
                if i < len(offsets) and offsets[i] < start + loc.mention.end:
                    out.append(loc)
        return out

    def _labelled_entries(self, labels: frozenset[str]) -> dict[int, list[int] | None]:
        """Entries under a field with one of `labels` (None), or naming one of its field words (where), in order."""
        words = (word for label in sorted(labels) for word in self.lex.field_words.get(label, ()))
        found: dict[int, list[int] | None] = dict(self.strings.hits(words))
        for _, shape, first, end in self.strings.buckets:
            if self._names_field(shape, labels):
                found.update(dict.fromkeys(range(first, end)))
        return dict(sorted(found.items()))

    # ---------- statuses ----------
    def statuses(self, concept: str | None) -> list[StatusEvidence]:
        """The statuses tool outputs state about `concept` (every status for None), in call order."""
        found = self._status_cache.get(concept)
        if found is None:
            found = self._status_cache[concept] = self._status_reader.find(concept)
        return found

    def record_statuses(self) -> list[StatusEvidence]:
        """The statuses of the outputs' status fields (`status`, `state`): what an order or ticket is."""
        return self._status_reader.record_statuses

    def statuses_of(self, text: str) -> list[StatusMention]:
        """The statuses a tool-output value states by itself (no field or tool concept)."""
        return self._status_reader.read(text, None)

    # ---------- named values: payment methods, tiers, plans ----------
    @cached_property
    def payment_methods(self) -> list[tuple[str, Leaf]]:
        """(category, leaf) of each payment method the successful calls give, in call order.

        A method is read from the value of a method field (`destination`, `refund_method`,
        `退款方式`) of an output or the arguments.
        """
        lex = self.lex
        found = self._field_values(lex.payment_method_fields, lex.payment_methods)
        return sorted(((lex.payment_method_of[key], leaf) for _, key, leaf in found), key=lambda f: f[1].index)

    def category_values(self, category: str) -> list[tuple[str, Leaf]]:
        """(value, leaf) of each value of `category` (`tier`: gold, silver) the successful calls give.

        A value is read from a short string under a field the category's field words name
        (`tier`, `member_level`, `会员等级`). Fields named exactly by a field word (`tier`)
        speak for the category when there are any: then `next_tier` is not read.
        """
        found = self._category_cache.get(category)
        if found is None:
            lex, fields = self.lex, self.lex.category_fields.get(category)
            named = [
                (exact, lex.category_of_value[key][1], leaf)
                for exact, key, leaf in (self._field_values(fields, lex.category_values) if fields else ())
                if lex.category_of_value[key][0] == category
            ]
            any_exact = any(exact for exact, _, _ in named)
            found = self._category_cache[category] = [(v, leaf) for exact, v, leaf in named if exact or not any_exact]
        return found

    def _field_values(self, fields: Phrases, values: Phrases) -> list[tuple[bool, str, Leaf]]:
        """(named exactly, value key, leaf) of each of `values` in a short string under a field `fields` name.

        Only successful calls are read; "named exactly" is a field whose whole name is one of `fields`.
        """
        strings, out = self.strings, []
        for flat, shape, first, end in strings.buckets:
            name = field_name(shape)
            if self.calls[flat.call].status == "error" or not fields.search(name):
                continue
            exact = name in fields.keys
            for i in range(first, end):
                if len(strings.texts[i]) <= _VALUE_CHARS:
                    out += [(exact, hit.key, self.string_leaf(i)) for hit in values.finditer(strings.texts[i])]
        return out

    # ---------- context ----------
    @cached_property
    def context_rates(self) -> list[tuple[Decimal, str, Leaf]]:
        """The conversions the context states ("100 points = $1"): (factor, the statement, its leaf)."""
        return [(factor, said, leaf) for leaf in self.context.leaves for factor, said in conversion_rates(leaf.text)]

    @cached_property
    def context_mentions(self) -> list[Located]:
        """Numbers, dates and times in the context (number words too: "三晚")."""
        out: list[Located] = []
        ex = self._mentions
        for leaf in self.context.leaves:
            for mention in ex.extract(leaf.text):
                if mention.kind in _WHEN:
                    out.append(Located(mention, leaf))
                elif mention.kind == FactKind.NUMBER:
                    _add_number(out, mention._replace(labels=ex.labels_before(leaf.text, mention, 0)), leaf)
        return out


def record_key(value: str) -> str:
    """A record key as compared: lower case, without a leading `#` (`#W3586556` and `w3586556`)."""
    return value.lower().lstrip("#")


def _count_number(leaf: Leaf) -> Located:
    """A list's length as a number of its field (labels include `count`)."""
    return Located(Mention(FactKind.NUMBER, 0, len(leaf.text), leaf.text, None, 0, leaf.labels), leaf)


def _add_number(out: list[Located], mention: Mention, leaf: Leaf) -> None:
    """Add a number; a field holding hundredths (`amount_cents`) also gives it in whole units."""
    out.append(Located(mention, leaf))
    if leaf.minor_unit:
        whole = format(Decimal(mention.value).scaleb(-2).normalize(), "f")
        out.append(Located(mention._replace(value=whole, exponent=mention.exponent - 2), leaf))


