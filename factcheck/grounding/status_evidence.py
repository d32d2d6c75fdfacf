"""What the tool outputs of a run say about statuses: read from values, field names, list lengths and errors."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from factcheck.extractors.status import StatusExtractor, StatusMention
from factcheck.grounding.flat import Leaf
from factcheck.lexicon import field_name, remember

if TYPE_CHECKING:
    from factcheck.grounding.evidence import EvidenceIndex
    from factcheck.grounding.records import ToolRecord


_RECORD_TEXT = 2000
"""Longest plain text read whole for what an order or ticket is (a long log is searched per concept only)."""
_WHOLE_RECORD = 5
"""Fewest top-level fields of an output that make it a whole record (an order with its items, address,
payments), whose bare `status` is the record's state rather than the outcome of the call that returned it."""


@dataclass(slots=True, eq=False)
class StatusEvidence:
    """A status that a tool output states, and the leaf that states it."""

    concept: str | None
    polarity: str
    leaf: Leaf
    call: int


class StatusReader:
    """Reads the statuses of one run's tool outputs, on demand and per concept."""

    def __init__(self, index: EvidenceIndex, extractor: StatusExtractor) -> None:
        self.index = index
        self.extractor = extractor
        self._stated: dict[str, list[StatusEvidence]] = {}
        """Concept -> what the outputs state of it themselves (`find` without implied statuses), read once per
        run: every concept it implies asks for it."""

    @cached_property
    def _expected_shapes(self) -> frozenset[str]:
        """The shapes of the run's string fields whose name says what is expected to happen (`expected`, `eta`,
        预计; lexicon `expectation_fields`): they state no status (read once per run)."""
        words = self.index.lex.expectation_fields
        return frozenset(shape for _, shape, _, _ in self.index.strings.buckets
                         if not words.isdisjoint(field_name(shape).split()))

    def find(self, concept: str | None, implied: bool = True) -> list[StatusEvidence]:
        """Statuses about `concept` (every status for None), in call order.

        Read from the strings that name it, or whose field or tool does; from booleans and filled
        fields by their names; from list lengths (search results); and from calls that failed.
        """
        index = self.index
        strings = index.strings
        concept_words = index.lex.concept_words.get(concept, ()) if concept else ()
        hits = sorted(index.entries_with(concept_words)) if concept else []
        out: list[StatusEvidence] = []
        expected = self._expected_shapes
        for flat, shape, first, end in strings.buckets:
            if flat.root or shape in expected:
                continue  # `expected: 复核通过后 2 小时内到账` says what may happen, not what has
            call = index.calls[flat.call]
            # an error's text never says its own action was done ("PublishError: ... 0 items posted"),
            # though it may state a status ("OrderLockedError: order 51877 is already in transit")
            failed = call.concepts if call.status == "error" else frozenset()
            # a shape's default concept is its own words' or its call's, whether or not the shape was read before (in
            # this run or another): the same run reads the same way whatever was checked before it
            default = index.path_info(shape)[1] or call.default_concept
            default = self._record_state(call, shape, default)
            if concept is None or default == concept:
                entries: Iterable[int] = range(first, end)
            else:
                entries = hits[bisect_left(hits, first) : bisect_left(hits, end)]
            for i in entries:
                for s in self.read(strings.texts[i], default):
                    if (concept is None or s.concept == concept) and not (s.action and s.concept in failed):
                        out.append(StatusEvidence(s.concept, s.polarity, index.string_leaf(i), call.index))
        for flat in index.flats:
            if flat.root:
                continue
            call = index.calls[flat.call]
            for value, node, key, shape in flat.bools:
                name = field_name(shape)
                default = index.path_info(shape)[1] or call.default_concept
                for s in self.read(name, default):
                    if concept is None or s.concept == concept:
                        pol = s.polarity if value else _negate(s.polarity)
                        leaf = index.leaf(flat.call, flat.path(node, key), shape, "true" if value else "false")
                        out.append(StatusEvidence(s.concept, pol, leaf, call.index))
        out += [s for s in self._filled_fields if concept is None or s.concept == concept]
        if concept is not None and implied:
            out += self._implied(concept)
        out.sort(key=lambda s: s.call)
        if concept in (None, "search"):
            for count, leaf in index.list_counts:
                if not leaf.path.startswith("args"):
                    out.append(StatusEvidence("search", "positive" if count else "negative", leaf, leaf.index))
        for call in index.failed_calls:
            leaf = index.first_leaf(call.index) or Leaf("tool", call.index, "", "")
            # a failed write failed its action: `modify_pending_order_items` raising says nothing of the order
            acts = sorted(c for c in call.concepts if c in index.lex.action_tools)
            for c in acts or sorted(call.concepts) or [None]:
                if concept is None or c == concept:
                    out.append(StatusEvidence(c, "negative", leaf, call.index))
        return out

    @cached_property
    def record_statuses(self) -> list[StatusEvidence]:
        """The statuses of the outputs' status fields (`status`, `状态`) and short plain texts, in call order.

        What an order or a ticket is, when no output states a status of that concept itself
        (lexicon `generic_concepts`): reading only these fields keeps it cheap on a large output.
        """
        index, out = self.index, []
        status_fields = index.lex.status_fields
        for flat, shape, first, end in index.strings.buckets:
            if flat.root or not (shape == "" or status_fields.search(field_name(shape))):
                continue  # a status field, or a tool's plain text ("WO-88120 状态: 已完成")
            call = index.calls[flat.call]
            default = self._record_state(call, shape, index.path_info(shape)[1] or call.default_concept)
            for i in range(first, end):
                if len(index.strings.texts[i]) <= _RECORD_TEXT:
                    out += [
                        StatusEvidence(s.concept, s.polarity, index.string_leaf(i), call.index)
                        for s in self.read(index.strings.texts[i], default)
                    ]
        out.sort(key=lambda s: s.call)
        return out

    def _record_state(self, call: ToolRecord, shape: str, default: str | None) -> str | None:
        """What a status field speaks of: a whole record's own top-level `status`, returned by a call that
        acted on it (`modify_pending_order_address` -> the order, `status: pending`), is the record's state,
        not the action's outcome; so is a status the call's name holds as a word of its own, in an output of
        any size; a failure there still speaks of the action (read in `find`).

        Args:
            call: The call whose output holds the field.
            shape: The field's path shape.
            default: The concept the field would speak of otherwise.

        Returns:
            The concept the field's statuses speak of.
        """
        record = call.record_concept
        if (
            record is None
            or default != call.default_concept
            or record == default
            or call.status != "ok"
            or "." in shape
            or not self.index.lex.status_fields.search(field_name(shape))
        ):
            return default
        output = self.index.flats[call.index].value
        if not isinstance(output, dict):
            return default
        value = output.get(shape)
        if not isinstance(value, str) or any(s.polarity == "negative" for s in self.read(value, default)):
            return default
        # a tool named for the state it acts on (`modify_pending_order_address`) returns that state as the record's,
        # however few fields it returns
        named = value.lower().replace(" ", "_") in (call.name or "").lower().split("_")
        return record if named or len(output) >= _WHOLE_RECORD else default

    def _implied(self, concept: str) -> list[StatusEvidence]:
        """The statuses of `concept` that statuses of other concepts imply (out for delivery: it has shipped)."""
        out = []
        for (source, polarity), implied in self.index.lex.status_implies.items():
            targets = [p for c, p in implied if c == concept]
            if targets and source != concept:
                stated = self._stated.get(source)
                if stated is None:
                    stated = self._stated[source] = self.find(source, implied=False)
                out += [  # what the outputs state of the source itself, not what they imply of it (no cycle)
                    StatusEvidence(concept, targets[0], s.leaf, s.call) for s in stated if s.polarity == polarity
                ]
        return out

    @cached_property
    def _filled_fields(self) -> list[StatusEvidence]:
        """The statuses fields state by their names: a filled one its positive status ({"sent_to": "a@b.cn"},
        {"in_transit": {...}}) and a number its negative one ({"delay_min": 12}: delayed), a zero the
        opposite of its status ({"delay_min": 0}: on time)."""
        out = []
        for flat in self.index.flats:
            if flat.root:
                continue
            call = self.index.calls[flat.call]
            for field, (shape, node, key, text) in flat.present_fields().items():
                default = self.index.path_info(field)[1] or call.default_concept
                number = field == shape and field in flat.numbers  # the field holds the number itself
                for s in self._field_statuses(field, default):
                    if s.polarity == "positive" or s.polarity == "negative" and number:
                        leaf = self.index.leaf(flat.call, flat.path(node, key), shape, text)
                        out.append(StatusEvidence(s.concept, s.polarity, leaf, call.index))
            for shape, node, key in flat.zero_fields():
                default = self.index.path_info(shape)[1] or call.default_concept
                for s in self._field_statuses(shape, default):
                    if s.polarity in ("positive", "negative"):
                        leaf = self.index.leaf(flat.call, flat.path(node, key), shape, "0", numeric=True)
                        out.append(StatusEvidence(s.concept, _negate(s.polarity), leaf, call.index))
        return out

    def _field_statuses(self, field: str, default: str | None) -> list[StatusMention]:
        """The statuses a field's name states (`sent_to`: sent), cached per lexicon: fields repeat across runs."""
        cache = self.index.lex.field_status_cache
        found = cache.get((field, default))
        if found is None:
            found = remember(cache, (field, default), self.read(field_name(field), default))
        return found

    def read(self, text: str, default: str | None) -> list[StatusMention]:
        """Statuses a tool-output value states, `default` the concept of its field or tool (cached per lexicon)."""
        cache = self.index.lex.status_cache
        found = cache.get((text, default))
        if found is None:
            found = remember(cache, (text, default), self.extractor.extract(text, default, claims=False))
        return found


def _negate(polarity: str) -> str:
    return "negative" if polarity == "positive" else "positive"
