"""A total of an amount per two units (per room per night, 每人每航段) worked out over only one of them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from functools import reduce
from typing import Any

from factcheck.grounding.evidence import EvidenceIndex, Located
from factcheck.grounding.multiplicity import dated_span, party_said, small_number, unit_words
from factcheck.grounding.roles import PER_SLASH, ClaimText, claims_a_total, cue_before, num_text
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.lexicon import Lexicon, field_name
from factcheck.report import Claim, Fact, FactKind, Verdict

_MOST_UNITS = 100
"""Most units a per-unit amount is read as taken for, when the claimed total is divided back."""
_UNIT_KEYS = frozenset({"unit", "units", "per", "basis", "price unit", "pricing", "price basis", "rate unit"})
"""Field names (as `field_name` reads them) whose string value says what one of an amount is for."""
_SAID_NEAR = 24
"""How far (characters) around the answer's own mention of the amount its per-unit words are read ("每间每晚 ¥560")."""
_ALL_BEFORE = re.compile(r"(?i)(?:共|\b(?:comes?|works?\s+out|adds?\s+up)\s+to)\s*[*_]*\s*$")
"""Words right before an amount that make it the total of what the clause counts ("共 ¥3,000.00", "that comes to
$474.00")."""
_BREAK = re.compile(r"[→=,，;；:：]")
"""What ends the words before an amount that may be its own ("AUD 245 per room per night → AUD 735")."""
_TOTAL_AFTER = 16
"""How far after an amount (characters) a total word that opens right there is read ("AUD 735 total", "**€90.00 in
total**")."""
_LEFT_BEFORE = re.compile(r"(?:剩|剩余|还剩|还有|仅剩|只剩)\s*$")
_LEFT_AFTER = re.compile(r"(?i)\s*(?:left|remaining|available)\b")
"""Words that make a count what is left of an option ("剩 2 间", "2 rooms left"), not what the total is for."""
_EACH = re.compile(r"(?i)\beach\b|\bapiece\b|各|每人|每位")
"""Words that give every person the pieces counted ("one bag each", 各加一件): the pieces are that many times the
people."""
_DIGITS = re.compile(r"\d")
"""A digit: the answer's words of an amount's unit stop at another number."""
_COUNT = r"(\d{1,3}|[一二两三四五六七八九十]|both|one|two|three|four|five|six|seven|eight|nine|ten)"
"""A count said before a unit's word ("2 rooms", "两间", "both flights")."""


def total_of_one_dimension(claims: list[Claim], index: EvidenceIndex) -> None:
    """Contradict a total worked out as a per-unit amount times a count ("两间房住三晚总共 ¥1,317" of ¥439 × 3)
    when the amount is one unit's of two or more (lexicon `unit_dimensions`: per room per night, 每人每航段; said by
    its field's name, a unit field beside it, or the answer's words beside it) and the count leaves one of them out:
    the total is the amount times every count (the claim's own "两间房", "3 晚", "both flights", or the records'
    `rooms`, `nights`, `passengers`, `segments`, lexicon `unit_dimension_fields`). A count the run gives nowhere is
    one.

    Args:
        claims: The answer's claims, grounded.
        index: The run's evidence.
    """
    for claim in claims:
        said = ClaimText(claim.text, claim.start, claim.facts)
        for fact in claim.facts:
            if fact.kind != FactKind.NUMBER or fact.verdict != Verdict.SUPPORTED or fact.code != "derived" \
                    or not _said_total(fact, said, index):
                continue
            found = _recounted(fact, claim, claims, index)
            if found is not None:
                how, loc = found
                set_verdict(fact, Verdict.CONTRADICTED, "recomputed",
                            f"the records give {how}, not {fact.text}", [evidence_of(loc.leaf, index, how)])


