"""A total the answer works out itself that its own amounts, added up or taken away, miss by one slipped digit."""

from __future__ import annotations

import re
from decimal import Decimal
from itertools import combinations

from factcheck.extractors.status import clause_start
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.verdicts import Backing, set_verdict
from factcheck.lexicon import Lexicon
from factcheck.report import Claim, Fact, FactKind, Verdict

_CLAUSE_END = re.compile(r"[,;，；。！？!?\n]|\.(?:\s|$)")
"""What ends the clause after an amount."""
_PARTS = 6
"""Most amounts before a total that it may add up or take away (a bill's lines)."""
_LEAST_DIGITS = 4
"""Fewest significant digits (trailing zeros left out) an amount has for a slip of one to be evidence: round amounts
differ in one digit by chance (¥2,730 and ¥2,760), $136.82 and $134.82 do not."""
_REACHED = 9
"""Most amounts whose signed sums are tried for an exact reach (3^9 sums at most)."""
_MOST_UNITS = 20
"""Largest count a total multiplies an amount by ("两位旅客合计" of 4,242 each)."""


def slipped_total(fact: Fact, amounts: list[Decimal], lines: list[Decimal], claim_facts: list[Fact], claim: str,
                  start: int, index: EvidenceIndex) -> Backing | None:
    """An amount of money no tool gives, said as a total or what is left (lexicon `working_cues` in its clause,
    before it or after it: 合计, in total, remaining, "$479.55 remains"), that the answer's own amounts just before it
    come to but for one digit changed or two next to each other swapped: added up ("49.98 + 12.50 + 8.75 = 71.23, not
    $73.23"), the later ones taken from the one before them ("100.00 − 38.85 − 32.60 = 28.55"), the one before the
    last from the last ("met $1,620.45 of your $2,000.00": 379.55), or the last one times a count the claim gives
    ("2 × 4,242 = 8,484, not 8,184 元"); or what the lines before it come to, each line's last amount, added up or
    taken away (a property's $48.37 and another's $88.45 = $61.05 + $22.40 + $5.00: 136.82, not $134.82). The slip
    is the evidence: any other value could be worked out some way the answer does not show, and one that some of
    these amounts, each added or taken away, come to exactly is no slip.

    Args:
        fact: An amount of money no tool output or backing gives.
        amounts: The answer's backed amounts of money before it, in order.
        lines: What each line before it comes to (its last backed amount), in order.
        claim_facts: The facts of its claim (the counts it gives).
        claim: The claim's text.
        start: Where the claim's text starts in the answer.
        index: The run's evidence (its lexicon, and the numbers a tool gives: a gap one holds is a part left out).

    Returns:
        ("recomputed", how, []) when one such value slips into the claimed one; None otherwise.
    """
    lex = index.lex
    if fact.kind != FactKind.NUMBER or fact.unit not in lex.currency_codes or not fact.value or not amounts:
        return None
    before = claim[: max(0, fact.start - start)]
    rest = claim[fact.end - start :]
    after = rest[: m.start()] if (m := _CLAUSE_END.search(rest)) else rest
    if not lex.working_cues.finditer(before[clause_start(before, len(before)) :]) \
            and not lex.working_cues.finditer(after.lower()):
        return None  # its cue stands in its own clause, before it or after it ("$479.55 remains", "… in total")
    claimed, exponent = Decimal(fact.value), -(fact.precision or 0)
    if len(_digits(claimed, exponent).rstrip("0")) < _LEAST_DIGITS:
        return None
    parts, counts = amounts[-_PARTS:], _counts(fact, claim_facts, lex)
    said = [Decimal(f.value) for f in claim_facts if f.end <= fact.start and f.kind == FactKind.NUMBER and f.value
            and f.unit in lex.currency_codes]  # "$497.00（$225.00 + $272.00）", backed by the parts after it
    if _reached(claimed, list(dict.fromkeys(parts + said + lines[-_PARTS:]))[-_REACHED:], counts):
        return None  # some of them, added up or taken away, come to it exactly: a working the answer does not show
    for how, value in _worked(parts, counts) + _worked(lines[-_PARTS:], []):
        if value != claimed and value > 0 and _slipped(value, claimed, exponent) \
                and not _left_out(claimed - value, exponent, index):
            return ("recomputed", f"the answer's own amounts come to {how} = {_shown(value, exponent)}, not "
                    f"{fact.text}: one digit apart", [])
    return None


