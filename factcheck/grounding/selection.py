"""A superlative's amount ("the cheapest option is $52.01"), re-ranked over the options that can be had."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from factcheck.grounding.deadlines import by_deadline, deadline_of, has_dates
from factcheck.grounding.eligible import AVAILABLE, is_capacity_field, party_size, why_not
from factcheck.grounding.evidence import EvidenceIndex, Located
from factcheck.grounding.flat import scalars_of
from factcheck.grounding.multiplicity import dated_span
from factcheck.grounding.naming import LIST_ITEM, distinct_words
from factcheck.grounding.roles import (
    PATH_STEP,
    PER_UNIT_FIELD,
    ClaimText,
    Recomputed,
    comparable,
    cue_after,
    cue_before,
    equals_value,
    num_text,
)
from factcheck.grounding.scopes import asked_text, day_part_scope, in_scope, scope_end, scope_text
from factcheck.lexicon import Lexicon, field_name
from factcheck.phrases import Hit
from factcheck.report import Fact, FactKind, Verdict

_CLAUSE_BREAK = re.compile(r"[,，;；]")
"""What ends a clause before an amount a superlative after it picks."""
_OPTION_TOTAL = "total"
"""The field name of an option's whole price (`results[1].total`; not `total_excl_optional`): no money label alone
(a `total` may count results), but an amount of money a claim picks by a superlative and finds there is the
option's price."""


def selection(fact: Fact, located: list[Located], index: EvidenceIndex, claim: ClaimText) -> Recomputed | None:
    """The value a superlative claims ("the cheapest option is $52.01"), re-ranked over its comparable records.

    Only the first amount of money after the superlative word is the selected one's ("最贵的是 EC2，$812.10；
    RDS $375.72 排第二": $375.72 is no selection). The options are its siblings in a list or mapping of
    options (`flights`, `offers`, `variants`: lexicon `option_lists`; an order's items are no options): the
    same field of the other entries, those marked unavailable left out.

    Args:
        fact: A number of the claim.
        located: The tool numbers equal to it.
        index: The run's evidence.
        claim: The claim.

    Returns:
        The best value when the claimed one is not it, else None.
    """
    lex = index.lex
    if not located or not fact.value or fact.unit not in lex.currency_codes:
        return None
    word = cue_before(lex.superlatives, fact, claim) or cue_after(lex.superlatives, fact, claim)
    # "at $58.75 it's the lowest-priced service that …": the scope is what follows the word and the clauses before
    # the pick's ("for a clean that includes the oven, Kleen Co-op at £268.00 is the cheapest"), not the pick's name
    text = claim.text
    if word is not None and word.start > fact.start - claim.start:
        begin = max((m.end() for m in _CLAUSE_BREAK.finditer(text, 0, fact.start - claim.start)), default=0)
        text = text[:begin] + " " * (word.start - begin) + text[word.start :]
    if word is None or compound(claim.text, word) \
            or _CONTRAST.search(claim.text, word.end, fact.start - claim.start) is not None:
        return None  # "has the lowest monthly payment, but it needs $122.48 up front": the amount is another's
    lowest = lex.superlative_of(word)
    rank = ordinal_rank(claim.text, word)
    claimed = Decimal(fact.value)
    # "for two weeks, your cheapest option is … 14 days for $30": the claim's other measures are its condition
    # (not the seats left of the pick, "with 4 seats left", nor the party, "for 3": those the options are kept by)
    conditions = [Decimal(f.value) for f in claim.facts if f is not fact and f.kind == FactKind.NUMBER and f.value
                  and f.unit not in lex.currency_codes and f.verdict == Verdict.SUPPORTED and not _left_said(f, lex)
                  and not _glued(claim, f)]
    asked = asked_text(index.context.leaves)  # the user's words narrow the options, whichever value is ranked
    # of two options at the claimed amount, the one the claim names by its own words is the pick
    for loc in sorted(located, key=lambda loc: not _named_option(index, loc, claim.text)):
        if loc.leaf.source != "tool" or not (loc.leaf.labels & lex.money_labels or _per_unit_price(loc.leaf.path)
                                             or field_name(loc.leaf.path) == _OPTION_TOTAL
                                             or _unnamed_price(fact, loc, index, claim)):
            continue
        party = party_size(index, loc.leaf.index)
        options = comparable(index, loc.leaf.index, loc.leaf.path, available_only=True, option_lists=True,
                              party=party)
        kept_conditions = [c for c in conditions if c != party]
        # "14 days for $30" is a condition of the options; "4 days" that only the search itself gives (its
        # `rental_days`, its arguments) is none; one nothing gives ("at least 3 rooms") leaves no option to rank
        searched = _search_values(index, loc.leaf.index)
        kept = [c for c in kept_conditions if any(_holds(v, c) for o in options for v in _terms_of(lex, o[2]))
                or not any(equals_value(v, c) for v in searched)]
        own = scope_text(text, word)
        scope = own + asked
        options = in_scope(day_part_scope(_meeting(options, kept), own, lex), scope, lex)
        cued, last = deadline_of(claim, scope_end(text, word), index, options)
        late = False
        if last is not None and has_dates(options):  # "the cheapest service that arrives by Dec 6"
            arriving = by_deadline(options, last)
            late = any(path == loc.leaf.path for _, path, _ in options) \
                and not any(path == loc.leaf.path for _, path, _ in arriving)
            options = arriving
        elif not kept and (cued or lex.deadline_words.search(own)):
            return None  # "the cheapest option that meets your Friday deadline": a day not read here
        said = ("", "second ", "third ")[rank] + ("lowest" if lowest else "highest")
        if options and late and (best := _ranked(options, lowest, rank)) is not None:
            where = next(path for v, path, _ in options if v == best)
            return Recomputed(best, f"the {said} of the {len(options)} options that arrive by {last} is "
                                    f"{num_text(best)} ({where}); {loc.leaf.path} arrives after it", loc)
        if options and not any(path == loc.leaf.path for _, path, _ in options) and _cannot_be_had(
                index, loc, kept, scope, claim, party):  # "the cheapest SUV you can book is the BYD", unbookable
            best = _ranked(options, lowest, rank)
            if best is None:
                continue
            where = next(path for v, path, _ in options if v == best)
            return Recomputed(best, f"the {said} of the {len(options)} options that can be had is {num_text(best)} "
                                    f"({where}); {loc.leaf.path} cannot be had", loc)
        if len(options) < 2 or all(v != claimed for v, _, _ in options):
            continue
        best = _ranked(options, lowest, rank)
        if best is None or best == claimed:
            return None
        where = next(path for v, path, _ in options if v == best)
        return Recomputed(best, f"the {said} of {len(options)} options is {num_text(best)} ({where})", loc)
    return None


