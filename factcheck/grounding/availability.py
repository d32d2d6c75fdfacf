"""An option said to be unavailable or in stock ("item 8277474082 … currently unavailable") against its own `available`
field."""

from __future__ import annotations

import re

from factcheck.grounding.eligible import AVAILABLE
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.naming import items_holding
from factcheck.grounding.verdicts import set_verdict
from factcheck.report import Claim, Evidence, Fact, FactKind, Verdict

_NAMING = (FactKind.IDENTIFIER, FactKind.NAME)
_CLAUSE_END = re.compile(r"[；。！？]|[;.!?]\s")
"""The end of a clause or sentence between a record's name and the state: the state is another record's."""
_AFTER_END = re.compile(r"[；。！？，,]|[;.!?]\s")
"""The same after the state, commas too ("… is sold out, so the cheapest car you can book is the Compact")."""


def said_unavailable(facts: list[Fact], text: str, start: int, index: EvidenceIndex) -> None:
    """Contradict "unavailable", "out of stock" or 售罄 said of the one record the claim names, when that record's
    own availability field says it can be had (`available: true`, `in_stock: true`); and "in stock", 有货 said of
    one whose field says it cannot (`available: false`: "the cheapest in-stock variant is the 64GB silver").

    The record is the list or mapping entry with an availability field that holds the evidence of the claim's
    backed names and ids in the state's clause (a variant's `item_id`, an option's `name`); with two records
    named there, or none, nothing is said. The record's own field outranks a status other evidence gave the word
    (the empty list of another call, a low-confidence polarity).

    Args:
        facts: The claim's facts, grounded.
        text: The claim's text.
        start: Where it starts in the answer.
        index: The run's evidence.
    """
    statuses = [f for f in facts if f.kind == FactKind.STATUS and f.code != "record_state"]
    unavailable = [f for f in statuses if f.polarity == "negative" and f.concept in (None, "stock", "search")
                   and _unavailable_word(f, index)]
    in_stock = [f for f in statuses if f.polarity == "positive" and f.concept == "stock"]
    for said, can_be_had in ((unavailable, True), (in_stock, False)):
        if said:
            _against_the_record(said, can_be_had, facts, text, start, index)


def _against_the_record(said: list[Fact], can_be_had: bool, facts: list[Fact], text: str, start: int,
                        index: EvidenceIndex) -> None:
    """Contradict the states `said` when the one record the claim names has its availability field `can_be_had`."""
    first, last = min(f.start for f in said), max(f.end for f in said)
    records = set()  # the records named in the state's clause ("item 9844888101 … is unavailable", "unavailable as
    # item 8277474082")
    money = index.lex.currency_codes
    for f in facts:
        # an option's price names it too, in the state's own clause ("To: Size L, Red, $153.18 (unavailable)")
        price = f.kind == FactKind.NUMBER and f.unit in money
        before_end = _AFTER_END if price else _CLAUSE_END
        if (f.kind in _NAMING or price) and f.verdict == Verdict.SUPPORTED and f.evidence \
                and f.evidence[0].source == "tool" \
                and not (f.start < first and before_end.search(text, f.end - start, first - start)) \
                and not (f.start >= last and _AFTER_END.search(text, last - start, f.start - start)):
            # not across the end of a clause ("…; blue M is out of stock")
            found = _record_of(index, f.evidence[0].index, f.evidence[0].path)
            if found is not None and _names_one(index, found, (f.value or f.text).lower()):
                records.add(found)
    if len(records) != 1:
        return
    call, path, field = next(iter(records))
    record = index.value_at(call, path)
    if not isinstance(record, dict) or record.get(field) is not can_be_had:
        return
    where, value = f"{path}.{field}", "true" if can_be_had else "false"
    evidence = Evidence(source="tool", index=call, tool_name=index.calls[call].name, path=where, text=value)
    for fact in said:
        set_verdict(fact, Verdict.CONTRADICTED, "record_state",
                    f"the record the answer names has {where}: {value}, not {fact.text}", [evidence])


def _record_of(index: EvidenceIndex, call: int, path: str) -> tuple[int, str, str] | None:
    """The nearest entry above a leaf's path that has an availability field, and that field's name."""
    while "." in path or "[" in path:
        path = path[: max(path.rfind("."), path.rfind("["))]
        value = index.value_at(call, path) if path else None
        field = next((k for k in AVAILABLE if isinstance(value, dict) and k in value), None)
        if field is not None:
            return call, path, field
    return None


def _names_one(index: EvidenceIndex, record: tuple[int, str, str], text: str) -> bool:
    """Whether a name or id the claim says is held by its record alone among the entries beside it ("i7" of
    every laptop variant names none of them)."""
    call, path, _ = record
    parent = path[: max(path.rfind("."), path.rfind("["))]
    entries = index.value_at(call, parent) if parent else None
    entries = list(entries.values()) if isinstance(entries, dict) else entries
    return not isinstance(entries, list) or items_holding(entries, text) <= 1


def _unavailable_word(fact: Fact, index: EvidenceIndex) -> bool:
    """Whether the status is said with a word of an option that cannot be had ("unavailable", "out of stock",
    售罄, 缺货: lexicon `unbookable_states`)."""
    return index.lex.unbookable_states.search(fact.text.lower())


_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)、]|\|)")
"""A list item or a table row."""


def listed_as_available(claims: list[Claim], index: EvidenceIndex) -> None:
    """Contradict an entry of a list introduced as in stock or available ("Here are the keyboards in stock right now,
    cheapest first:", 以下是有货的款式：) when the one record the entry names has its availability field false
    (`available: false`): the heading's state is said of every entry under it.

    Args:
        claims: The answer's claims, grounded.
        index: The run's evidence.
    """
    money = index.lex.currency_codes
    for i, head in enumerate(claims):
        if not head.text.rstrip().endswith((":", "：")) or not any(
                f.kind == FactKind.STATUS and f.polarity == "positive" and f.concept == "stock" for f in head.facts):
            continue
        for item in claims[i + 1 :]:
            if not _LIST_ITEM.match(item.text):
                break
            # the record at the evidence's path or above it (a variant's key, `variants.9025753381`, is the record
            # itself: `_record_of` looks above the path it is given, so it is given one step below)
            named = [(f, found) for f in item.facts
                     if (f.kind in _NAMING or f.kind == FactKind.NUMBER and f.unit in money)
                     and f.verdict == Verdict.SUPPORTED and f.evidence and f.evidence[0].source == "tool"
                     and (found := _record_of(index, f.evidence[0].index, f.evidence[0].path + ".")) is not None
                     and _names_one(index, found, (f.value or f.text).lower())]
            if len({found for _, found in named}) != 1:
                continue
            fact, (call, path, field) = named[0]
            record = index.value_at(call, path)
            if isinstance(record, dict) and record.get(field) is False:
                where = f"{path}.{field}"
                evidence = Evidence(source="tool", index=call, tool_name=index.calls[call].name, path=where,
                                    text="false")
                set_verdict(fact, Verdict.CONTRADICTED, "record_state",
                            f"listed under {head.text.strip()[:40]!r}, but the record has {where}: false", [evidence])
