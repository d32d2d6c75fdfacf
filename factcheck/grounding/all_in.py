"""A cheapest pick once fees are added ("cheapest once fees are included", 含运费最便宜), re-ranked with its fees."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from factcheck.grounding.counting import record_lists
from factcheck.grounding.eligible import AVAILABLE, party_size, why_not
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.roles import num_text
from factcheck.grounding.scopes import scope_word
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.lexicon import Lexicon, field_name
from factcheck.report import Claim, Fact, FactKind, Verdict

_BASE = re.compile(r"\b(?:total|price|fare|face value|cost|amount|subtotal)\b")
"""The words of an option's field that hold its price before fees (`total`, `price`, `face_value`)."""
_WHOLE = re.compile(r"\btotal\b")
"""A price field that is the option's whole, not one unit's (`total` beside `daily`)."""
_SHORTEST = 3
"""The fewest characters of an option's value that names it in a claim."""
_SHORTEST_CJK = 2
"""The fewest characters of such a value in Chinese."""
_MOST_UNITS = 60
"""The most unit prices a total is read as (days of a rental, nights of a stay)."""
_OPEN = ("open", "is_open", "accepting_orders")
"""Fields that say whether an option takes orders now (false: a closed shop)."""
_DISCOUNT = re.compile(r"coupon|discount|promo|voucher|rebate|优惠")
"""Fields of an option's own price cut."""
_CONTRAST = re.compile(r"\b(?:but|however|although|though|while|whereas)\b|但|虽然|不过|反而|却")
"""Words that set the pick against another reading (the sticker price's cheapest, dearer once fees are added)."""


def all_in_picks(claims: list[Claim], source: str, index: EvidenceIndex) -> None:
    """Flag the option a claim picks as the cheapest once fees are added when another comes to less.

    The claim says a superlative of the lowest (lexicon `superlatives_low`: cheapest, 最便宜) and that fees are
    added (lexicon `all_in_cues`: all-in, once fees are included, 含运费, 到手价), and names exactly one option of a
    listed set by a value only it holds (`vendor: Budget`, `shop: 优品汇家电专营店`). Each option's price is its
    whole price field (`total`, else its one `price`, `face_value`) plus its fee fields (lexicon `fee_fields`:
    `fees`, `shipping`, `fee_per_ticket`), or its `total` alone when that already holds the fees (without them it is
    a whole number of the option's unit prices: 5 × 55 + 82.40); options the claim's other words rule out (a value
    several options share, "automatic"), those that cannot be had (here, or in another call's output that names the
    option), and lists with a coupon or discount field are left out, as are claims with a contrast, a deadline or a
    qualifier. An option in scope that comes to less contradicts the pick, the computation its evidence.

    Args:
        claims: The answer's claims, grounded.
        source: The answer's text the claims are offsets into.
        index: The run's evidence.
    """
    lex = index.lex
    if not lex.all_in_cues:
        return
    for claim in claims:
        if not claim.act.asserts:
            continue
        text = source[claim.start : claim.end]
        low = text.lower()
        if not any(lex.superlative_of(hit) for hit in lex.superlatives.finditer(low)) \
                or not lex.cue_in(lex.all_in_cues, low) or _CONTRAST.search(low) \
                or any(lex.deadline_words.finditer(low)) or any(lex.deadline_cues.finditer(low)) \
                or any(lex.superlative_qualifiers.finditer(low)):
            continue  # "虽然标价最低，但加上运费反而最贵": the sticker price's; "that can deliver by Friday": narrowed
        for leaf, records in record_lists(index):
            gone = _ruled_out_elsewhere(records, leaf.index, index)
            found = _re_ranked(records, low, lex, party_size(index, leaf.index), gone)
            if found is None:
                continue
            at, value, how = found
            start, end = claim.start + at, claim.start + at + len(value)
            fact = next((f for f in claim.facts if f.start <= start and end <= f.end), None)
            if fact is None:
                fact = Fact(kind=FactKind.NAME, text=text[at : at + len(value)], start=start, end=end, value=value)
                claim.facts.append(fact)
                claim.facts.sort(key=lambda f: f.start)
            set_verdict(fact, Verdict.CONTRADICTED, "recomputed", how, [evidence_of(leaf, index, how)])
            break


