"""A total the answer adds up from one unit's amounts ("$63.99" of 24.99 + 39.00 where two mice were bought)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.roles import ClaimText, Recomputed, claims_a_total, num_text, said_for_the_whole
from factcheck.lexicon import field_name
from factcheck.report import Evidence, Fact

_SUM = re.compile(r"^number equals (-?\d+(?:\.\d+)?(?: \+ -?\d+(?:\.\d+)?)+)$")
"""The reason of a number that a sum of tool numbers backs ("number equals 24.99 + 39")."""
_UNIT_OF = re.compile(r"\bper\s+([a-z]+)|\b(night|dai|day)(?:ly)?\b")
"""The unit a field's name says its value is one of (`taxes_and_fees_per_night`, `nightly_rate`, `daily_fee`)."""
_UNIT_NOUNS = {"night": ("nights", "night"), "dai": ("days", "day"), "day": ("days", "day"),
               "passenger": ("passengers", "pax", "travelers", "travellers"), "person": ("persons", "people", "pax"),
               "pax": ("pax", "passengers"), "ticket": ("tickets", "seats"), "seat": ("seats", "tickets"),
               "room": ("rooms",), "guest": ("guests",), "bag": ("bags",), "container": ("containers", "qty",
                                                                                      "quantity")}
"""Each unit a field may be one of, with the words of the fields that count it (`nights`, `passengers`)."""
_PRICE_FIELD = re.compile(r"\b(?:unit\s+)?price\b|\brate\b|\bfare\b")
"""The name of a line's price per unit (`unit_price`, `price`)."""


def units_summed_as_total(fact: Fact, reason: str, evidence: list[Evidence], index: EvidenceIndex,
                          claim: ClaimText) -> Recomputed | None:
    """The total a claimed total should be when the answer worked it out by adding one unit's amounts: the prices of
    a list's lines, one of which the list gives a quantity above one (two mice at 24.99 and a hub at 39.00 are
    88.98, not 63.99), or the amounts of one record each of which its name says is one unit's (`nightly_rate`,
    `taxes_and_fees_per_night`) where the record counts two or more of that unit (`nights: 4`).

    Args:
        fact: A money number said as a total, backed by a sum of tool numbers.
        reason: How the sum backs it ("number equals 24.99 + 39").
        evidence: The sum's evidence (its first number's place).
        index: The run's evidence.
        claim: The claim.

    Returns:
        The recomputed total, or None.
    """
    said = _SUM.match(reason)
    if said is None or not evidence or evidence[0].source != "tool" or not fact.value:
        return None
    if not (claims_a_total(fact, index, claim) or said_for_the_whole(fact, index, claim)):
        return None
    call = evidence[0].index
    parts = [Decimal(p) for p in said.group(1).split(" + ")]
    output = index.flats[call].value
    return _lines(parts, call, output, index) or _one_record(parts, evidence[0].path, call, output, index)


def _lines(parts: list[Decimal], call: int, output: Any, index: EvidenceIndex) -> Recomputed | None:
    """The lines' total when each part is the price of its own line of one list and a line's quantity is above
    one."""
    for path, lines in _lists(output):
        priced = [(i, f, _number(line.get(f))) for i, line in enumerate(lines) if isinstance(line, dict)
                  for f in line if _PRICE_FIELD.search(field_name(str(f)))]
        picked: list[tuple[int, str]] = []
        for part in parts:
            found = [(i, f) for i, f, v in priced if v == part and all(i != j for j, _ in picked)]
            if not found:
                break
            picked.append(found[0])
        if len(picked) != len(parts):
            continue
        if len(picked) == len(lines):  # every line of the list: each with its own quantity
            quantities = [_quantity(lines[i], index) for i, _ in picked]
        else:  # some lines: each with the quantity an action of the run asked for it ("return both mice")
            quantities = [_asked(lines[i], call, index) for i, _ in picked]
        if any(q is None for q in quantities) or all(q == 1 for q in quantities):
            continue
        total = sum((Decimal(q) * p for q, p in zip(quantities, parts, strict=True)), Decimal(0))  # type: ignore[misc]
        how = " + ".join(f"{q} × {num_text(p)}" for q, p in zip(quantities, parts, strict=True))
        where = index.number_at(call, f"{path}[{picked[0][0]}].{picked[0][1]}")
        if where is not None:
            return Recomputed(total, f"{how} = {num_text(total)} (the quantities of {path or 'the list'})", where)
    return None


