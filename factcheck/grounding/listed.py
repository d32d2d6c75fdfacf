"""Counts and totals of what the answer goes on to enumerate: "You have three pending orders:" and a list after it."""

from __future__ import annotations

import re
from decimal import Decimal

from factcheck.grounding.arithmetic import equal_at, operand_value, sum_text
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.verdicts import set_verdict
from factcheck.lexicon import Lexicon
from factcheck.report import Claim, Fact, FactKind, Verdict

_ITEM = re.compile(r"([ \t]*)(?:[-*•·]|\d{1,2}[.)、]|[（(]\d{1,2}[)）])[ \t]+\S")
"""A line that is a list item (a bullet, or a number and its mark), and its indent."""
_OPENS = re.compile(r"[:：]\s*$")
"""What ends a claim that opens a list."""
_BREAKDOWN = re.compile(r"(?:[A-Z]{1,4}-?\d{3,}|#\w*\d{3,}).{1,40}?(?:和|及|与|、|,|\band\b|&).{0,6}?"
                        r"(?:[A-Z]{1,4}-?\d{3,}|#\w*\d{3,})")
"""An item that holds two records' keys: the list groups the records it counts."""
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_ORDINAL = re.compile(r"(?i)\s*(?:the\s+)?(" + "|".join(_ORDINALS) + r")\b"
                      r"|\s*第([一二三四五六七八九十])(?:个|款|家|条|项|种|位|本|部|道)")
"""A sentence that opens with an ordinal ("The second one is …", 第二个是 …): an item of an enumeration in prose."""
_LAST = re.compile(r"(?i)\s*(?:the\s+last\b|finally\b|lastly\b|最后)")
"""A sentence that opens the last item without its place ("Finally, …"): the enumeration's length is unknown."""
_ZH_ORDINALS = "一二三四五六七八九十"
_PRESENCE = re.compile(r"(?i)(?:\b(?:have|has|had|found|find|see|there\s+(?:are|were|is)|contains?|lists?|shows?"
                       r"|returned|got|are|were)\b|有|共|找到|查到|一共|总共)[^.!?。！？:：]{0,16}$")
"""Words before a count that say the counted things are there ("you have", "I found", 共有, 查到)."""
_PLURAL_COUNT = re.compile(r"(?i)\b(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+"
                           r"(?:[a-z-]+\s+){0,2}?([a-z]{3,}s)\b")
"""A count in English words or digits before a plural noun, up to two words between ("three delivered orders")."""
_BRACKETED = re.compile(r"[（(][^）)]*$")
"""An open bracket before a number: the number describes something named, not what the claim counts."""
_MOST = 50
"""Largest count read as the length of what follows."""
_ROW_LABEL = re.compile(r"[\s|*_-]*([^|*_]+)")
"""The first cell or words of a row, past its bar, bullet and emphasis ("| **Total** |" -> "Total")."""
_LABEL_LEAD = 6
"""Most characters before a row's total word ("Grand total")."""
_DIFFERENCE = re.compile(r"differ|remaining|差")
"""Derivation cues that say a difference, not a total."""
_TABLE_RULE = re.compile(r"\s*\|?\s*:?-{3,}")
"""A markdown table's rule under its header (|---|---|)."""
_MINUS = re.compile(r"[-−–]\s*$")
_CREDIT = re.compile(r"(?i)\s*\(?(?:credit|refund|退|返)")
"""A row's amount that comes off the total: "-$60.78", "$60.78 (credit)"."""