def _re_ranked(records: list[dict], low: str, lex: Lexicon, party: int, gone: set[int]) -> tuple[int, str, str] | None:
    """(where the pick's name stands in the claim, the name, how another option comes to less), or None."""
    if any(_DISCOUNT.search(str(k).lower()) for r in records for k in r):
        return None  # a coupon or a discount of an option's own: what it comes to is not read
    prices = [p for r in records if (p := _all_in(r, lex)) is not None]
    if len(prices) != len(records):
        return None
    named = [(i, m.start(), v) for i in range(len(records)) for v in _own_values(records, i)
             if (m := scope_word(v.lower()).search(low))]
    if len({i for i, _, _ in named}) != 1:
        return None
    pick, at, value = named[0]
    scope = [i for i in range(len(records)) if i not in gone and not why_not(lex, records[i], party)
             and not any(records[i].get(k) is False for k in _OPEN) and _in_scope(records, i, pick, low)]
    if pick not in scope:
        return None
    (mine, mine_how), best = prices[pick], min(scope, key=lambda i: prices[i][0])
    (least, least_how) = prices[best]
    if least >= mine:
        return None
    how = (f"price plus fees: {_label(records, best)} {least_how} = {num_text(least)}, "
           f"less than {value}'s {mine_how} = {num_text(mine)}")
    return at, value, how


def _all_in(record: Any, lex: Lexicon) -> tuple[Decimal, str] | None:
    """An option's price plus its fees, and how it adds up, or None when no one price field says its price."""
    if not isinstance(record, dict):
        return None
    numbers = {str(k): Decimal(str(v)) for k, v in record.items()
               if isinstance(v, int | float) and not isinstance(v, bool)}
    fees = [k for k in numbers if lex.cue_in(lex.fee_fields, field_name(k))]
    bases = [k for k in numbers if k not in fees and _BASE.search(field_name(k))]
    whole = [k for k in bases if _WHOLE.search(field_name(k))]
    base = whole if len(whole) == 1 else bases
    if len(base) != 1 or not fees:
        return None
    if whole:  # a total may hold the fees already: it does when without them it is a whole number of unit prices
        units = [v for k, v in numbers.items() if k not in fees and k != base[0] and v > 0]
        bare = numbers[base[0]] - sum((numbers[k] for k in fees), Decimal(0))
        if any(_times(bare, u) for u in units):
            return numbers[base[0]], num_text(numbers[base[0]])
        if not any(_times(numbers[base[0]], u) for u in units):
            return None  # neither reading: no sum to rank by
    parts = [numbers[base[0]]] + [numbers[k] for k in fees]
    return sum(parts, Decimal(0)), " + ".join(num_text(p) for p in parts)


def _times(whole: Decimal, unit: Decimal) -> bool:
    """Whether `whole` is a whole number of `unit` (1 to 60 of them)."""
    count = whole / unit
    return count == count.to_integral_value() and 1 <= count <= _MOST_UNITS


def _ruled_out_elsewhere(records: list[dict], call: int, index: EvidenceIndex) -> set[int]:
    """The options another successful call says cannot be had: its output names the option's code and gives
    `in_stock: false` (or `available: false`) beside it."""
    gone = set()
    codes = {v: i for i, r in enumerate(records) for v in r.values()
             if isinstance(v, str) and any(c.isdigit() for c in v)}
    for other in index.calls:
        output = index.flats[other.index].value
        if other.index == call or other.status == "error" or not isinstance(output, dict):
            continue
        for value in output.values():
            if isinstance(value, str) and value in codes and any(output.get(k) is False for k in (*AVAILABLE, *_OPEN)):
                gone.add(codes[value])
    return gone


def _own_values(records: list[dict], at: int) -> list[str]:
    """The string values of an option no other option holds, long enough to name it."""
    others = {str(v).lower() for j, r in enumerate(records) if j != at for v in r.values() if isinstance(v, str)}
    return [v for v in records[at].values() if isinstance(v, str) and _long_enough(v) and v.lower() not in others]


def _long_enough(value: str) -> bool:
    """Whether a value is long enough to name an option or a scope in a claim (three letters; two Chinese
    characters, 全新)."""
    return len(value) >= (_SHORTEST if value.isascii() else _SHORTEST_CJK)


def _in_scope(records: list[dict], i: int, pick: int, low: str) -> bool:
    """Whether option `i` holds each value the claim says that the pick holds and other options share with it
    ("cheapest automatic": `transmission: automatic`)."""
    for key, value in records[pick].items():
        if not isinstance(value, str) or not _long_enough(value) or not scope_word(value.lower()).search(low):
            continue
        shared = sum(1 for r in records if r.get(key) == value)
        if 1 < shared < len(records) and records[i].get(key) != value:
            return False
    return True


def _label(records: list[dict], i: int) -> str:
    """An option's name for the evidence: its first value that no other option holds."""
    own = _own_values(records, i)
    return own[0] if own else f"option {i + 1}"