def _one_record(parts: list[Decimal], first: str, call: int, output: Any, index: EvidenceIndex) -> Recomputed | None:
    """Each part a field of one record whose name says it is one unit's, all of one unit, times the count of that
    unit the record or its output gives."""
    parent = first.rsplit(".", 1)[0] if "." in first else ""
    record = _at(output, parent)
    if not isinstance(record, dict):
        return None
    if len(set(parts)) < len(parts):
        return None  # "150 + 150": the answer counted the units itself
    units = set()
    for part in parts:
        fields = [f for f, v in record.items() if _number(v) == part]
        if len(fields) != 1 or (m := _UNIT_OF.search(field_name(str(fields[0])))) is None:
            return None
        units.add(m.group(1) or m.group(2))
    if len(units) != 1:
        return None
    nouns = _UNIT_NOUNS.get(units.pop())
    if nouns is None:
        return None
    counts = [(f, v) for holder in (record, output) if isinstance(holder, dict) for f, v in holder.items()
              if isinstance(v, int) and not isinstance(v, bool) and v >= 2 and not _UNIT_OF.search(field_name(str(f)))
              and set(field_name(str(f)).split()) & set(nouns)]
    if len({v for _, v in counts}) != 1:
        return None
    field, times = counts[0]
    total = times * sum(parts, Decimal(0))
    where = index.number_at(call, first)
    if where is None:
        return None
    how = f"{field} {times} × ({' + '.join(num_text(p) for p in parts)}) = {num_text(total)}"
    return Recomputed(total, how, where)


def _lists(value: Any, path: str = "", depth: int = 0) -> list[tuple[str, list[Any]]]:
    """The lists of two or more mappings in an output, with their paths."""
    if depth > 4:
        return []
    found = []
    if isinstance(value, list) and len(value) >= 2 and all(isinstance(v, dict) for v in value):
        found.append((path, value))
    elif isinstance(value, dict):
        for key, item in value.items():
            found += _lists(item, f"{path}.{key}" if path else str(key), depth + 1)
    return found


def _at(value: Any, path: str) -> Any:
    """The value at a dotted path with list indexes (`items[0]`), or None."""
    for step in filter(None, path.split(".")):
        name, _, rest = step.partition("[")
        if name:
            value = value.get(name) if isinstance(value, dict) else None
        for i in re.findall(r"(\d+)\]", "[" + rest) if rest else ():
            value = value[int(i)] if isinstance(value, list) and int(i) < len(value) else None
    return value


def _asked(line: dict, call: int, index: EvidenceIndex) -> int | None:
    """The quantity of a line another successful call's arguments ask for by the line's code (`create_return`
    items `{"item_id": "IT-5521", "qty": 2}`), or None."""
    codes = {v for v in line.values() if isinstance(v, str) and any(ch.isdigit() for ch in v)}
    asked = set()
    for other in index.calls:
        if other.index == call or other.status == "error":
            continue
        for entry in _entries(other.args):
            if codes & {v for v in entry.values() if isinstance(v, str)}:
                quantity = _quantity(entry, index)
                if quantity is not None:
                    asked.add(quantity)
    return asked.pop() if len(asked) == 1 else None


def _entries(value: Any, depth: int = 0) -> list[dict]:
    """The mappings in a call's arguments, nested ones too."""
    if depth > 4:
        return []
    if isinstance(value, dict):
        return [value] + [e for v in value.values() for e in _entries(v, depth + 1)]
    if isinstance(value, list):
        return [e for v in value for e in _entries(v, depth + 1)]
    return []


def _quantity(line: dict, index: EvidenceIndex) -> int | None:
    """A line's quantity (lexicon `fields` quantity: qty, quantity), or None."""
    value = next((v for k, v in line.items() if field_name(str(k)) in index.lex.quantity_fields), None)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else None


def _number(value: Any) -> Decimal | None:
    """A JSON number as a Decimal, or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None
