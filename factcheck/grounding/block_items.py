"""A code or a name of one list item said in a block or a line about a sibling item: another parcel's tracking no."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation

from factcheck.grounding.calls import said_whole
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.flat import scalars_of
from factcheck.grounding.record_blocks import claim_blocks
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.report import Claim, Fact, FactKind, Verdict

_TOLD = (FactKind.IDENTIFIER,)
"""The facts a block may say of the wrong item: codes (names are read loosely; numbers and dates repeat across
items)."""
_TOLD_IN_LINE = (FactKind.IDENTIFIER, FactKind.NAME)
"""The facts a line (a list item, a table row) may say of the wrong item: its codes and names too."""
_NAMING_FIELD = re.compile(r"(?i)name|title|product|desc|type|model|hotel|room|event|note|merchant|item|service")
"""The fields that name an item itself (`name`, `room_type`, `merchant`): a name said from one is the item brought in,
not a role of another item's (`provider`, `driver`, `assignee`) said of this one."""
_BINDING = (FactKind.IDENTIFIER, FactKind.NAME, FactKind.NUMBER, FactKind.DATE, FactKind.TIME)
"""The facts that bind a block to the item that alone holds them."""
_SHORTEST = 3
"""Shortest value that binds or is told (two characters name nothing)."""
_FEWEST_BINDING = 2
"""Facts only the block's item holds before the block is read as that item's."""
_APART = re.compile(r"(?i)\b(?:except|excluding|without|other than|besides|instead of|another|other|than|vs\.?|"
                    r"versus|previous|old|earlier|compared)\b|除了|除外|以外|另一|其他|其它|之前|原来|原|比|而")
"""Words that bring a second record into the block ("unlike your other order", 另一个包裹, 比): it may name it."""


def _lists(index: EvidenceIndex) -> Iterator[tuple[int, str, list[dict]]]:
    """Each successful call's lists of records: the output itself, or a top-level field, when it lists two or more
    mappings (`shipments`, `bookings`, `orders`)."""
    for call in index.calls:
        if call.status == "error":
            continue
        output = index.flats[call.index].value
        fields = [("", output)] if isinstance(output, list) else \
            list(output.items()) if isinstance(output, dict) else []
        for name, value in fields:
            if isinstance(value, list) and len(value) > 1 and all(isinstance(v, dict) for v in value):
                yield call.index, name, value


def _said(fact: Fact) -> str:
    """The fact's value as the tools write it, lower case."""
    return (fact.value or fact.text).lower().lstrip("#")


def _holds(item: dict, fact: Fact) -> bool:
    """Whether a scalar under the item is the fact's value (a string whole, a number equal)."""
    said = _said(fact)
    number = None
    if fact.kind == FactKind.NUMBER:
        try:
            number = Decimal(fact.value or "")
        except InvalidOperation:
            return False
    for value in scalars_of(item):
        if isinstance(value, bool) or value is None:
            continue
        if number is not None:
            if isinstance(value, int | float) and Decimal(str(value)) == number:
                return True
        elif isinstance(value, str) and (value.lower().lstrip("#") == said or fact.kind == FactKind.NAME
                                         and said_whole(value.lower(), said)):
            return True  # a name may be part of its field's value ("Marcus Hale" of "Dr. Marcus Hale")
        elif fact.kind in (FactKind.DATE, FactKind.TIME) and isinstance(value, str) \
                and (said[1:] if said.startswith("--") else said) in value.lower():
            return True  # a date without its year ("--11-11") is its month and day
    return False


def _field_of(item: dict, fact: Fact) -> str | None:
    """The top-level field of the item whose value is the fact's (a string whole), if one is."""
    said = _said(fact)
    named = fact.kind == FactKind.NAME
    return next((k for k, v in item.items() if isinstance(v, str)
                 and (v.lower().lstrip("#") == said or named and said_whole(v.lower(), said))), None)


