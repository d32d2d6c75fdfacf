"""A record named as the best of its options ("HAT165 is the cheapest"), re-ranked over the options that can be had."""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from factcheck.grounding.eligible import party_size, why_not
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.flat import value_in
from factcheck.grounding.roles import PATH_STEP, PRICE_LABELS, ClaimText, Recomputed, join_path, num_text
from factcheck.grounding.scopes import in_scope, scope_text
from factcheck.grounding.selection import compound, ordinal_rank, record_strings
from factcheck.lexicon import field_name
from factcheck.report import Fact, FactKind, Verdict

Option = tuple[Decimal, str, str]
"""An option's price, the path of that price, and why it cannot be had ("" when it can)."""


def named_pick(claim: ClaimText, index: EvidenceIndex) -> tuple[Fact, Recomputed] | None:
    """A superlative said of a named record ("Of these, Backpack is the cheapest", "The cheapest option for your
    group is HAT165"), re-ranked by its price over the options that can be had.

    The claim names one record (a backed name or id whose evidence is an entry of a list or mapping of options:
    one the lexicon names as options, the whole output of a read, or any when the claim scopes the choice to
    the items just listed: "of these", 其中) and no amount. The options that cannot be had are left out
    (`eligible.why_not`: marked unavailable or cancelled, fewer left than the user's party). A price kept per
    cabin (`prices: {economy: 361, business: 882}`) is read for the cabin the claim, the user or the search
    names; with none named, or several, nothing is ranked.

    Args:
        claim: The claim, its facts grounded.
        index: The run's evidence.

    Returns:
        The name fact and the best option when the named one is not it, else None.
    """
    lex = index.lex
    if not any(f.kind in (FactKind.NAME, FactKind.IDENTIFIER) for f in claim.facts):
        return None  # no name or id to name the record
    words = lex.superlatives.finditer(claim.text)
    if not words or compound(claim.text, words[0]) or ordinal_rank(claim.text, words[0]) or any(
            f.kind == FactKind.NUMBER and f.unit in lex.currency_codes for f in claim.facts):
        return None
    scoped = lex.selection_scopes.search(claim.text)
    named = []  # the records the claim names by a backed name or id, entries of options, with a price
    for f in claim.facts:
        if f.kind not in (FactKind.NAME, FactKind.IDENTIFIER) or f.verdict != Verdict.SUPPORTED or not f.evidence:
            continue
        ev = f.evidence[0]
        parts = PATH_STEP.findall(ev.path) if ev.source == "tool" else []
        entries = _entries(index, ev.index, parts, scoped) if len(parts) >= 2 else []
        record = dict(entries).get(parts[-2]) if entries else None
        price = _price_field(record, index) if isinstance(record, dict) else None
        if price is not None:
            named.append((f, ev.index, parts, entries, str(price)))
    if (connection := _connecting_pick(claim, index, words[0])) is not None:
        return connection
    if len({(call, tuple(parts[:-2])) for _, call, parts, _, _ in named}) != 1:
        return None  # no record, or records of several lists: "the cheapest option for the Desk Lamp (311…)"
    fact, call, parts, entries, price = named[0]
    cabin = _cabin(index, call, [r for _, r in entries], price, claim.text)
    if cabin == "?":
        return None
    party = party_size(index, call)
    ranked = [(o, record) for key, record in entries
              if (o := _option(index, record, [*parts[:-2], key], price, cabin, party, parts[-1])) is not None]
    # the scope's words narrow the options ("the cheapest SUV"); the named record's own name is no such word
    at = fact.start - claim.start
    text = claim.text[:at] + " " * len(fact.text) + claim.text[at + len(fact.text) :]
    held = in_scope([(v, path, record) for (v, path, _), record in ranked], scope_text(text, words[0]), lex)
    kept = {path for _, path, _ in held}
    options = [o for o, _ in ranked if o[1] in kept]
    own = next((o for o in options if o[1] == join_path([*parts[:-1], price, *([cabin] if cabin else [])])), None)
    can = [o for o in options if not o[2]]
    if own is None or len(can) < (2 if not own[2] else 1):
        return None
    if own[2] and (lex.negators.search(claim.text)
                   or lex.says_unbookable(claim.text, record_strings(dict(entries).get(parts[-2])))):
        return None  # "the cheapest option for the Patio Umbrella (3111466194) is not available": it says so
    lowest = lex.superlative_of(words[0])
    best = min(can, key=lambda o: o[0]) if lowest else max(can, key=lambda o: o[0])
    if not own[2] and own[0] == best[0]:
        return None
    located = index.number_at(call, own[1])
    if located is None:
        return None
    by_key = dict(entries)
    label = _label(by_key[PATH_STEP.findall(best[1])[len(parts) - 2]], parts[-1]) or best[1]
    why = f"; {_label(by_key[parts[-2]], parts[-1]) or 'it'} {own[2]}" if own[2] else ""
    said = "lowest" if lowest else "highest"
    how = f"the {said} {price} of the {len(can)} options that can be had is {num_text(best[0])} ({label}), " \
          f"not {num_text(own[0])}{why}"
    return fact, Recomputed(best[0], how, located)


_FARE = re.compile(r"(?i)(?:^|_)(?:fare|cost)(?:_|$)|票价")
"""A field name that holds what an option costs when none is a price (`fare_difference`, `cost`)."""


def _price_field(record: Mapping[str, Any], index: EvidenceIndex) -> str | None:
    """The field an option's price is in: one whose label is a price, else one that names a fare or a cost and
    holds a number."""
    price = next((k for k in record if index.path_info(str(k))[0] & PRICE_LABELS), None)
    if price is None:
        price = next((k for k, v in record.items() if _FARE.search(str(k)) and isinstance(v, (int, float))
                      and not isinstance(v, bool)), None)
    return None if price is None else str(price)


