"""Which item of a tool's list a claim names: by a word of its strings, or by its position in a path."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from typing import TYPE_CHECKING, Any

from factcheck.grounding.flat import scalars_of, shape_of, value_in
from factcheck.report import Fact, FactKind, Verdict

if TYPE_CHECKING:
    from factcheck.grounding.evidence import EvidenceIndex

LIST_ITEM = re.compile(r"(.*)\[(\d+)\]\.")
"""The innermost list item a field sits in: `orders[1].items[0].sku` -> (`orders[1].items`, `0`)."""
# A word that names a record: Latin letters and digits with a letter, three or more; a CJK run of two or more.
_NAME_WORD = re.compile(r"(?=[a-z0-9]*[a-z])[a-z0-9]{3,}|[\u3400-\u9fff]{2,}")
_FAR_KEY = 4
"""Shortest key that names its record in other calls' lists too (a flight number; not a room's "1")."""
_FAR_KINDS = frozenset({FactKind.DATE, FactKind.TIME})
"""Facts the other calls that list a record by its key speak for too: the record's dates and times as another call
lists it are its own (the return flight's departure in a search); its amounts, states and the identifiers beside
it may be another thing's (a fare difference, a payment, the warehouse an item went back to)."""
WORD_NAMED_RECORDS = 20
"""Longest list whose items a claim's words may name (the rows an answer lists; reading words is per item)."""


def record_words(record: dict) -> set[str]:
    """The words of a record's strings that can name it (see `names_record`)."""
    return {w for v in record.values() if isinstance(v, str) for w in _NAME_WORD.findall(v.lower())}


def distinct_words(records: Any) -> list[set[str]]:
    """For each item of a list of records, the words no other item has.

    A list longer than `WORD_NAMED_RECORDS` (or anything not a list) gives none: an
    answer names the rows of a short list, not of a long output.
    """
    if not isinstance(records, list) or len(records) > WORD_NAMED_RECORDS:
        return []
    words = [record_words(r) if isinstance(r, dict) else set() for r in records]
    counts = Counter(w for own in words for w in own)
    return [{w for w in own if counts[w] == 1} for own in words]


def names_record(claim: str, other: dict, own: dict, field: str) -> bool:
    """Whether a claim (lower case) names a record by a word of one of its strings.

    The word is a Latin word of three letters or more, or a CJK run of two characters or
    more ("中性笔" of "中性笔 (12支装)"), of a field other than `field`, and not also in
    the record it is told apart from.
    """
    own_words = record_words(own)
    return any(
        word in claim
        for k, v in other.items() if k != field and isinstance(v, str)
        for word in _NAME_WORD.findall(v.lower()) if word not in own_words
    )


Record = tuple[int, str, str]
"""A list item: (call, list path, item index as written in paths)."""
# Clause marks, brackets among them (a parenthesis speaks of what stands before it); a number's
# thousands comma ("1,820") is not one.
_CLAUSE_MARK = re.compile(r"[，；;、\n—（）()]|,(?!\d)")
_LIST_LINE = re.compile(r"\s*(?:[-*•·]|\d{1,2}[.)、])\s")
"""A claim that is a list item's line: what it says describes the item it names, wherever it names it."""
_CAPITALISED = re.compile(r"(?<![\w'’])[A-Z][a-z]{2,}")
_NAMING_KINDS = (FactKind.IDENTIFIER, FactKind.NAME, FactKind.NUMBER)


class ClaimRecords:
    """The list items one claim names, clause by clause.

    In "武汉仓还剩 120 件，北京仓只有 8 件" each clause names its own warehouse: a fact
    belongs to the records its clause names, or, when the clause names none, to those
    the whole claim names.
    """

    def __init__(self, index: EvidenceIndex, list_words: dict[tuple[int, str], list[set[str]]]) -> None:
        self.index = index
        self._list_words = list_words
        """(call, list path) -> each item's distinct words; shared by every claim of a check."""
        self._item_texts: dict[tuple[int, str], list[str]] = {}
        """(call, list path) -> each item's strings lower-cased, joined by NUL (read once per check)."""
        self._elsewhere: dict[tuple[int, str, str], list[Record]] = {}
        """(call, key field, key) -> the list items of other calls with that key (read once per check)."""
        self.reset([], "", 0)

    def reset(self, facts: list[Fact], text: str, start: int) -> None:
        """Start on a new claim: its facts, its text, and where its text starts in the answer. A claim that opens
        with a pronoun (lexicon `record_pronouns`: "It departs at 08:40") and names no record of its own speaks of
        the records the claim before named by their keys."""
        opens = bool(getattr(self, "facts", None)) and self.index.lex.record_pronouns.match_at(text, 0) \
            and not any(f.kind in _NAMING_KINDS for f in facts)
        self.before = [(record, True, (id(f), record) in self._far) for f, record, key in self._naming_places()
                       if key] if opens else []
        """(record, by its key, found in another call's list) of each record the claim before named by its key, when
        this one opens with a pronoun and names none."""
        self.facts, self.text, self.start = facts, text, start
        self._places: tuple[tuple[Verdict | None, ...], list[tuple[Fact, Record, bool]]] | None = None
        self._far: set[tuple[int, Record]] = set()
        """(id of the naming fact, record) of the places `_naming_places` found of a key in other calls' lists."""
        self._clauses: dict[int, tuple[int, int]] = {}
        self._mark_ends: list[int] | None = None
        """Where each clause mark of the claim ends (its text searched once, when a clause is first asked for)."""

    def clause(self, fact: Fact) -> tuple[int, int]:
        """Where the clause around the fact starts and ends in the answer: between clause marks of the claim."""
        bounds = self._clauses.get(fact.start)
        if bounds is None:
            at = min(max(fact.start - self.start, 0), len(self.text))
            if self._mark_ends is None:
                self._mark_ends = [m.end() for m in _CLAUSE_MARK.finditer(self.text)]
            ends = self._mark_ends  # marks are one character: one ends at or before `at` when it starts before
            before = bisect_right(ends, at)
            # a bracket closed before the fact is an aside of what stands before it ("Desk Lamp (white) $135.24"),
            # unless it names a record itself ("Everyday Checking (CHK-68686040) to Rainy Day savings")
            while before and self.text[ends[before - 1] - 1] in ")）":
                closed = ends[before - 1]
                opened = max(self.text.rfind("(", 0, closed), self.text.rfind("（", 0, closed))
                if opened < 0 or any(f.kind in _NAMING_KINDS and opened < f.start - self.start < closed
                                     for f in self.facts):
                    break
                before = bisect_right(ends, opened)
            # a comma right before `at` is a mark there whatever follows (what the text up to `at` alone says)
            begin = at if at and self.text[at - 1] == "," else ends[before - 1] if before else 0
            after = bisect_left(ends, at + 1)
            stop = ends[after] - 1 if after < len(ends) else len(self.text)
            bounds = self._clauses[fact.start] = (self.start + begin, self.start + stop)
        return bounds

    def _naming_places(self) -> list[tuple[Fact, Record, bool]]:
        """(fact, record, whether by its key) of each backed fact that names a list item.

        Worked out again only when a naming fact's verdict changed since (`_foreign_names` may contradict one).
        """
        naming = [f for f in self.facts if f.kind in _NAMING_KINDS]
        state = tuple(f.verdict for f in naming)
        if self._places is not None and self._places[0] == state:
            return self._places[1]
        places = []
        for f in naming:
            if f.verdict != Verdict.SUPPORTED or not f.evidence or f.evidence[0].source != "tool":
                continue
            ev = f.evidence[0]
            item = LIST_ITEM.match(ev.path)
            if item is None:
                continue
            key = self.index.is_record_key(ev.path)
            said = (f.value or f.text).lower()
            if said not in ev.text.lower():
                said = ev.text.lower()  # "+1 646 555 0182" as the tool writes it, of the answer's 16465550182
            if not key and self._items_with(ev.index, item[1], said) > 1:
                continue  # "Amazon Marketplace" of three transactions names none of them
            if key or f.kind != FactKind.NUMBER:
                places.append((f, (ev.index, item[1], item[2]), key))
            if key and len(ev.text) >= _FAR_KEY:  # the same record listed by another call (a reservation's flight,
                # and the search that lists it)
                far = self._listed_elsewhere(ev.index, ev.path, ev.text)
                self._far.update((id(f), record) for record in far)
                places.extend((f, record, True) for record in far)
            items = self.index.value_at(ev.index, item[1]) if key else None
            if isinstance(items, list):  # a key several items share (`order_id` of a purchase and its refund)
                field = ev.path[item.end() :]  # names each of them
                places.extend((f, (ev.index, item[1], str(i)), key) for i, other in enumerate(items)
                              if str(i) != item[2] and isinstance(other, dict)
                              and str(value_in(other, field)) == ev.text)
        self._places = (state, places)
        return places

    def _listed_elsewhere(self, call: int, path: str, text: str) -> list[Record]:
        """The list items of other calls whose key field of the same name holds `text` (`flight_number` NX1790 of a
        reservation's `flights[1]` and of a search's `results[1]`): the one record, as each call lists it (worked
        out once per check: every claim naming the key asks again)."""
        field = path.rsplit(".", 1)[-1]
        held = self._elsewhere.get((call, field, text))
        if held is None:
            held = self._elsewhere[(call, field, text)] = self._find_elsewhere(call, field, text)
        return held

    def _find_elsewhere(self, call: int, field: str, text: str) -> list[Record]:
        """`_listed_elsewhere`, read from the tool outputs."""
        found = []
        for flat in self.index.flats:
            if flat.call == call or flat.root:
                continue
            for shape, places in flat.strings.items():
                if shape.rsplit(".", 1)[-1] != field or text not in places:
                    continue
                item = LIST_ITEM.match(flat.path(*places[text]))
                items = self.index.value_at(flat.call, item[1]) if item is not None else None
                if isinstance(items, list):  # every item of that list with the key (a card's two payments)
                    found.extend((flat.call, item[1], str(i)) for i, other in enumerate(items)
                                 if isinstance(other, dict) and str(other.get(field)) == text)
        return found

    def _items_with(self, call: int, items: str, text: str) -> int:
        """`items_holding` of the list at path `items` of `call`, its items' strings lower-cased once per check."""
        if "\x00" in text:
            return items_holding(self.index.value_at(call, items), text)
        texts = self._item_texts.get((call, items))
        if texts is None:
            value = self.index.value_at(call, items)
            texts = self._item_texts[(call, items)] = [
                "\x00".join(v.lower() for v in scalars_of(item) if isinstance(v, str)) for item in value
            ] if isinstance(value, list) else []
        return sum(text in item for item in texts) if text else 0

    def names_by_key(self) -> bool:
        """Whether a backed fact of the claim names a list item by its key."""
        return any(key for _, _, key in self._naming_places())

    def named(self, fact: Fact, clause: tuple[int, int] | None = None, keys_only: bool = False) -> set[Record]:
        """The list items the claim (or the span `clause` of it) names by a backed identifier or name.

        A record's key (`order_id`, `flight_no`) names its record before any other field does,
        and a backed number names a record only from its key ("80345" of `[1].order_id`).
        """
        near = fact.kind not in _FAR_KINDS  # only a date or time another call gives of the key's record is its own
        places = [
            (record, key) for f, record, key in self._naming_places()
            if f is not fact and (clause is None or clause[0] <= f.start < clause[1])
            and not (near and (id(f), record) in self._far)
        ] or [(record, key) for record, key, far in self.before if not (near and far)]
        if keys_only or any(key for _, key in places):
            places = [p for p in places if p[1]]
        return {record for record, _ in places}

    def named_by_words(self, text: str, lists: set[tuple[int, str]]) -> set[Record]:
        """The one item of each list that a word of `text` (lower case) names.

        A word names an item when no other item of its list has it (see `distinct_words`);
        a list two or more items of which are named this way gives none.
        """
        named = set()
        for call, items in lists:
            distinct = self.distinct_words(call, items)
            hit = [i for i, own in enumerate(distinct) if any(w in text for w in own)]
            if len(hit) == 1:
                named.add((call, items, str(hit[0])))
        return named

    def records_for(self, fact: Fact, lists: set[tuple[int, str]]) -> tuple[set[Record], str]:
        """The records a fact is about, and the text (lower case) that names them.

        Those its clause names, else (unless the clause speaks of the other records) those the
        claim names up to the end of that clause, or by a key anywhere (the whole of a list item's line);
        each by a backed identifier or name first, else by a word one item alone has.
        """
        text = self.text.lower()
        begin, end = self.clause(fact)
        clause = text[begin - self.start : end - self.start]
        named = self.named(fact, (begin, end)) or self.named_by_words(clause, lists)
        if named or self.index.lex.other_record_words.search(clause):
            return named, clause  # "另外 O-5512 已取消，其余订单已发货": the clause is about other records
        if self._names_unknown(self._unexplained(begin, end)):
            return set(), clause  # "(Pudong has 7": it names a record in words the tools do not use
        if _LIST_LINE.match(self.text):  # "2. **Blue, 20 hours, IPX4** - $226.49 (Item ID: …)": one item's line
            return self.named(fact) or self.named_by_words(text, lists), text
        # in prose, a record named after the fact's clause other than by its key is a later clause's ("17:30 只能坐
        # 7 人，18:00 已被订走，所以最早合适的是 19:00（bar side）")
        return self.named(fact, (self.start, end)) or self.named(fact, keys_only=True) \
            or self.named_by_words(text[: end - self.start], lists), text

    def _unexplained(self, begin: int, end: int) -> str:
        """The clause `begin:end` with its dates, times, weekdays and backed facts blanked out ("May 22")."""
        chars = list(self.text[begin - self.start : end - self.start])
        for f in self.facts:
            if f.verdict == Verdict.SUPPORTED or f.kind in (FactKind.DATE, FactKind.TIME, FactKind.WEEKDAY):
                for i in range(max(f.start, begin) - begin, min(f.end, end) - begin):
                    chars[i] = " "
        return "".join(chars)

    def _names_unknown(self, clause: str) -> bool:
        """Whether the clause holds a capitalised word no tool output holds (a translated name: Pudong)."""
        words = {w for w in _CAPITALISED.findall(clause) if w not in self.index.lex.name_stopwords}
        return any(self.index.find_text(w.lower()) is None for w in words)

    def keyed(self, fact: Fact) -> set[Record]:
        """The records a fact's clause names by a key field, else those the claim names so."""
        return self.named(fact, self.clause(fact), keys_only=True) or self.named(fact, keys_only=True)

    def distinct_words(self, call: int, items: str) -> list[set[str]]:
        """For each item of a list, the words no other item has, status words aside (cached per check).

        None for a long list; a status value ("delivered") never names its record.
        """
        found = self._list_words.get((call, items))
        if found is None:
            status_words = self.index.lex.status_words
            found = self._list_words[(call, items)] = [
                {w for w in own if w not in status_words}
                for own in distinct_words(self.index.value_at(call, items))
            ]
        return found


def items_holding(items: Any, text: str) -> int:
    """How many items of a list hold `text` (lower case) in one of their strings."""
    if not isinstance(items, list) or not text:
        return 0
    return sum(any(isinstance(v, str) and text in v.lower() for v in scalars_of(item)) for item in items)


def other_item(path: str, records: set[Record], call: int) -> bool:
    """Whether `path` of `call` lies in an item of a list one of `records` is in, but not in that record."""
    item = LIST_ITEM.match(path)
    if item is None:
        return False
    same_list = [i for c, items, i in records if c == call and shape_of(items) == shape_of(item[1])]
    return bool(same_list) and not any(
        path.startswith(f"{items}[{i}].") for c, items, i in records if c == call
    )