def items_of_block(claims: list[Claim], source: str, index: EvidenceIndex) -> None:
    """Contradict a code (in a block) or a name in a role field (in a line) that only a sibling list item holds, said
    where every other fact only one item holds.

    In "- **商品**：AirPods Pro 2 / - **Carrier**：SF Express / - **Tracking No.**：JDVA30118276645 / - **预计送达**：
    11月13日", the product, the carrier and the date are only `shipments[0]`'s; the tracking number is
    `shipments[1].tracking`, and `shipments[0]` has a tracking number of its own that the block never says: the block
    gave the first parcel the second one's number. A line (a list item, a table row) is read the same way for names
    too: "Tue, Oct 7 at 9:15 AM: Cardiology with Dr. Marcus Hale", where the 9:15 appointment's provider is Dr. Anita
    Raman. A block or line that says the item's own value of the field too, holds two facts of the sibling or facts of
    a third item, or words that bring a second record in ("the other parcel", 另一个, 比) is left alone, and so is a
    name from the sibling's own name field (`name`, `room_type`: the sibling brought in, not mistaken).

    Args:
        claims: The answer's claims, grounded.
        source: The text the claims' offsets are in.
        index: The run's evidence.
    """
    lists = list(_lists(index))
    if not lists:
        return
    lowered = source.lower()
    held: dict[tuple[int, int], list[int]] = {}

    def holding(at: int, fact: Fact) -> list[int]:
        """The items of list `at` that hold the fact, looked for once (a fact is in a block and in a line)."""
        key = (at, id(fact))
        if key not in held:
            held[key] = [i for i, item in enumerate(lists[at][2]) if _holds(item, fact)]
        return held[key]

    blocks = claim_blocks(claims, source)
    lines = claim_blocks(claims, source, lambda gap: "\n" in gap)  # a list item, a table row
    for block, told in [*((b, _TOLD) for b in blocks), *((line, _TOLD_IN_LINE) for line in lines)]:
        facts = [f for c in block for f in c.facts if f.kind in _BINDING and f.verdict == Verdict.SUPPORTED
                 and len(_said(f)) >= _SHORTEST]
        if len(facts) <= _FEWEST_BINDING:
            continue
        text = lowered[block[0].start : block[-1].end]
        if _APART.search(text) or index.lex.other_record_words.search(text):
            continue
        for at, (call, name, items) in enumerate(lists):
            holders = {id(f): holding(at, f) for f in facts}
            # each value once: "$258.00" said twice binds no more than once
            alone = Counter(h[0] for h in {_said(f): holders[id(f)] for f in facts}.values() if len(h) == 1)
            if len(alone) != 2:
                continue  # one item only, or a block over three or more (a table, a list of orders)
            (own, bound), (_, second) = alone.most_common(2)
            if bound < _FEWEST_BINDING or second != 1:
                continue  # the sibling has a second fact of its own: the block speaks of it too
            for fact in facts:
                where = holders[id(fact)]
                if fact.kind not in told or len(where) != 1 or where[0] == own or fact.verdict != Verdict.SUPPORTED:
                    continue  # not told here, not the sibling's alone, or already contradicted by its block
                other = where[0]
                field = _field_of(items[other], fact)
                if fact.kind == FactKind.NAME and field and _NAMING_FIELD.search(field):
                    continue  # the sibling's own name ("Wool Socks", a room type): it brings the sibling in
                mine = items[own].get(field) if field else None
                if not isinstance(mine, str) or mine.lower() == _said(fact) or said_whole(text, mine.lower()):
                    continue  # the block's item has no value of the field, or the block says it too
                path = f"{name}[{{}}].{field}" if name else f"[{{}}].{field}"
                own_leaf = index.leaf_at(call, path.format(own))
                other_leaf = index.leaf_at(call, path.format(other))
                if own_leaf is None or other_leaf is None:
                    continue
                set_verdict(fact, Verdict.CONTRADICTED, "wrong_record",
                            f"the block's other facts are only {path.format(own)[: -len(field) - 1]}'s, whose "
                            f"{field} is {mine}; {fact.text} is {other_leaf.path}",
                            [evidence_of(own_leaf, index), evidence_of(other_leaf, index)])
