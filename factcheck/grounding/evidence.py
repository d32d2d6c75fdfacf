"""An index of what one run's tool outputs say, searched only for what the answer claims."""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from decimal import Decimal
from functools import cached_property
from typing import TYPE_CHECKING, Any

from factcheck.config import CheckerConfig
from factcheck.extractors.grouped_digits import digit_runs
from factcheck.extractors.mentions import MentionExtractor
from factcheck.extractors.status import StatusExtractor, StatusMention
from factcheck.grounding.arithmetic import conversion_rates
from factcheck.grounding.flat import Leaf, number_text
from factcheck.grounding.number_lookups import NumberLookups
from factcheck.grounding.records import ToolRecord
from factcheck.grounding.search import Blob, date_literals, find_token, time_literals
from factcheck.grounding.status_evidence import StatusEvidence, StatusReader
from factcheck.grounding.walked import WHEN, Located, add_number, record_key
from factcheck.lexicon import Lexicon, field_name, split_camel
from factcheck.phrases import Phrases
from factcheck.report import FactKind

_LEAST_DIGITS = 7
"""Digits a number written in groups must share with the answer's when one of them has a code the other leaves out
("555-0102" of "(214) 555-0102")."""

if TYPE_CHECKING:
    from factcheck.grounding.forms import OtherForms

__all__ = ["Blob", "EvidenceIndex", "Leaf", "Located", "StatusEvidence", "ToolRecord", "record_key"]

_VALUE_CHARS = 80
"""Longest value of a method or category field read for its value (longer text is a note, not a value)."""


class EvidenceIndex(NumberLookups):
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
        """Walk the run once (see `WalkedEvidence`); statuses are read on demand by `statuses`.

        Args:
            tool_calls: The run's tool calls, in order.
            context: Text the tools did not give (the user's messages, a system prompt).
            config: The checker's configuration (its limits).
            lex: The lexicon.
            mentions: The extractor that reads numbers, dates and times in text.
            statuses: The extractor that reads statuses in text.
        """
        super().__init__(tool_calls, context, config, lex, mentions)
        self._status_cache: dict[str | None, list[StatusEvidence]] = {}
        # a proxy, not the index itself: a cycle would leave the walked outputs to the cyclic collector
        self._status_reader = StatusReader(weakref.proxy(self), statuses)
        self._category_cache: dict[str, list[tuple[str, Leaf]]] = {}

    def string_ending_with(self, digits: str, segment: bool = False) -> Leaf | None:
        """The first tool-output string holding a token that ends with `digits` (`ba_1PzQ0921`, `••••0921`); with
        `segment`, one whose last segment they are: after a separator, and ending the token (`INV-NB-3315`, not
        `2026-11-23`)."""
        if segment:
            ending = re.compile(r"[-_#/\s.:]" + re.escape(digits) + r"(?![\w-])")
        else:
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

    def find_grouped_digits(self, digits: str) -> Leaf | None:
        """The first tool-output string holding a number written in groups ("+1 415-555-0143") whose digits are
        `digits`, or end with them (the country or area code left out, or written as the national 0: "07700 900511"
        of 447700900511), or that `digits` end with (a code added): 7 digits at least either way."""
        national = digits[1:] if digits.startswith("0") else digits  # "07700 900511" of "447700900511"
        for run, pos in self._grouped_digits:
            if run == digits or min(len(run), len(national)) >= _LEAST_DIGITS and (
                    run.endswith(national) or digits.endswith(run)):
                return self.string_leaf(self.strings.at(pos))
        return None

    @cached_property
    def _grouped_digits(self) -> list[tuple[str, int]]:
        """The digits of every number the tool outputs write in groups, with where each starts."""
        return digit_runs(self.strings.lower)

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

    # ---------- dates and times ----------
    def dates_times(self, kind: FactKind, value: str) -> list[Located]:
        """Dates (`YYYY-MM-DD`, `--MM-DD`) or times (`HH:MM`) in tool-output text that may equal `value`."""
        literals = date_literals(value, self.lex) if kind == FactKind.DATE else time_literals(value)
        out = []
        for entry, near in sorted(self.strings.hits(literals).items()):
            out += [loc for loc in self._mentions_near(entry, near, numbers=False) if loc.mention.kind == kind]
        return out

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
                if mention.kind in WHEN:
                    out.append(Located(mention, leaf))
                elif mention.kind == FactKind.NUMBER:
                    add_number(out, mention._replace(labels=ex.labels_before(leaf.text, mention, 0)), leaf)
        return out
