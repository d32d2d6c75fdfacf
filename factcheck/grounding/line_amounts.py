"""A line's unit price said as the line's amount ("the four ergonomic task chairs: $412.50" of a $412.50 chair)."""

from __future__ import annotations

import re
from decimal import Decimal

from factcheck.grounding.calls import said_whole
from factcheck.grounding.evidence import EvidenceIndex, Located
from factcheck.grounding.flat import record_path
from factcheck.grounding.roles import (
    PATH_STEP,
    PER_SLASH,
    PER_UNIT_FIELD,
    PER_WORK,
    PRICE_LABELS,
    ClaimText,
    Recomputed,
    claim_hits,
    join_path,
    line_quantity,
    num_text,
)
from factcheck.lexicon import field_name
from factcheck.report import Fact, FactKind

_UNIT_COLUMN = re.compile(r"(?i)\b(?:unit|each|ea|per|price|rate)\b|单价|价格|每")
"""A table header that makes its column one unit's amount ("Unit price", "Price", 单价); "Total", "Refund" do not."""
_NAME_FIELD = re.compile(r"\b(?:name|item|title|description|desc|product)\b")
"""Fields of a line's record that name what it is (`name`, `item`, `description`)."""
_QUANTITY_WORD = re.compile(r"(?i)(?<![\w.$¥€£])(\d{1,3}|[a-z]+|[两二三四五六七八九十])(?![\d.,])")
"""A quantity in digits or words (a word is kept when it is a number word of the line's quantity)."""
_LINE_WORD = re.compile(r"[a-z]{3,}|[\u3400-\u9fff]{2,}|\d{2,}")
"""A word of a line's text that may name the line: Latin letters, a CJK run, a course's or a room's number."""
_WORDS_AFTER = re.compile(r"\s*(?:[份件个张盒杯只台套]\s*)?(?:[\w()-]+\s+){0,4}[\w()-]*")
"""Up to five words after a quantity: the line's item may be named in them."""
_WORKED = re.compile(r"[×=→]|^\s*\|")
"""A claim that shows its working (a product, an equation, a change) or is a table's row."""
_TIMES_AFTER = re.compile(r"\s*[×xX*]\s*\d")
"""A multiplication right after an amount ("$45.09 × 2"): the amount is one unit's."""
_ONE_BEFORE = re.compile(
    r"(?i)(?<![\d.,])(?:1|one|a single)(?:\s+of\s+\d+)?\s*(?:[袋件个张盒杯只台套份]|\w+)?\s*[)）]?\s*[:：（(|]?\s*"
    r"(?:at|for)?\s*$")
"""A count of one right before an amount ("那 1 袋 ¥128.00", "one bag $128", "缺 1 盒（18.90 元）", "Avocado (1 of 2):
$1.25", "（缺 1 盒）：¥19.90", a table's "| 2 | 1 | $4.79 |" of one missing of two): the amount is that unit's."""
_CLAUSE_REST = re.compile(r"[^,，;；。\n]*")
"""The rest of an amount's clause after it."""
_FOR_ITEMS = re.compile(r"(?i)\s*(?:for|on|of)\s+(?:the|your|all|both)?\s*\w")
"""An amount said to be for some items right after it ("$412.50 for the four chairs")."""


def unit_price_as_line(fact: Fact, located: list[Located], index: EvidenceIndex, claim: ClaimText) -> Recomputed | None:
    """A line's amount that is its unit price when the claim says the quantity ("Ceramic Mugs ×4: $22.75" of a
    $22.75 mug, quantity 4; "3 天国际漫游日包，漫游费 ¥28.00" of a ¥28.00 day's price): the line comes to the quantity
    times the price. Not when a per-unit word, "×", "@" or "at" stands between the quantity and the amount.

    Args:
        fact: An amount of money of the claim.
        located: The tool numbers equal to it.
        index: The run's evidence.
        claim: The claim.

    Returns:
        The line's amount and how, or None.
    """
    lex = index.lex
    if not located or fact.unit not in lex.currency_codes or not fact.value or claim_hits(lex.per_unit_words,
                                                                                          claim.text):
        return None
    if PER_SLASH.match(claim.text[fact.end - claim.start :]):
        return None
    if _UNIT_COLUMN.search(column_header(fact, claim)):
        return None  # "| Mouse | 2 | $89.50 |" under "| Item | Qty | Unit price |": the column is one unit's
    claimed = Decimal(fact.value)
    for loc in located:
        priced = bool(loc.leaf.labels & PRICE_LABELS)
        per_unit = PER_UNIT_FIELD.search(field_name(loc.leaf.path.rsplit(".")[-1]))
        if loc.leaf.source != "tool" or not (priced or per_unit):
            continue
        quantity = line_quantity(index, loc.leaf.index, loc.leaf.path)
        if quantity is None or quantity < 2 or quantity != quantity.to_integral_value():
            continue
        if _TIMES_AFTER.match(claim.text, fact.end - claim.start) or _ONE_BEFORE.search(
                claim.text, 0, fact.start - claim.start):
            return None  # "$45.09 × 2 = $90.18", "少掉的那 1 袋 ¥128.00": one unit's amount
        worked = _WORKED.search(claim.text) is not None  # "¥50.00 × 7 天 = ¥350.00", "11 → 12", a table's row
        said = [f.end for f in claim.facts if f.kind == FactKind.NUMBER and f.end <= fact.start and f.value
                and f.unit not in lex.currency_codes and Decimal(f.value) == quantity] if priced else []
        if not said and not worked:  # the quantity said before the item's name, before or after the amount
            said = _quantity_of_item(index, loc, quantity, claim.text[: fact.start - claim.start], claim.start)
            after = _CLAUSE_REST.match(claim.text, fact.end - claim.start)
            if not said and after and _FOR_ITEMS.match(after.group()):  # "$412.50 for the four task chairs"
                said = _quantity_of_item(index, loc, quantity, after.group(), fact.end)
        if not said or PER_WORK.search(claim.text[max(said) - claim.start : fact.start - claim.start]):
            continue
        total = claimed * quantity
        return Recomputed(total, f"quantity {num_text(quantity)} × {num_text(claimed)} = {num_text(total)}", loc)
    return None


