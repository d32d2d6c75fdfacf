"""A count in pieces of the items a claim names: "T恤 ×2、牛仔裤 ×1，共 4 件" of lines of 2 and 1 is three."""

from __future__ import annotations

import re
from decimal import Decimal

from factcheck.grounding.count_totals import clause_before, said_whole, subset_sums
from factcheck.grounding.counting import record_lists
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.roles import ClaimText, clause_bounds, num_text, plus_text
from factcheck.grounding.verdicts import Backing, evidence_of
from factcheck.lexicon import field_name
from factcheck.phrases import term_key
from factcheck.report import Fact, FactKind

_CJK_NAME = 4
"""The fewest Chinese characters a name has to name an item by (硅胶手机壳; not 耳机)."""
_RIGHT_BEFORE = 12
"""How far before a count (characters) an item's name ends, with no mark between, for the count to be that item's
pieces."""
_BETWEEN_ITEMS = re.compile(r"(?i)[,，、;；:：。+]|\band\b|和")
"""A mark between an item's name and a count that makes the count no longer that item's own."""
_COUNT_BEFORE = re.compile(r"(?<![\d.,])(\d{1,3})\s*[x×]?\s*$")
_COUNT_AFTER = re.compile(r"\s*[x×*]\s*(\d{1,3})(?![\d.])")
"""A count of pieces right before or after an item's name ("1 Extension Cord", "保温杯 500ml ×2")."""
_IN_A_NAME = re.compile(r"(?i)\s*(?:件?[套装]|-?(?:piece|pc|pack)\b)")
"""What makes a count part of an item's name right after its number or unit ("四件套", "5件装", "8-Piece")."""
_OF_A_WHOLE = re.compile(r"(?i)\bof (?:the|your|all)\s*$|(?:中的|里的)\s*$")
"""Words right before a count that make it the whole a part is counted of ("3 of the 5 units")."""
_NOUN_AFTER = re.compile(r"(?i)\s*(?:件|pieces?|pcs|units?)?\s*(?:商品|东西|货品|products?\b|items?\b)")
"""A noun after a count's unit ("3 件商品"): the count may be of the products named, one each."""
_MOST_NAMED = 8
"""Most named items whose quantities are added up (their subsets are read too)."""


