"""One run's walked tool outputs and context: leaves, distinct strings and the mentions in them."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from itertools import accumulate, repeat
from operator import add
from typing import Any

from factcheck.config import CheckerConfig
from factcheck.extractors.mentions import Mention, MentionExtractor
from factcheck.grounding.flat import Flat, Leaf, number_text, shape_of
from factcheck.grounding.records import ToolRecord, as_text, output_value, tool_record
from factcheck.grounding.search import HITS_READ, NEAR, Blob, Strings, holds_any, search_form, windows
from factcheck.lexicon import Lexicon, field_name, remember, split_camel
from factcheck.report import FactKind

WHEN = (FactKind.DATE, FactKind.TIME)
"""Kinds of mention that are moments: dates and times."""
DIGIT = re.compile(r"\d")
"""Any digit: text without one holds no number, date or time to read."""
_LIST_LABELS = frozenset({"quantity", "count"})
"""Field labels a list's own name gives ("items", "results"): they speak of the list's length, not of each item."""


@dataclass(slots=True, eq=False)
class Located:
    """A mention found in the evidence, and the leaf that holds it."""

    mention: Mention
    leaf: Leaf


_NOT_AMOUNT_WORDS = frozenset({"count", "pct", "percent", "percentage"})
"""Words of a field's own name that say it holds no amount of money (`baggage_count`, `vat_rate_pct`)."""
_FINER_THAN_CENTS = re.compile(r"\.\d{2}\d*[1-9]$")
"""A value finer than cents (`fee_rate_per_term: 0.0075`, an exchange rate): a rate, no amount of money."""


def holds_no_money(found: Located) -> bool:
    """Whether a found value is no amount of money whatever its field's labels: a percentage ("City tax 6%"), a value
    of a field named for a count or a percentage, or one finer than cents."""
    return found.mention.unit == "%" or _FINER_THAN_CENTS.search(found.mention.value) is not None \
        or not _NOT_AMOUNT_WORDS.isdisjoint(field_name(found.leaf.path.rsplit(".", 1)[-1]).split())


_IDENTIFYING = re.compile(r"\b(?:last ?4|last four|last ?digits|id|number|no|code|zip|postcode|phone|iban|suffix)\b")
"""Words of a field's own name that make it an identifier's (`account_last4`, `card_number`): it takes no label
from the object it sits in (`payment` names amounts)."""


class WalkedEvidence:
    """One run's tool outputs, arguments and context, each walked once into columns (`Flat`).

    Leaves and mentions are made only for the values a search asks for (see `EvidenceIndex`).
    """

    def __init__(
        self,
        tool_calls: Sequence[Any],
        context: Sequence[str],
        config: CheckerConfig,
        lex: Lexicon,
        mentions: MentionExtractor,
    ) -> None:
        """Walk each call's output and arguments, and the context, once.

        Args:
            tool_calls: The run's tool calls, in order.
            context: Text the tools did not give (the user's messages, a system prompt).
            config: The checker's configuration (its limits).
            lex: The lexicon.
            mentions: The extractor that reads numbers, dates and times in text.
        """
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
        if _IDENTIFYING.search(field_name(shape.rsplit(".", 1)[-1])):
            key = split_camel(shape.replace("[]", "").rsplit(".", 1)[-1])  # `payment.account_last4` is no amount
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

    def first_leaf(self, call: int) -> Leaf | None:
        """The first value of a call's output, for showing where a status came from."""
        flat = self.flats[call]
        for path, shape, value, is_count in flat.scalars():
            numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
            text = number_text(value) if numeric and not is_count else str(value)
            return self.leaf(call, path or ("$" if is_count else ""), shape, text, numeric, is_count)
        return None

    @property
    def mentions(self) -> MentionExtractor:
        """The extractor that reads mentions in tool strings and the context."""
        return self._mentions

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

    def arg_keys(self, call: int) -> frozenset[str]:
        """The record keys a call's arguments give (`cancel_order(order_no=DD2025…)`, `get_bill(bill_id=G-2511)`), as
        `record_keys` gives its output's."""
        return frozenset(record_key(value) for field, value in self.arg_values(call) if self.is_record_key(field))

    def arg_values(self, call: int) -> list[tuple[str, str]]:
        """A call's arguments that hold a string or a whole number (no flag, no object), as (field, text)."""
        args = self.calls[call].args
        if not isinstance(args, dict):
            return []
        return [(str(field), str(value)) for field, value in args.items()
                if isinstance(value, str | int) and not isinstance(value, bool)]

    def leaf_at(self, call: int, path: str) -> Leaf | None:
        """The leaf of the string or finite number at `path` of one call's output, if there is one."""
        value = self.value_at(call, path)
        if isinstance(value, str):
            return self.leaf(call, path, shape_of(path), value)
        number = self.number_at(call, path)
        return None if number is None else number.leaf

    @cached_property
    def list_counts(self) -> list[tuple[int, Leaf]]:
        """The length of each list in the tool outputs and arguments, with its leaf."""
        out = []
        for flat in self.flats:
            for length, node, shape in flat.lists:
                leaf = self.leaf(flat.call, flat.node_path(node) or "$", shape, str(length), count=True)
                out.append((length, leaf))
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
            found = self._mention_cache[key] = [loc for loc in full if loc.mention.kind in WHEN]
            return found
        found = self._mention_cache[key] = []
        leaf = self.string_leaf(entry)
        text = leaf.text[start:end]
        ex = self._mentions
        for mention in ex.extract(text, words=False, numbers=numbers) if DIGIT.search(text) else ():
            if mention.kind in WHEN:
                found.append(Located(mention, leaf))
            elif mention.kind == FactKind.NUMBER:
                labels = leaf.labels | ex.labels_before(text, mention, 0)
                add_number(found, mention._replace(labels=labels), leaf)
        return found

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


def record_key(value: str) -> str:
    """A record key as compared: lower case, without a leading `#` (`#W3586556` and `w3586556`)."""
    return value.lower().lstrip("#")


def count_number(leaf: Leaf) -> Located:
    """A list's length as a number of its field (labels include `count`)."""
    return Located(Mention(FactKind.NUMBER, 0, len(leaf.text), leaf.text, None, 0, leaf.labels), leaf)


def add_number(out: list[Located], mention: Mention, leaf: Leaf) -> None:
    """Add a number; a field holding hundredths (`amount_cents`) also gives it in whole units."""
    out.append(Located(mention, leaf))
    if leaf.minor_unit:
        whole = format(Decimal(mention.value).scaleb(-2).normalize(), "f")
        out.append(Located(mention._replace(value=whole, exponent=mention.exponent - 2), leaf))