def listed_count(claims: list[Claim], source: str, index: EvidenceIndex) -> None:
    """Contradict the count of a claim that opens an enumeration ("I found three grills in your order history:"
    and a list of two; "I found 3 hotels. The first is … The second is …") when the enumeration right after it
    has another number of items.

    The count is the claim's only number, with a count noun after it, a whole number from 2 to 50 (not an amount
    of money, a measure, a duration or a threshold, not in brackets), and no list of the records has that many
    items (then the answer may enumerate only the ones it speaks of). A list counts when the claim ends with a
    colon and the list starts on the next line (its items at the list's first indent); prose counts when the very
    next sentence opens with "the first" (第一) and the ones after go on in order.

    Args:
        claims: The answer's claims, grounded.
        source: The text the claims' offsets are in.
        index: The run's evidence.
    """
    lex = index.lex
    for i, claim in enumerate(claims):
        numbers = [f for f in claim.facts if f.kind == FactKind.NUMBER]
        if len(numbers) == 1 and _a_count(numbers[0], claim, lex) and numbers[0].verdict != Verdict.CONTRADICTED:
            fact = numbers[0]
        elif not numbers and (_OPENS.search(claim.text) or i + 1 < len(claims)):
            # "I found three grills in your order history:": a count in words of a noun no lexicon lists
            found = _count_in_words(claim, lex)
            if found is None:
                continue
            fact = found
        elif _OPENS.search(claim.text) and (found := _opening_count(claim, numbers, lex)) is not None:
            fact = found  # "您名下共有 5 张卡，处于冻结状态的有 3 张：", "可预订的包间有 3 间："
        else:
            continue
        said = Decimal(fact.value or "0")
        if said != said.to_integral_value() or not 2 <= said <= _MOST:
            continue
        if any(length == said for length, leaf in index.list_counts if not leaf.path.startswith("args")):
            continue  # "共有 4 个订单：" with 4 orders in the records, listing the two it speaks of
        if not _PRESENCE.search(claim.text[max(0, fact.start - claim.start - 24) : fact.start - claim.start]):
            continue  # "按 32 人、必须支持 SSO 的条件，最便宜的是:": a condition, not a count of what is there
        if _BRACKETED.search(claim.text[: fact.start - claim.start]):
            continue  # "（夏季速干T恤 2件装）": a product's pack size, not the count of what follows
        if _OPENS.search(claim.text):
            items, how = _items_after(source, claim.end, fact.unit or ""), "lists"
        else:
            items, how = _ordinals_after(claims[i + 1 :]), "goes on to describe"
        if items and any(f is not fact and f.value and Decimal(f.value) == items for f in numbers):
            continue  # "有 2 个订单，共 4 张票：", "(first 4 shown)": the list enumerates the claim's other count
        if items and items != said:
            set_verdict(fact, Verdict.CONTRADICTED, "recomputed",
                        f"the answer {how} {items} of them right after it, not {fact.text}", [])
            if fact not in claim.facts:
                claim.facts.append(fact)


def listed_total(claims: list[Claim], source: str, index: EvidenceIndex) -> None:
    """Back a total that opens a list of its parts ("You have 3 usable gift cards with a combined balance of
    $202.69:" and three items of $5.51, $49.76 and $147.42) when the parts the list gives add up to it.

    The claim says a total (lexicon `derivation_cues`) and ends its line (a colon or a full stop before the list);
    its last amount of money that no tool gives is the total. Each item of the list right after it (at its first
    indent) must give a backed amount in the total's currency, and the first such amount of each item is its part.
    A list whose parts do not add up leaves the total as it was: the answer may have listed only some of what it
    summed.

    Args:
        claims: The answer's claims, grounded.
        source: The text the claims' offsets are in.
        index: The run's evidence.
    """
    lex = index.lex
    for claim in claims:
        if not lex.derivation_cues.search(claim.text):
            continue
        totals = [f for f in claim.facts if f.kind == FactKind.NUMBER and f.unit in lex.currency_codes
                  and f.code in ("value_mismatch", "not_found") and f.value]
        if not totals:
            continue
        total = totals[-1]
        if total.code == "value_mismatch" and stated_total(total, [e.text for e in total.evidence], claim.facts):
            continue
        parts = []
        for begin, end in _item_spans(source, claim.end):
            amounts = [f for c in claims if begin <= c.start < end for f in c.facts
                       if f.kind == FactKind.NUMBER and f.unit == total.unit and f.value]
            if not amounts or amounts[0].verdict != Verdict.SUPPORTED:
                break
            parts.append(amounts[0])
        else:
            added = sum((operand_value(Decimal(p.value or "0"), p.unit) for p in parts), Decimal(0))
            if len(parts) > 1 and equal_at(added, Decimal(total.value or "0"), -(total.precision or 0)):
                how = sum_text([p.text for p in parts]) + " (the amounts the answer lists after it)"
                set_verdict(total, Verdict.SUPPORTED, "derived", f"number equals {how}", [])