def _said_total(fact: Fact, said: ClaimText, index: EvidenceIndex) -> bool:
    """Whether an amount of money is claimed as a total (`claims_a_total`), or has no per-unit word right beside it
    (after the arrow or the comma that ends the rate's words) and a total word before it, 共 or "comes to" right
    before it, or a total word right after it ("每间每晚 ¥1,500.00，共 ¥3,000.00", "AUD 245 per room per night → AUD
    735 total")."""
    lex = index.lex
    if claims_a_total(fact, index, said):
        return True
    if fact.unit not in lex.currency_codes:
        return False
    at, end = fact.start - said.start, fact.end - said.start
    before = _BREAK.split(_DIGITS.split(said.text[max(0, at - _SAID_NEAR) : at])[-1])[-1]
    beside = _DIGITS.split(said.text[end : end + _SAID_NEAR])[0]
    if lex.per_unit_words.search(before.lower()) or lex.per_unit_words.search(beside.lower()) \
            or PER_SLASH.match(said.text[end:]):
        return False  # "每间每晚 ¥560", "$45 each": the amount is one unit's
    after = said.text[end : end + _TOTAL_AFTER].lstrip("*_ ")
    return cue_before(lex.total_words, fact, said) is not None or _ALL_BEFORE.search(said.text, 0, at) is not None \
        or any(hit.start == 0 for hit in lex.total_words.finditer(after.lower()))


def _recounted(fact: Fact, claim: Claim, claims: list[Claim], index: EvidenceIndex) -> tuple[str, Located] | None:
    """How the total over every unit of a per-unit amount is worked out, when the claimed total is that amount times
    only some of the units, and the amount's place; None when the total is no such thing."""
    claimed = Decimal(fact.value or "0")
    if claimed <= 0:
        return None
    for times in range(2, _MOST_UNITS + 1):
        unit = (claimed / times).quantize(Decimal("0.01"))
        if unit * times != claimed:
            continue
        for loc in index.equal_numbers([(unit, unit.normalize().as_tuple().exponent)]):
            if loc.leaf.source != "tool" or loc.leaf.count:
                continue
            dims = _dimensions(loc, claims, index)
            if len(dims) < 2:
                continue
            at = fact.start - claim.start
            counts = {dim: _count(dim, claim.text, at, loc, index, each="person" not in dims) for dim in dims}
            whole = reduce(lambda a, b: a * b, counts.values(), 1)
            if whole == times or not _part(times, list(counts.values())):
                continue
            total = unit * whole
            how = " × ".join(f"{n} {_units(dim, n)}" for dim, n in counts.items()) \
                + f" × {num_text(unit)} = {num_text(total)}"
            return how, loc
    return None


def _units(dim: str, n: int) -> str:
    """A unit's name for `n` of it (1 night, 2 nights, 2 people)."""
    return dim if n == 1 else "people" if dim == "person" else dim + "s"


def _part(times: int, counts: list[int]) -> bool:
    """Whether `times` is the product of some of the counts, not all of those above one."""
    above = [n for n in counts if n > 1]
    for mask in range(1, (1 << len(above)) - 1):
        if reduce(lambda a, b: a * b, (n for i, n in enumerate(above) if mask >> i & 1), 1) == times:
            return True
    return False


def _dimensions(loc: Located, claims: list[Claim], index: EvidenceIndex) -> list[str]:
    """The units one of the amount is for, in the order first said: by its field's name (`price_per_piece`,
    `nightly_rate`), a unit field of its record or of its call's output (`per: room`, `unit: 每人每航段`), and the
    answer's words right around its own mention of the amount, no other number between (`每间每晚 ¥560`, `€45.00 per
    person per flight`)."""
    lex = index.lex
    path = loc.leaf.path
    parent = path.rpartition(".")[0]
    texts = [" ".join(unit_words(index, loc.leaf))]  # `price_per_bag_per_segment`; `rate: {amount, unit}`
    if not loc.leaf.numeric:  # "早餐 ¥198/人/天": the words right after the amount in the tool's own text
        texts.append(_DIGITS.split(loc.leaf.text[loc.mention.end :])[0])
    output = index.value_at(loc.leaf.index, "")
    record = index.value_at(loc.leaf.index, parent) if parent else output
    for holder in (record, output):
        if isinstance(holder, Mapping):
            texts += [v for k, v in holder.items() if isinstance(v, str) and field_name(str(k)) in _UNIT_KEYS]
    for claim in claims:
        for f in claim.facts:
            if f.kind == FactKind.NUMBER and any(e.source == "tool" and e.index == loc.leaf.index and e.path == path
                                                 for e in f.evidence[:1]):
                at, end = f.start - claim.start, f.end - claim.start  # no other number between
                texts.append(_DIGITS.split(claim.text[max(0, at - _SAID_NEAR) : at])[-1])
                texts.append(_DIGITS.split(claim.text[end : end + _SAID_NEAR])[0])
    dims: list[str] = []
    for text in texts:
        for m in _per_unit_pattern(lex).finditer(text.lower()):
            dim = lex.unit_dimension_of[next(g for g in m.groups() if g)]
            if dim not in dims:
                dims.append(dim)
    rooms = _named_counts([index.calls[loc.leaf.index].args], set(lex.unit_dimension_fields.get("room", [])), "room")
    if dims == ["night"] and rooms and min(rooms) > 1:
        dims.append("room")  # a nightly rate of a call asked for several rooms: each room's
    return dims