def _left_out(gap: Decimal, exponent: int, index: EvidenceIndex) -> bool:
    """Whether a tool gives the amount the claimed total is over what the answer lists, in a field of money (a
    statement's $4.00 of `fees` the rows leave out): no slip, a part not listed."""
    gap = abs(gap)
    if gap.normalize().as_tuple().digits == (1,):
        return False  # 1.00, 10, 100 apart: one digit off by one, as a slip is
    return any(loc.leaf.source == "tool" and loc.leaf.numeric and loc.leaf.labels & index.lex.money_labels
               for loc in index.equal_numbers([(gap, exponent)]))


def _worked(parts: list[Decimal], counts: list[int]) -> list[tuple[str, Decimal]]:
    """The values the last amounts come to, with how: the last two, three … added up; the last one, two or three
    taken from the one before them; the one before the last taken from the last; the last one times each count."""
    out = []
    for k in range(2, len(parts) + 1):
        out.append((" + ".join(_shown(p) for p in parts[-k:]), sum(parts[-k:], Decimal(0))))
    for k in range(1, min(3, len(parts) - 1) + 1):
        head, taken = parts[-k - 1], parts[-k:]
        out.append((" − ".join(_shown(p) for p in (head, *taken)), head - sum(taken, Decimal(0))))
    if len(parts) >= 2:  # "met $1,620.45 of your $2,000.00, so $379.55 remains": the whole said after the part
        out.append((f"{_shown(parts[-1])} − {_shown(parts[-2])}", parts[-1] - parts[-2]))
    out += [(f"{n} × {_shown(parts[-1])}", n * parts[-1]) for n in counts]
    return out


def _reached(claimed: Decimal, parts: list[Decimal], counts: list[int]) -> bool:
    """Whether some of the amounts, each added or taken away, or any one times a count, come to the claimed amount
    exactly."""
    if any(n * p == claimed for n in counts for p in parts):
        return True
    reached = {Decimal(0)}
    for part in parts:
        reached |= {r + part for r in reached} | {r - part for r in reached}
    return claimed in reached


def _counts(fact: Fact, claim_facts: list[Fact], lex: Lexicon) -> list[int]:
    """The whole numbers (2 to 20) without a currency the claim gives before the total: how many it is of."""
    return [int(f.value) for f in claim_facts
            if f.kind == FactKind.NUMBER and f.end <= fact.start and f.unit not in lex.currency_codes and f.value
            and f.value.isdigit() and 2 <= int(f.value) <= _MOST_UNITS]


def _digits(value: Decimal, exponent: int) -> str:
    """The value's digits at the claim's precision, without sign, leading zeros or a point."""
    return f"{abs(value.scaleb(-exponent).to_integral_value()):f}".lstrip("0")


def _slipped(value: Decimal, claimed: Decimal, exponent: int) -> bool:
    """Whether two amounts, at the claim's precision, differ in one digit or in two next to each other swapped."""
    if value.scaleb(-exponent) != value.scaleb(-exponent).to_integral_value():
        return False  # the worked value has finer digits than the claim writes
    a, b = _digits(value, exponent), _digits(claimed, exponent)
    if len(a) != len(b):
        return False
    apart = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return len(apart) == 1 or (len(apart) == 2 and apart[1] == apart[0] + 1
                               and a[apart[0]] == b[apart[1]] and a[apart[1]] == b[apart[0]])


def _shown(value: Decimal, exponent: int | None = None) -> str:
    """An amount as the working shows it."""
    return f"{value.normalize():f}" if exponent is None else f"{value.quantize(Decimal(1).scaleb(exponent)):f}"


_PAIR_DIGITS = 3
"""Fewest significant digits an amount needs for a slip from two of the answer's amounts to be evidence."""
_PAIR_CLAIMS = 2
"""How many claims before or after an amount's own the two amounts it slips from may stand."""
_PAIR_NEAREST = 4
"""How many of the answer's amounts nearest a slipped one it may slip from (each pair of them is tried)."""
_NEAREST = 8
"""How many of the answer's amounts nearest a slipped one are tried for an exact reach."""
_TIMES = re.compile(r"(?i)\d\s*[×x*]|[×x*]\s*\d|=|每|\beach\b|\bper\b"
                    r"|/\s*(?:person|night|day|mo|month|yr|year|人|晚|天|张|月|年|季)")