def closing_total(claims: list[Claim], source: str, index: EvidenceIndex) -> None:
    """Recompute a total row that closes a table or list of its parts ("| **Total** | | **$190.55** |" under four
    rows of $42.50, $18.75, $96.20 and $23.10): backed when the rows add up to it, contradicted when no tool gives
    it and they do not, unless what is left over is a number a tool gives (a fee or tax the rows leave out).

    The total's line opens with a total word (lexicon `derivation_cues`, not a difference's) and gives one number,
    the amount. Every table row or list item right above it, up to a blank line or other text, gives exactly one
    number, a backed amount in the total's currency (a minus or "credit" before or after it subtracts it): a row with
    a count or a unit price ("3 × €40", "¥299.00/天，共 6 天") is no part, and then nothing is recomputed.

    Args:
        claims: The answer's claims, grounded.
        source: The text the claims' offsets are in.
        index: The run's evidence.
    """
    lex = index.lex
    for claim in claims:
        label = _ROW_LABEL.match(claim.text)
        cues = lex.derivation_cues.finditer(label[1].lower()) if label else []
        numbers = [f for f in claim.facts if f.kind == FactKind.NUMBER]
        if not cues or cues[0].start > _LABEL_LEAD or _DIFFERENCE.search(cues[0].key) or len(numbers) != 1:
            continue
        total = numbers[0]
        if total.unit not in lex.currency_codes or not total.value or total.code not in ("not_found", "value_mismatch"):
            continue
        parts = _rows_above(claims, source, claim.start, total.unit)
        if len(parts) < 2 or any(p.verdict != Verdict.SUPPORTED for p, _ in parts):
            continue
        added = sum((sign * operand_value(Decimal(p.value or "0"), p.unit) for p, sign in parts), Decimal(0))
        claimed, exponent = Decimal(total.value or "0"), -(total.precision or 0)
        how = " ".join(f"{'−' if sign < 0 else '+'} {p.text}" for p, sign in parts).lstrip("+ ")
        if equal_at(added, claimed, exponent):
            set_verdict(total, Verdict.SUPPORTED, "derived", f"number equals {how} (the rows the answer lists above)",
                        [])
        elif total.code == "not_found" and not index.equal_numbers([(abs(claimed - added), exponent)]):
            set_verdict(total, Verdict.CONTRADICTED, "recomputed",
                        f"the rows the answer lists above give {how} = {added}, not {total.text}", [])


def _rows_above(claims: list[Claim], source: str, at: int, unit: str | None) -> list[tuple[Fact, int]]:
    """The amount in `unit` of each table row or list item right above the line at `at`, in order, with its sign;
    empty when a row there gives another number too or none (a header row ends the rows)."""
    parts: list[tuple[Fact, int]] = []
    end = source.rfind("\n", 0, at)
    while end > 0:
        begin = source.rfind("\n", 0, end) + 1
        line = source[begin:end]
        end = begin - 1
        if _TABLE_RULE.match(line):
            continue
        table = line.lstrip().startswith("|")
        if not (table or _ITEM.match(line)):
            break
        numbers = [f for c in claims if begin <= c.start < begin + len(line) for f in c.facts
                   if f.kind == FactKind.NUMBER]
        if not numbers and table:
            break  # the header row
        if len(numbers) != 1 or numbers[0].unit != unit or not numbers[0].value:
            return []
        part = numbers[0]
        minus = _MINUS.search(source, max(begin, part.start - 2), part.start) is not None \
            or _CREDIT.match(source, part.end) is not None
        parts.append((part, -1 if minus else 1))
    return parts[::-1]


def stated_total(fact: Fact, values: list[str], facts: list[Fact]) -> bool:
    """Whether a tool states the one value of a total's field (`amount_due: 367`) and the claim says no other
    value of it: the answer's own parts cannot outvote the total a tool gives.

    Args:
        fact: The total.
        values: The values of the total's field the tools give.
        facts: The facts of the total's claim.
    """
    if len(set(values)) != 1:
        return False
    try:
        stated = Decimal(values[0])
    except ArithmeticError:
        return True
    return not any(f is not fact and f.kind == FactKind.NUMBER and f.value and Decimal(f.value) == stated
                   for f in facts)


def _item_spans(source: str, at: int) -> list[tuple[int, int]]:
    """Where each item of the list starting on the first non-blank line after `at` starts and ends in `source`
    (its items at the list's first indent, each with the lines nested under it); none when no list starts there."""
    spans: list[tuple[int, int]] = []
    indent: str | None = None
    pos = source.find("\n", at)
    if pos < 0 or source[at:pos].strip():
        return []
    while pos >= 0:
        start, pos = pos + 1, source.find("\n", pos + 1)
        line = source[start : pos if pos >= 0 else len(source)]
        if not line.strip():
            continue
        m = _ITEM.match(line)
        if indent is None:
            if m is None:
                return []
            indent = m[1]
        if m is not None and m[1] == indent:
            spans.append((start, start + len(line)))
        elif len(line) - len(line.lstrip()) <= len(indent):
            break
        elif spans:
            spans[-1] = (spans[-1][0], start + len(line))
    return spans