def _ranked(options: list[tuple[Decimal, str, Any]], lowest: bool, rank: int) -> Decimal | None:
    """The value at a place of the options' distinct values, lowest or highest first; None when there are fewer."""
    values = sorted({v for v, _, _ in options}, reverse=not lowest)
    return values[rank] if rank < len(values) else None


def _unnamed_price(fact: Fact, loc: Located, index: EvidenceIndex, claim: ClaimText) -> bool:
    """Whether an amount found in a field no label names (`monthly`, `nightly`, `base`) may be the option's price: not
    a field that counts what is left (`seats_left`), and no other amount of the claim found in a priced field of the
    same record (`$100,000 medical … at $71.50 per traveler`: the medical cover is no price)."""
    if loc.leaf.labels or is_capacity_field(index.lex, field_name(loc.leaf.path)):
        return False
    record = loc.leaf.path.rpartition(".")[0]
    return not any(
        f is not fact and f.unit in index.lex.currency_codes and ev.source == "tool" and ev.index == loc.leaf.index
        and ev.path.rpartition(".")[0] == record and index.path_info(ev.path)[0] & index.lex.money_labels
        for f in claim.facts for ev in f.evidence)


def _cannot_be_had(
    index: EvidenceIndex, loc: Located, kept: list[Decimal], scope: str, claim: ClaimText, party: int
) -> bool:
    """Whether the selected amount's own option is one of the options in scope, left out as one that cannot be had
    by the party, and the claim does not say so ("the cheapest one is sold out")."""
    lex = index.lex
    every = in_scope(_meeting(comparable(index, loc.leaf.index, loc.leaf.path, option_lists=True), kept), scope,
                     lex)
    own = next((record for _, path, record in every if path == loc.leaf.path), None)
    if own is None:
        return False
    if lex.negators.search(claim.text) or lex.says_unbookable(claim.text, record_strings(own)):
        return False
    last = PATH_STEP.findall(loc.leaf.path)[-1]  # `prices.economy`: the seats left are `economy`'s too
    cabin = last if isinstance(own, dict) and any(isinstance(v, dict) and last in v for v in own.values()) else None
    left = {Decimal(n) for n in re.findall(r"\d+", why_not(lex, own, party, cabin))} - {Decimal(party)}
    # "The cheapest one ($39.90) only has 2 seats left, so I skipped it": the claim says why it cannot be had (not
    # by the party's size, "两人共 ¥1,720", which the reason names too)
    return not any(f.kind == FactKind.NUMBER and f.value and Decimal(f.value) in left for f in claim.facts)


def _named_option(index: EvidenceIndex, loc: Located, text: str) -> bool:
    """Whether the claim names the option an amount is found in, by a word no other option of its list has (see
    `naming.distinct_words`: "G111" of a train)."""
    item = LIST_ITEM.match(loc.leaf.path)
    if item is None:
        return False
    distinct, at, low = distinct_words(index.value_at(loc.leaf.index, item[1])), int(item[2]), text.lower()
    return at < len(distinct) and any(word in low for word in distinct[at])