def _connecting_pick(claim: ClaimText, index: EvidenceIndex, word: Any) -> tuple[Fact, Recomputed] | None:
    """A superlative said of a connecting option named by its legs ("the cheapest economy routing is via Charlotte:
    HAT090 … connecting to HAT311"), re-ranked by the sum of its legs' prices (in the cabin named) over the
    options of the same search whose every leg can be had; None when the claim names no legs of one such option.

    The options are a read's list of lists (`search_onestop_flight`: each entry the legs of one routing).
    """
    legs = []
    for f in claim.facts:
        if f.kind in (FactKind.NAME, FactKind.IDENTIFIER) and f.verdict == Verdict.SUPPORTED and f.evidence \
                and f.evidence[0].source == "tool":
            parts = PATH_STEP.findall(f.evidence[0].path)
            if len(parts) == 3 and parts[0].startswith("[") and parts[1].startswith("["):
                legs.append((f, f.evidence[0].index, parts))
    if not legs or len({(call, parts[0]) for _, call, parts in legs}) != 1:
        return None
    fact, call, parts = legs[0]
    output = index.flats[call].value
    if not isinstance(output, list) or len(output) < 2 \
            or not all(isinstance(o, list) and o and all(isinstance(leg, Mapping) for leg in o) for o in output):
        return None
    price = next((k for k in output[0][0] if index.path_info(str(k))[0] & PRICE_LABELS), None)
    cabin = _cabin(index, call, [leg for option in output for leg in option], price, claim.text) if price else "?"
    if price is None or cabin == "?":
        return None
    party = party_size(index, call)
    options = []  # (the legs' prices added up, the option's index, why some leg cannot be had)
    for i, option in enumerate(output):
        priced = [_option(index, leg, [f"[{i}]", f"[{j}]"], price, cabin, party, parts[-1])
                  for j, leg in enumerate(option)]
        if all(p is not None for p in priced):
            options.append((sum(p[0] for p in priced if p), i, "; ".join(p[2] for p in priced if p and p[2])))
    own = next((o for o in options if f"[{o[1]}]" == parts[0]), None)
    can = [o for o in options if not o[2]]
    if own is None or own[2] or len(can) < 2:
        return None
    lowest = index.lex.superlative_of(word)
    best = min(can) if lowest else max(can)
    located = index.number_at(call, join_path([parts[0], "[0]", price, *([cabin] if cabin else [])]))
    if own[0] == best[0] or located is None:
        return None

    def legs_of(i: int) -> str:
        return " + ".join(_label(leg, parts[-1]) or "?" for leg in output[i])

    how = f"the {'lowest' if lowest else 'highest'} {price} of the {len(can)} connecting options that can be had " \
          f"is {num_text(best[0])} ({legs_of(best[1])}), not {num_text(own[0])} ({legs_of(own[1])})"
    return fact, Recomputed(best[0], how, located)


def _entries(index: EvidenceIndex, call: int, parts: list[str], scoped: bool) -> list[tuple[str, Any]]:
    """The entries of the list or mapping of options that holds the named record, each with its path step
    (`[3]`, `3111466194`); empty when it is no list of options: named so (`flights`, `variants`, 车次), the
    whole output of a read (`search_direct_flight` returns the flights), or any when the claim scopes the choice."""
    output = index.flats[call].value
    container = value_in(output, join_path(parts[:-2])) if len(parts) > 2 else output
    if isinstance(container, list) and parts[-2].startswith("["):
        entries = [(f"[{i}]", record) for i, record in enumerate(container)]
    elif isinstance(container, Mapping) and not parts[-2].startswith("["):
        entries = [(str(key), record) for key, record in container.items() if isinstance(record, Mapping)]
    else:
        return []
    if len(entries) < 2:
        return []
    if scoped:
        return entries
    if len(parts) == 2:
        return entries if index.lex.read_only_tools.match(index.calls[call].name or "") else []
    return entries if field_name(parts[-3]) in index.lex.option_lists else []


def _cabin(index: EvidenceIndex, call: int, records: list[Any], price: str, claim: str) -> str | None:
    """The key of the price to rank when each option keeps its prices per cabin or class (`economy`): the one
    the claim, the user or the search names; None when prices are plain numbers, "?" when no single one is named."""
    keys = {str(k) for record in records if isinstance(record, Mapping) and isinstance(record.get(price), Mapping)
            for k in record[price]}
    if not keys:
        return None
    args = index.calls[call].args or {}
    said = " ".join([claim, *(leaf.text for leaf in index.context.leaves),
                     *(str(v) for v in args.values() if isinstance(v, str))]).lower()
    found = {k for k in keys if re.search(rf"(?<![a-z]){re.escape(field_name(k))}(?![a-z])", said)}
    return next(iter(found)) if len(found) == 1 else "?"


def _option(index: EvidenceIndex, record: Any, steps: list[str], price: str, cabin: str | None, party: int,
            name_field: str) -> Option | None:
    """One option's price, its path, and why it cannot be had; None when it has no price."""
    if not isinstance(record, Mapping):
        return None
    value = record.get(price)
    value = value.get(cabin) if cabin and isinstance(value, Mapping) else value
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return None
    path = join_path([*steps, price, *([cabin] if cabin else [])])
    return amount, path, why_not(index.lex, record, party, cabin)


def _label(record: Any, field: str) -> str | None:
    """The option's own name for the field the claim named it by (its flight number, its name)."""
    value = record.get(field) if isinstance(record, Mapping) else None
    return str(value) if isinstance(value, str | int) and not isinstance(value, bool) else None