def _count_in_words(claim: Claim, lex: Lexicon) -> Fact | None:
    """The count a claim says in words of a plural noun the count lexicon does not list ("three grills", "two
    delivered orders", "3 recipes"), as a number fact of the claim's text; None when it says none."""
    words = lex.map("number_words")
    for m in _PLURAL_COUNT.finditer(claim.text):
        said, noun = m[1].lower(), m[2].lower()
        value = int(said) if said.isdigit() else words.get(said)
        if value is None or noun in lex.duration_days or noun.rstrip("s") in lex.duration_days:
            continue
        return Fact(kind=FactKind.NUMBER, text=m[1], start=claim.start + m.start(1), end=claim.start + m.end(1),
                    value=str(value), unit=noun)
    return None


def _opening_count(claim: Claim, numbers: list[Fact], lex: Lexicon) -> Fact | None:
    """The one count of the last clause of a claim that opens a list, said to be there ("处于冻结状态的有 3 张：",
    "能坐下 10 人且可预订的包间有 3 间：": the party is no count of what is there); None when it has none or several."""
    last = max(claim.text.rfind(mark) for mark in "，,；;") + 1
    found = _count_in_words(claim, lex)
    if found is not None:  # a count of a plural noun no lexicon lists: the claim's own fact at that place
        found = next((f for f in numbers if f.start == found.start), None)
    # the word that says they are there stands in the count's own clause ("共 5 个出发团，能容纳 4 人的有："
    # counts no party of 4)
    counts = [
        f for f in numbers
        if f.start - claim.start >= last and f.verdict != Verdict.CONTRADICTED
        and (_a_count(f, claim, lex) or f is found)
        and _PRESENCE.search(claim.text[max(last, f.start - claim.start - 24) : f.start - claim.start])
    ]
    return counts[0] if len(counts) == 1 else None


def _a_count(fact: Fact, claim: Claim, lex: Lexicon) -> bool:
    """Whether a number counts things (three pending orders, 3 个订单): a count noun after it, no measure, duration
    or money, not "12-month", not a threshold ("with at least 4 seats")."""
    unit = (fact.unit or "").lower()
    if not unit or not fact.value or fact.unit in lex.currency_codes or unit in lex.unit_scales \
            or unit in lex.duration_days or unit in lex.duration_seconds:
        return False
    at = fact.start - claim.start
    if claim.text[fact.end - claim.start : fact.end - claim.start + 1] == "-":
        return False  # "a 12-month average": a measure of something else
    before = claim.text[max(0, at - 14) : at].rstrip().lower()
    return not any(before.endswith(w.lower()) for words in lex.threshold_words.values() for w in words)


def _items_after(source: str, at: int, unit: str) -> int:
    """How many items the list starting on the first non-blank line after `at` has at its first indent (0: the
    next line is no list item, or the items break the count down: "- 已批准 4 笔", two records in one item)."""
    lines = source[at:].split("\n")
    if lines and lines[0].strip():  # the rest of the claim's own line
        return 0
    indent: str | None = None
    items = 0
    for line in lines[1:]:
        if not line.strip():
            continue
        m = _ITEM.match(line)
        if indent is None:
            if m is None:
                return 0
            indent = m[1]
        if m is not None and m[1] == indent:
            if _BREAKDOWN.search(line) or unit and re.search(r"\d\s*" + re.escape(unit), line):
                return 0  # "- EXP-0419 和 EXP-0425 已经 approved", "- 待审批 1 笔": the list groups what it counts
            items += 1
        elif len(line) - len(line.lstrip()) <= len(indent):
            break  # a line back at the list's indent that is no item: the list has ended
    return items if items > 1 else 0  # one item before other text is no list to count


def _ordinals_after(following: list[Claim]) -> int:
    """How many items the sentences right after a count enumerate by ordinals ("The first one is … The second
    one is …"): the next sentence must open with the first, and each later ordinal follows the one before; 0 when
    they do not (or stop at the first)."""
    reached = 0
    for claim in following:
        if reached and _LAST.match(claim.text):
            return 0
        m = _ORDINAL.match(claim.text)
        if m is None:
            if reached == 0:
                return 0
            continue
        place = _ORDINALS.index(m[1].lower()) + 1 if m[1] else _ZH_ORDINALS.index(m[2]) + 1
        if place != reached + 1:
            break
        reached = place
    return reached if reached > 1 else 0