def named_items_count(fact: Fact, claimed: Decimal, said: ClaimText, index: EvidenceIndex) -> Backing | None:
    """Recompute a count in pieces (lexicon `piece_units`: 件, pcs) of the list items the claim names by their
    names ("蓝牙耳机 Pro×1、硅胶手机壳×2 … 已经收到 4 件" of lines of 1 and 2 is three).

    The names are read between the claim's counts of the unit before and after it ("共 5 件，已发 3 件（…）" names
    the three's items). When they are two or more items of one list of records that give their quantities (lexicon
    `fields` quantity; the pieces the answer gives beside a name come first: "1 Extension Cord"), the count may be
    their quantities added up, those of some of them ("其中 2 件已发出"), the quantity of the item named right
    before it ("鲜牛奶 1L×2 共 2 件"), and with a noun after its unit ("3 件商品") how many items it names; said
    as the whole (共, in total) it is of all of them. A count that is none of these, for every list whose items the
    claim names, is contradicted. Left alone: a count of a name ("四件套", "8-Piece Knife Set"), the whole a part
    is of ("3 of the 5 units"), and a count a quantity or count field of a tool's record gives (a return's
    `items_returned`).

    Args:
        fact: A whole number with a piece unit.
        claimed: Its value.
        said: The claim (its other counts bound the names read).
        index: The run's evidence.

    Returns:
        A `recomputed` backing when the named items add up to another count; None otherwise.
    """
    lex = index.lex
    unit = (fact.unit or "").lower()
    if unit not in lex.piece_units or claimed != claimed.to_integral_value() or claimed < 1:
        return None
    claim, start = said.text, said.start
    at, end = fact.start - start, fact.end - start
    if _IN_A_NAME.match(claim, end) or _OF_A_WHOLE.search(claim, 0, at):
        return None
    others = [f for f in said.facts if f is not fact and f.kind == FactKind.NUMBER and (f.unit or "").lower() == unit]
    begin = max((f.end - start for f in others if f.end - start <= at), default=0)
    stop = min((f.start - start for f in others if f.start - start >= end), default=len(claim))
    text = claim[begin:stop].lower()
    whole = said_whole(clause_before(fact, claim, start), lex) \
        or said_whole(term_key(claim[end : clause_bounds(fact, said)[1]]), lex)  # "2 pieces in total"
    found = None
    for leaf, records in record_lists(index):
        if index.calls[leaf.index].status == "error":
            continue
        named = [(where, record) for record in records if (where := _name_at(record, text)) is not None]
        if len(named) < 2:
            continue
        quantities = [_said_quantity(text, *where) or _quantity(record, index) for where, record in named]
        if any(q is None for q in quantities):
            continue
        parts = [Decimal(q) for q in quantities if q is not None][:_MOST_NAMED]
        counts = {sum(parts)} if whole else subset_sums(parts)
        last = max(((stop, q) for ((_, stop), _), q in zip(named, parts, strict=False) if stop <= at - begin),
                   default=None)
        if last is not None and at - begin - last[0] <= _RIGHT_BEFORE \
                and not _BETWEEN_ITEMS.search(text, last[0], at - begin):
            counts.add(last[1])  # "鲜牛奶 1L×2 共 2 件": that item's own pieces
        if _NOUN_AFTER.match(claim, end):
            counts.add(Decimal(len(named)))  # "一共 3 件商品（茶几、餐桌、餐椅）": the products it names
        if claimed in counts:
            return None
        if found is None:
            found = leaf, parts
    if found is None or _in_a_count_field(claimed, index):
        return None
    leaf, parts = found
    how = f"{plus_text(parts)} = {num_text(sum(parts))} {fact.unit}, the quantities of the items the claim names"
    return "recomputed", f"{how}, not {fact.text}", [evidence_of(leaf, index, how)]


def _name_at(record: dict, text: str) -> tuple[int, int] | None:
    """Where a lower-cased text names a list item by its whole `name`/`title` (two words or more, six letters or
    more, or four Chinese characters or more: 硅胶手机壳, not 耳机)."""
    for field in ("name", "title", "product_name", "item_name"):
        value = record.get(field)
        if not isinstance(value, str):
            continue
        value = value.lower()
        if len(value) >= 6 or " " in value or len(value) >= _CJK_NAME and all("\u4e00" <= c <= "\u9fff" for c in value):
            at = text.find(value)
            if at >= 0:
                return at, at + len(value)
    return None


def _said_quantity(text: str, start: int, end: int) -> int | None:
    """The pieces of an item the answer gives beside its name ("1 Extension Cord", "保温杯 ×2"), if any."""
    said = _COUNT_BEFORE.search(text, 0, start) or _COUNT_AFTER.match(text, end)
    return int(said.group(1)) if said else None


def _quantity(record: dict, index: EvidenceIndex) -> int | None:
    """A record's quantity (lexicon `fields` quantity: qty, 数量), when it gives a whole one."""
    for key, value in record.items():
        if field_name(str(key)) in index.lex.quantity_fields:
            return value if isinstance(value, int) and not isinstance(value, bool) else None
    return None


def _in_a_count_field(claimed: Decimal, index: EvidenceIndex) -> bool:
    """Whether a quantity or count field of a tool's record (not of a list's line) holds the count
    (`items_returned: 3`)."""
    for flat in index.flats[: len(index.calls)]:
        for path, _, value, is_count in flat.scalars():
            if not is_count and "[" not in path and isinstance(value, int) and not isinstance(value, bool) \
                    and value == claimed:  # a record's own count, not one line's quantity
                name = field_name(path.rsplit(".", 1)[-1].split("[")[0])
                if name in index.lex.quantity_fields or "count" in name.split() or name.startswith("items"):
                    return True
    return False