def _per_unit_pattern(lex: Lexicon) -> re.Pattern[str]:
    """The lexicon's unit words after "per", 每 or a slash, or as a rate's own word (nightly)."""
    words = "|".join(sorted((re.escape(w) for w in lex.unit_dimension_of), key=len, reverse=True))
    return re.compile(rf"(?:\bper\s+|每\s*|/\s*)({words})(?![a-z])|\b(nightly|daily)\b")


def _count(dim: str, text: str, at: int, loc: Located, index: EvidenceIndex, each: bool = False) -> int:
    """How many of a unit the total at `at` is for: what the claim says (a number or "both" before one of the unit's
    words, the nearest before the total first; a round trip for flights; the party for people), not what is left
    ("剩 2 间", "2 rooms left"), else a count the records give (a field or a list named by the unit, the stay's dates
    for nights), else one. With `each` (the amount is no person's), pieces said for each person ("one bag for each of
    the 5 travellers", 各加一件) are that many times the people."""
    lex = index.lex
    words = "|".join(sorted((re.escape(w) for w, d in lex.unit_dimension_of.items() if d == dim), key=len,
                            reverse=True))
    said = [m for m in re.finditer(rf"(?i){_COUNT}\s*(?:extra\s+|more\s+)?(?:{words})(?![a-z])", text)
            if not _LEFT_BEFORE.search(text, 0, m.start()) and not _LEFT_AFTER.match(text, m.end())]
    for m in [*reversed([m for m in said if m.end() <= at]), *(m for m in said if m.end() > at)]:
        count = {"both": 2, "one": 1}.get(m[1].lower()) or small_number(lex, m[1].lower())
        if count and dim == "piece" and each and _EACH.search(text):  # "one bag for each of the 5 travellers", 各加一件
            return count * _count("person", text, at, loc, index)
        if count:
            return count
    if lex.unit_dimension_pairs.get(dim) and lex.unit_dimension_pairs[dim].search(text.lower()):
        return 2
    if dim == "person" and (party := party_said(text, lex)) is not None:
        return party
    return _recorded(dim, loc, index) or 1


def _recorded(dim: str, loc: Located, index: EvidenceIndex) -> int | None:
    """A count of a unit the records give: in the amount's record, its call's arguments or output's top (a whole
    number or a list named by the unit; a stay's dates for nights), else the one count the run's other calls give."""
    names = set(index.lex.unit_dimension_fields.get(dim, []))
    call = loc.leaf.index
    parent = loc.leaf.path.rpartition(".")[0]
    record = index.value_at(call, parent) if parent else None
    output = index.value_at(call, "")
    own = [h for h in (record, index.calls[call].args, output) if isinstance(h, Mapping)]
    found = _named_counts(own, names, dim)
    if found:
        return found[0]
    others = {n for c in range(len(index.calls)) if c != call and index.calls[c].status != "error"
              for n in _named_counts([h for h in (index.calls[c].args, index.value_at(c, ""))
                                      if isinstance(h, Mapping)], names, dim)}
    return others.pop() if len(others) == 1 else None


def _named_counts(holders: list[Mapping[str, Any]], names: set[str], dim: str) -> list[int]:
    """Counts of the unit in `holders`: whole numbers of fields whose name's last word is one of `names` (`nights`,
    `rooms`, not `price_per_room`), the lengths of lists so named, and for nights a stay's dates."""
    found = []
    for holder in holders:
        for key, value in holder.items():
            words = field_name(str(key)).split()
            if not words or words[-1] not in names or "per" in words:
                continue
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                found.append(value)
            elif isinstance(value, list) and value:
                found.append(len(value))
        if dim in ("night", "day") and isinstance(holder, dict):
            span = dated_span(holder, dim + "s")
            if span is not None and span[0] > 0:
                found.append(span[0])
    return found