def column_header(fact: Fact, claim: ClaimText) -> str:
    """The header cell over the column of a table row that holds `fact` ("Unit price"), lower case; empty when the
    claim is no table row under a header."""
    if not claim.header:
        return ""
    column = claim.text.count("|", 0, fact.start - claim.start)
    cells = claim.header.split("|")
    return cells[column].strip().lower().replace("_", " ") if column < len(cells) else ""


def _quantity_of_item(index: EvidenceIndex, loc: Located, quantity: Decimal, before: str, start: int) -> list[int]:
    """Where the claim says the line's quantity right before its item's name ("the four ergonomic task chairs",
    "3 sage Ceramic Mugs", 两份 Buffalo Wings): the quantity, in digits or words, then up to four words, then a word
    of the name the line's record gives (a name, item or description field). Offsets are the answer's."""
    record = index.value_at(loc.leaf.index, join_path(PATH_STEP.findall(loc.leaf.path)[:-1]))
    if not isinstance(record, dict):
        return []
    names = [str(v) for k, v in record.items() if isinstance(v, str) and _NAME_FIELD.search(field_name(str(k)))]
    words = {w.lower().rstrip("s") for name in names for w in re.findall(r"[A-Za-z]{3,}", name)}
    words |= {w for name in names for w in re.findall(r"[\u4e00-\u9fff]{2,}", name)}
    spoken = {w for w, v in index.lex.map("number_words").items() if v == quantity}
    found = []
    for m in _QUANTITY_WORD.finditer(before):
        said, tail = m.group(1), _WORDS_AFTER.match(before, m.end()).group()
        if (said.isdigit() and Decimal(said) == quantity or said.lower() in spoken) and any(
                w.lower().rstrip("s") in words or any(z in w for z in words if not z.isascii())
                for w in re.findall(r"[A-Za-z]{3,}|[\u4e00-\u9fff]{2,}", tail)):
            found.append(start + m.end(1))
    return found


def names_line(loc: Located, labels: frozenset[str], claim: str, phrase: str, index: EvidenceIndex) -> bool:
    """Whether the claim names the record a number sits in by a text of that record that names the claim's field.

    Said whole anywhere in the claim ("technology fee $180" of `{"desc": "Technology fee", "amount": 180}`), or by a
    word of it other than its field words in the number's own phrase ("CHEM 221 lab fee $75" of `{"desc": "Lab fee –
    CHEM 221", "amount": 75}`, "activity fee $185" of `Student activity fee`): that line says what the number is.

    Args:
        loc: The claim's number as a tool output gives it.
        labels: The field labels the claim gives the number.
        claim: The claim's text, lower case.
        phrase: The number's own phrase (the claim's text after the fact before it), lower case.
        index: The run's evidence.

    Returns:
        Whether the claim names the number's line.
    """
    value = index.value_at(loc.leaf.index, record_path(loc.leaf.path))
    if not isinstance(value, dict):
        return False
    lex = index.lex
    for text in (v.lower() for v in value.values() if isinstance(v, str)):
        if not labels & set(lex.fields_in(text)):
            continue
        if text in claim:
            return True
        field_words = {hit.key for hit in lex.field_phrases.finditer(text)}
        if any(said_whole(phrase, word) for word in _LINE_WORD.findall(text) if word not in field_words):
            return True
    return False