def record_strings(record: Any) -> list[str]:
    """The text values of a record (its options' words: "full size", "white")."""
    return [v for v in scalars_of(record) if isinstance(v, str)]


_CONTRAST = re.compile(r"(?i)\b(?:but|however|though|although|yet)\b|但|不过|可是|然而")
"""A contrast between a superlative and an amount: the amount after it is no value of the pick."""
_NAME_AFTER = re.compile(r"-[A-Za-z]")
"""A hyphen and a word right after a number: the number opens an option's name ("2-Day Express")."""


def _glued(claim: ClaimText, fact: Fact) -> bool:
    """Whether a number is the last segment of the code before it ("CS 2110-004") or opens a name ("2-Day
    Express"): it names an option, no condition."""
    at, end = fact.start - claim.start, fact.end - claim.start
    return (at >= 2 and claim.text[at - 1] == "-" and claim.text[at - 2].isalnum()) \
        or _NAME_AFTER.match(claim.text, end) is not None


def _left_said(fact: Fact, lex: Lexicon) -> bool:
    """Whether a number is what is left of an option, by its evidence's field (`available_seats.economy`)."""
    path = fact.evidence[0].path if fact.evidence and fact.evidence[0].source == "tool" else ""
    return any(is_capacity_field(lex, step) for step in PATH_STEP.findall(path) if not step.startswith("["))


def compound(text: str, word: Hit) -> bool:
    """Whether a superlative is the first half of a compound adjective ("Highest‑resolution waterproof options"): it
    ranks by another measure than the price; or it follows an ordinal ("the next-cheapest", "second lowest"): it
    names no best."""
    return text[word.end : word.end + 1] in ("-", "\u2011", "\u2010")


def ordinal_rank(text: str, word: Hit) -> int:
    """The place a superlative picks counting from 0: 1 after "next" or "second" ("the next-cheapest", "second
    lowest"), 2 after "third"; 0 for the best."""
    m = _ORDINAL_BEFORE.search(text, 0, word.start)
    return 0 if m is None else 2 if m.group(1).lower() in ("third", "3rd") else 1


_ORDINAL_BEFORE = re.compile(r"(?i)\b(next|second|third|2nd|3rd)[\s\-\u2010\u2011]*$")
"""An ordinal right before a superlative ("next-cheapest", "second lowest")."""


def _meeting(options: list[tuple[Decimal, str, Any]], conditions: list[Decimal]) -> list[tuple[Decimal, str, Any]]:
    """The options whose record holds every condition's value in some field (all of them without conditions)."""
    if not conditions:
        return options
    return [o for o in options if all(any(_holds(v, c) for v in scalars_of(o[2])) for c in conditions)]


_ONE_NUMBER = re.compile(r"(\d+(?:\.\d+)?)\s?[^\W\d_]*")
"""A number and its unit ("800lm", "6 小时", "30h"): an option's measure as text; not a name with a number in it
("RAV4")."""


def _holds(value: Any, number: Decimal) -> bool:
    """Whether an option's value is a condition's number, as a number or as the one number of its text
    and its unit ("800lm" holds the 800 of "800lm" said of a lamp, "6 小时" the 6 of "6 小时续航")."""
    if isinstance(value, str):
        m = _ONE_NUMBER.fullmatch(value)
        return m is not None and Decimal(m.group(1)) == number
    return equals_value(value, number)


def _terms_of(lex: Lexicon, option: Any) -> list[Any]:
    """An option's values that may be a condition of the pick (`validity_days: 14`): not what is left of it
    (`available: 5`, `seats_left`), which says whether it can be had."""
    if not isinstance(option, dict):
        return list(scalars_of(option))
    return [v for k, value in option.items() if k not in AVAILABLE and not is_capacity_field(lex, str(k))
            for v in scalars_of(value)]


def _search_values(index: EvidenceIndex, call: int) -> list[Any]:
    """What a search ran with: its arguments, the top-level scalars of its output (`rental_days: 4`), and the
    nights or days between the dates it searched (`check_in` 2025-01-09 to `check_out` 2025-01-12: 3)."""
    output = index.flats[call].value
    top = [v for v in output.values() if not isinstance(v, dict | list)] if isinstance(output, dict) else []
    args = index.calls[call].args
    spans = [span[0] for record in (args, output) if isinstance(record, dict)
             and (span := dated_span(record, "days")) is not None]
    return [*scalars_of(args), *top, *spans]


def _per_unit_price(path: str) -> bool:
    """Whether a field is a price per unit of time (`daily_rate`, `nightly_rate`): an option's amount of money."""
    name = field_name(path.rsplit(".", 1)[-1])
    return "rate" in name.split() and PER_UNIT_FIELD.search(name) is not None