"""A product or a written working in the claim ("$35 × 3 rooms", "每人", "$582/mo", "¥13,050 − ¥900 = ¥12,150"): its
amounts are not only two added up, or the working is checked on its own."""


def slipped_pair(claims: list[Claim], index: EvidenceIndex) -> None:
    """Contradict an amount no tool gives that two of the answer's backed amounts of its unit nearby, added up or one
    taken from the other, come to but for one digit changed or two next to each other swapped: "德邦便宜 32.80 元"
    two lines after 182.40 元 and 205.20 元 (205.20 − 182.40 = 22.80); "you'll still owe $172.40" between $150.00
    and $312.40. The two are among the four backed amounts of its unit nearest it, or the first amounts of the
    claims around it ("Total charges: $19,505.00 (tuition …)"), within two claims of its own (in a table's row, the
    row's own cells). Not in a claim that multiplies or shows its working ("× 3", "per night", 每人, "= ¥12,150"),
    and not an amount that some of the answer's amounts nearest it, each added or taken away, or one of them times a
    count of its claim, come to exactly: a working the answer does not show. The slip is the evidence, as in
    `slipped_total`.

    Args:
        claims: The answer's claims, grounded.
        index: The run's evidence.
    """
    said = [(i, f) for i, c in enumerate(claims) for f in c.facts
            if f.kind == FactKind.NUMBER and f.value and Decimal(f.value) > 0]
    for at, claim in enumerate(claims):
        if not claim.act.asserts or _TIMES.search(claim.text):
            continue
        for fact in claim.facts:
            if fact.kind != FactKind.NUMBER or fact.code != "not_found" or fact.verdict != Verdict.UNSUPPORTED \
                    or fact.evidence or not fact.value or not _adds(fact.unit, index.lex):
                continue
            claimed, exponent = Decimal(fact.value), -(fact.precision or 0)
            if claimed <= 0 or len(_digits(claimed, exponent).rstrip("0")) < _PAIR_DIGITS:
                continue
            same = sorted(((abs(f.start - fact.start), i, f) for i, f in said if f.unit == fact.unit and f is not fact),
                          key=lambda t: t[0])
            reach = 0 if claim.text.lstrip().startswith("|") else _PAIR_CLAIMS  # a table's row: its own cells
            usable = [(i, f) for _, i, f in same if abs(i - at) <= reach and f.verdict == Verdict.SUPPORTED
                      and claims[i].act.asserts]
            heads: dict[int, Fact] = {}  # each claim's first amount
            for i, f in sorted(usable, key=lambda t: t[1].start):
                heads.setdefault(i, f)
            near = list(dict.fromkeys([Decimal(f.value) for _, f in usable][:_PAIR_NEAREST]
                                      + [Decimal(f.value) for f in heads.values()]))
            nearest = list(dict.fromkeys(Decimal(f.value) for _, _, f in same))[:_NEAREST]
            if len(near) < 2 or _reached(claimed, nearest, _counts(fact, claim.facts, index.lex)):
                continue
            hit = _pair_slip(near, claimed, exponent, index)
            if hit is not None:
                set_verdict(fact, Verdict.CONTRADICTED, "recomputed",
                            f"the answer's own amounts come to {hit[0]} = {_shown(hit[1], exponent)}, not "
                            f"{fact.text}: one digit apart", [])


def _pair_slip(parts: list[Decimal], claimed: Decimal, exponent: int,
               index: EvidenceIndex) -> tuple[str, Decimal] | None:
    """The first sum or difference of two of the amounts that slips into the claimed one, with how."""
    for a, b in combinations(parts, 2):
        high, low = max(a, b), min(a, b)
        for how, value in ((f"{_shown(a)} + {_shown(b)}", a + b), (f"{_shown(high)} − {_shown(low)}", high - low)):
            if value > 0 and _slipped(value, claimed, exponent) and not _left_out(claimed - value, exponent, index):
                return how, value
    return None


def _adds(unit: str | None, lex: Lexicon) -> bool:
    """Whether amounts of the unit are added up and taken away as they are: money, and measures of the lexicon's
    `unit_scales` (GB, kg); not a span of time (36.5 hours holds three 12-hour blocks) nor a percentage."""
    return bool(unit) and (unit in lex.currency_codes or unit.lower() in lex.unit_scales)
