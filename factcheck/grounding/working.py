"""The answer's own working, recomputed: a difference it states between two of its amounts ("$300.00 less than the
$3,212.44"), arithmetic it writes out ("$79.00 + $6.50 fee = $85.50", "¥960.00（票面 ¥480.00 × 2）"), and what is
left after the whole and the part used ("共 30GB，已用 24.6GB，剩余 6.4GB")."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from factcheck.grounding.arithmetic import equal_at, operand_value
from factcheck.grounding.verdicts import set_verdict
from factcheck.lexicon import Lexicon
from factcheck.report import Claim, Fact, FactKind, Verdict

_GAP = 24
"""Longest text between the difference and its comparative, or between 比 and the amount compared with."""


@dataclass(frozen=True)
class StatedDifference:
    """A number the claim says is the difference of two of its other numbers, and what they give."""

    subject: Fact
    """The amount the claim compares (the new one: "Your Nov 30 net pay was $3,049.26")."""
    other: Fact
    """The amount it is compared with ("than the $3,212.44", 比 1 月的 $123.73)."""
    value: Decimal
    """|subject - other|."""
    sign_ok: bool
    """Whether the comparative's direction agrees (less: subject < other)."""

    @property
    def how(self) -> str:
        """The computation, as a person reads it."""
        a, b = Decimal(self.subject.value or "0"), Decimal(self.other.value or "0")
        hi, lo = (a, b) if a >= b else (b, a)
        return f"{hi.normalize():f} − {lo.normalize():f} = {self.value.normalize():f}"


def stated_difference(fact: Fact, facts: list[Fact], text: str, start: int, lex: Lexicon) -> StatedDifference | None:
    """The two amounts a claimed difference is stated between, when the claim says so.

    English puts the comparative after the difference ("$300.00 less than the $3,212.44", "$34 more than"),
    Chinese the amount compared with before it (比 1 月的 $123.73 多了 $33.54); the subject is the nearest
    backed amount of the same unit before both. Both amounts must be backed: the check recomputes from the
    answer's own backed numbers, it never guesses one.

    Args:
        fact: A number of the claim.
        facts: Every fact of the claim.
        text: The claim's text.
        start: The claim's offset in the answer (facts carry answer offsets).
        lex: The lexicon (`difference_words`: words of a comparative by direction).

    Returns:
        The stated difference, or None when the claim states none for this number.
    """
    words = lex.difference_words
    if fact.kind != FactKind.NUMBER or not fact.value or not words:
        return None
    after = text[fact.end - start : fact.end - start + _GAP].lower()
    before = text[max(0, fact.start - start - _GAP * 2) : fact.start - start]
    if not _any_cue(words).search(after) and not _any_cue(words).search(before):
        return None  # no comparative's words on either side (found below one by one, in the lexicon's order)
    for way, cues in words.items():
        for cue in cues:
            # the regex only where the cue is in the text at all (most numbers are followed by no comparative)
            found = re.match(rf"\s*(?:{re.escape(cue)})\b", after) if cue.isascii() and cue in after else None
            if found is not None:  # "$300.00 less than the $3,212.44"
                numbers = _other_numbers(fact, facts)
                other = next((f for f in numbers if f.start >= fact.end + found.end()
                              and f.start - fact.end - found.end() <= _GAP), None)
                return _between(fact, numbers, other, way, fact.start, _stated(text, start, words))
    for way, cues in words.items():
        for cue in (c for c in cues if not c.isascii()):
            at = before.rfind(cue)
            if at < 0 or len(before) - at - len(cue) > 4:
                continue  # 比 … 多了 $33.54: the comparative word right before the difference
            bi = before.rfind("比", 0, at)
            if bi < 0 or _CLAUSE_MARK.search(before, bi, at):
                return None  # 比 of another clause ("比原价便宜68元，但总价要多出30元"): no comparison of this one
            lo = fact.start - len(before) + bi
            # "A 比 B 贵 X，但比 C 便宜 Y": A, before the sentence's first 比, is the subject of both
            sentence = max((m.end() for m in _SENTENCE_END.finditer(text, 0, lo - start)), default=0)
            first = text.find("比", sentence, lo - start + 1) + start
            numbers = _other_numbers(fact, facts)
            # the amount nearest the comparative ("比按 3,065.60 元计算的 45.98 元多了"): what it is compared with
            other = next((f for f in reversed(numbers) if lo < f.start < fact.start - (len(before) - at)), None)
            return _between(fact, numbers, other, way, first, _stated(text, start, words))
    return None


_COMPARED = 16
"""How far (characters) a comparative may stand from a number it makes a difference ("$9 more than", "贵了 ¥9")."""
_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?:\s|$)")
"""What ends a sentence."""
_CLAUSE_MARK = re.compile(r"[，；。！？]|[,;!?](?!\d)")
"""What parts two clauses: a comparative's 比 stands in its own."""
_CUE_REACH = 10
"""How far (characters) a working cue may stand before an amount ("还剩 6.5 天", "leaving $9,592.00") or after it
("6.5 days left")."""
_CUES: list[Any] = [None, None]
"""The difference words last read (a lexicon's `difference_words`, held) and `_any_cue` of them."""


def _any_cue(words: dict[str, tuple[str, ...]]) -> re.Pattern[str]:
    """A regex finding any of the difference words as written (a quick look before they are read one by one)."""
    if _CUES[0] is not words:
        cues = sorted({c for cs in words.values() for c in cs}, key=len, reverse=True)
        _CUES[:] = [words, re.compile("|".join(map(re.escape, cues)) or "(?!)")]
    return _CUES[1]


def _other_numbers(fact: Fact, facts: list[Fact]) -> list[Fact]:
    """The claim's other numbers of the fact's unit, in order (read only once a comparative is found)."""
    return sorted((f for f in facts if f.kind == FactKind.NUMBER and f.value and f.unit == fact.unit
                   and f is not fact), key=lambda f: f.start)


def _stated(text: str, start: int, words: dict[str, tuple[str, ...]]) -> Callable[[Fact], bool]:
    """Whether a number of the claim is itself a stated difference: a comparative right after it ("$9 more than")
    or, in Chinese, right before it (贵 ¥9)."""
    def stated(number: Fact) -> bool:
        after = text[number.end - start : number.end - start + _COMPARED].lower()
        before = text[max(0, number.start - start - _COMPARED) : number.start - start]
        return any(re.match(rf"\s*{re.escape(cue)}\b", after) if cue.isascii() else before.rstrip().endswith(cue)
                   for cues in words.values() for cue in cues)
    return stated


def _between(fact: Fact, numbers: list[Fact], other: Fact | None, way: str, limit: int,
             stated: Callable[[Fact], bool]) -> StatedDifference | None:
    """The stated difference of `fact` between the nearest backed amount before it (and before `limit`, where the
    comparison starts: 比) that is no stated difference itself, and `other`."""
    if other is None or other.verdict != Verdict.SUPPORTED:
        return None
    # "$9 more than HAT203 and $15 less than HAT112": a difference stated before is no subject of the next
    subject = next((f for f in reversed(numbers) if f.start < min(fact.start, other.start, limit)
                    and not stated(f)), None)
    if subject is None or subject.verdict != Verdict.SUPPORTED:
        return None
    a, b = Decimal(subject.value or "0"), Decimal(other.value or "0")
    value = abs(a - b)
    sign_ok = (a < b) if way == "less" else (a > b)
    return StatedDifference(subject, other, value, sign_ok)


def agrees(found: StatedDifference, fact: Fact) -> bool:
    """Whether the claimed difference is the recomputed one, at the precision it is written."""
    return found.sign_ok and equal_at(found.value, Decimal(fact.value or "0"), -(fact.precision or 0))


_OPERATOR = re.compile(r"[+＋−×÷*]|(?<=\s)[-xX/](?=\s)")
"""An operator between two written numbers ("+", "×", " x ", " - "); a hyphen or an x inside a word is none."""
_LABEL = re.compile(
    r"(?:/[^\W\d_][^\W\d]{0,7})?"
    r"[^\S\n]*(?:[^\W\d_][^\W\d]{0,11}(?:[^\S\n]+[^\W\d_][^\W\d]{0,11}){0,2})?[^\S\n]*"
)
"""What may stand beside an operand: its unit's denominator ("2.40 元/kg", "$2.40/kg"), spaces and a short label of
up to three words ("$6.50 fee", "手续费")."""
_EQUALS = ("=", "＝")
_PART_OF = re.compile(r"(?i)\d\s*(?:of|/)\s*$")
"""A part's count right before a written operand ("4 of 6 × $12.50", "91/96 × €499"): the operand is the whole."""
_EACH = re.compile(r"(?i)\b(?:each|apiece|per)\b|每")
"""A word of each unit after the last operand or before the first of a sum ("$14.50 fee each =", "（每张 268 + 8）"); a
product writes its counts ("每人每晚 ¥200 × 2人 × 5晚")."""
_BEYOND = 40
"""How far past the operands read an operator shows that the expression goes on."""
_OPENING = re.compile(r"[^\S\n]*[(（]")
_CLOSING = re.compile(r"[^\S\n]*(?:[^\W\d_][^\W\d]{0,11}(?:[^\S\n]+[^\W\d_][^\W\d]{0,11}){0,2})?[^\S\n]*[)）]")
"""A short label at most, then the bracket's end: the bracket holds the expression and nothing more."""
_RANGE_END = re.compile(r"\d[^\S\n]*(?:[-–—~～至到]|\bto\b)[^\S\n]*$")
"""A number and a range mark right before a number: the number ends a range ("weeks 45–47")."""
_SIGNS = {"+": "+", "＋": "+", "-": "-", "−": "-", "×": "*", "x": "*", "X": "*", "*": "*", "÷": "/", "/": "/"}
_SHOWN = {"+": "+", "-": "−", "*": "×", "/": "÷"}


@dataclass(frozen=True)
class WrittenArithmetic:
    """An expression the answer writes out, the number it says it comes to, and what it does come to."""

    result: Fact
    """The number the expression is said to equal."""
    operands: tuple[Fact, ...]
    """The expression's numbers, in order."""
    value: Decimal
    """What the expression comes to."""
    how: str
    """The expression with its value ("79 + 6.5 = 85.5")."""
    per_unit: bool = False
    """Whether the expression counts units of an amount it does not write ("1 room × 5 nights = $845.00"): `value`
    is the number of units, and the result must be that many times a rate."""
    operators: tuple[str, ...] = ()
    """The operators between the operands (`+`, `-`, `*`, `/`)."""


def written_arithmetic(fact: Fact, facts: list[Fact], text: str, start: int) -> WrittenArithmetic | None:
    """The expression a claim writes out for a number: before it with "=" ("A + B = C"), or in brackets right
    after it ("C（A × B）"): two operands or more, each gap one operator and at most a short label.

    Args:
        fact: A number of the claim.
        facts: Every fact of the claim.
        text: The claim's text.
        start: The claim's offset in the answer.

    Returns:
        The written arithmetic, or None when the claim writes none for this number.
    """
    if fact.kind != FactKind.NUMBER or not fact.value:
        return None
    before = text[: fact.start - start].rstrip()
    equals = before.endswith(_EQUALS)
    opened = None if equals else _OPENING.match(text, fact.end - start)
    if not equals and opened is None:
        return None  # neither "= C" nor "C (": no expression, the claim's numbers are not sorted
    numbers = sorted((f for f in facts if f.kind == FactKind.NUMBER and f.value), key=lambda f: f.start)
    at = next(i for i, f in enumerate(numbers) if f is fact)
    if equals:  # "A + B = C": the last operand stands right before "="
        operands, operators = _read(numbers[:at][::-1], text, start, len(before) - 1 + start, leftwards=True)
        operands, operators = operands[::-1], operators[::-1]
    else:
        assert opened is not None
        if _RANGE_END.search(before):
            return None  # "weeks 45–47 (38.5 + 42 + 40)": the bracket works out something else than a range's end
        operands, operators = _read(numbers[at + 1 :], text, start, opened.end() + start, leftwards=False)
        if operands and not _CLOSING.match(text, operands[-1].end - start):
            return None  # "$1,038.25 (the two taxis $68.40 + $71.10, the hotel …)": the bracket holds more
    if len(operands) < 2 or len(operators) > 1 and set(operators) == {"/"}:
        return None  # "4（101 / 102 / 104 / 106）": slashes between three numbers or more list them
    # the expression goes on past what was read ("€3.50 per person per night × 2 × 3 = €21.00"): it is not all here
    beyond = text[max(0, operands[0].start - start - _BEYOND) : operands[0].start - start] if equals \
        else text[operands[-1].end - start : operands[-1].end - start + _BEYOND].split(")")[0].split("）")[0]
    if _OPERATOR.search(beyond.split("\n")[-1] if equals else beyond.split("\n")[0]):
        return None
    # "4 of 6 × $12.50", "91/96 paid × €499": the first operand is a part's whole; "$189.00 + $14.50 fee each =",
    # "（每张 268 + 8）": each unit's amount, times a count the expression does not write
    lead = text[max(0, operands[0].start - start - _BEYOND) : operands[0].start - start]
    tail = before[operands[-1].end - start :] if opened is None else text[opened.end() : operands[0].start - start]
    if _PART_OF.search(lead) or "*" not in operators and _EACH.search(tail):
        return None
    money = _money_units(facts)
    if not _addable(operands, operators, money):
        return None  # "2 nights + $18.50 minibar", "gift card $501 + card ending 5345": no sum of one kind
    # "1 room × 5 nights = $845.00": the rate the product is of is not written
    rated = fact.unit in money and all(op == "*" for op in operators) and not any(f.unit in money for f in operands)
    value = _evaluate([operand_value(Decimal(f.value or "0"), f.unit) for f in operands], operators,
                      [f.unit == "%" for f in operands])
    if value is None:
        return None
    if fact.unit == "%" and not any(f.unit == "%" for f in operands):
        value *= 100  # "13.3%（1,167 / 8,752）": a ratio written as a percentage
    shown = " ".join(f"{Decimal(f.value or '0').normalize():f}" + (f" {_SHOWN[op]}" if op else "")
                     for f, op in zip(operands, [*operators, ""], strict=True))
    if rated:
        return WrittenArithmetic(fact, tuple(operands), value, f"{shown} = {value.normalize():f} units", True,
                                 tuple(operators))
    return WrittenArithmetic(fact, tuple(operands), value, f"{shown} = {value.normalize():f}",
                             operators=tuple(operators))


def _money_units(facts: list[Fact]) -> frozenset[str]:
    """The currencies the claim's amounts are in (an amount's unit is its currency code)."""
    return frozenset(f.unit for f in facts if f.unit and len(f.unit) == 3 and f.unit.isupper())


def _read(numbers: list[Fact], text: str, start: int, edge: int, leftwards: bool) -> tuple[list[Fact], list[str]]:
    """The operands and operators of an expression read away from `edge` along `numbers`, nearest first: the
    first gap holds only a label, each later one a single operator and labels."""
    operands: list[Fact] = []
    operators: list[str] = []
    for number in numbers:
        gap = text[number.end - start : edge - start] if leftwards else text[edge - start : number.start - start]
        ops = _OPERATOR.findall(gap)
        if len(ops) != (1 if operands else 0):
            break
        if not all(_LABEL.fullmatch(part) for part in _OPERATOR.split(gap)):
            break
        if ops:
            operators.append(_SIGNS[ops[0]])
        operands.append(number)
        edge = number.start if leftwards else number.end
    return operands, operators


def _addable(operands: list[Fact], operators: list[str], money: frozenset[str]) -> bool:
    """Whether the terms an expression adds or subtracts are of one kind: all amounts of money (a percentage
    beside them is a share of what comes before it), or all plain numbers."""
    if not any(op in "+-" for op in operators):
        return True
    terms = [[operands[0]]]  # the products added up ("3 × $120 + $30": 3 × $120 is an amount)
    for op, operand in zip(operators, operands[1:], strict=True):
        if op in "*/":
            terms[-1].append(operand)
        else:
            terms.append([operand])
    kinds = {any(f.unit in money for f in term) for term in terms if any(f.unit != "%" for f in term)}
    return len(kinds) <= 1


def _evaluate(values: list[Decimal], operators: list[str], shares: list[bool] | None = None) -> Decimal | None:
    """The expression's value, × and ÷ before + and −; None on a division by zero.

    A percentage added or subtracted (`shares`) is a share of the sum before it: "¥3,560 + 6% tax" is
    3,560 × 1.06, "$815.00 + 10% service" 815 × 1.1.
    """
    shares = shares or [False] * len(values)
    terms, signs, shared = [values[0]], [], [shares[0]]
    for op, value, share in zip(operators, values[1:], shares[1:], strict=True):
        if op in "*/":
            if op == "/" and value == 0:
                return None
            terms[-1] = terms[-1] * value if op == "*" else terms[-1] / value
            shared[-1] = shared[-1] and share
        else:
            terms.append(value)
            signs.append(op)
            shared.append(share)
    if shared[0]:
        return None  # a percentage first: a share of nothing written
    total = terms[0]
    for op, value, share in zip(signs, terms[1:], shared[1:], strict=True):
        value = total * value if share else value
        total = total + value if op == "+" else total - value
    return total


def another_reading(found: WrittenArithmetic) -> bool:
    """Whether another reading of the written expression comes to its result: its last product, which "=" closes
    ("压缩机 980 元 + 冷媒 3 斤 × 60 元 = 180 元": 3 × 60), its first, a chain's first step ("8 × ¥498 + 4 × ¥598 =
    ¥3,984 + ¥2,392": 8 × 498), or its sum with each count's amount read as the line's ("¥268 + 2 × Mouse Pad $50.00":
    the two pads' $50). Such working is read more than one way; it is not contradicted. A sum with a part left out
    is no other reading."""
    values = [operand_value(Decimal(f.value or "0"), f.unit) for f in found.operands]
    ops = list(found.operators)
    if len(ops) != len(values) - 1:
        return False
    claimed, exponent = Decimal(found.result.value or "0"), -(found.result.precision or 0)
    # the expression's terms: runs of operands joined by × or ÷
    cuts = [0, *(k + 1 for k, o in enumerate(ops) if o in "+-"), len(values)]
    terms = [(a, b) for a, b in zip(cuts, cuts[1:], strict=False)]
    readings = [_evaluate(values[a:b], ops[a : b - 1]) for a, b in (terms[0], terms[-1]) if b - a > 1]
    lines = [v for k, v in enumerate(values) if not (k + 1 < len(values) and ops[k] == "*")]
    kept = [o for o in ops if o != "*"]
    if len(lines) < len(values) and len(kept) == len(lines) - 1:
        readings.append(_evaluate(lines, kept))
    return any(r is not None and equal_at(r, claimed, exponent) for r in readings)


def operand_of_working(fact: Fact, text: str, start: int) -> bool:
    """Whether a number stands as an operand of working the claim writes out: an operator right before it or right
    after it ("¥48 × 28 = ¥1,344", "tuition $6,840.00 + fee $415.00 = …"), markdown bold aside; the result after "="
    is none."""
    before = _BOLD.sub("", text[max(0, fact.start - start - _NEAR) : fact.start - start])
    after = _BOLD.sub("", text[fact.end - start : fact.end - start + _NEAR])
    return bool(_OPERATOR_BEFORE.search(before) or _OPERATOR_AFTER.match(after))


_NEAR = 8
"""How far before or after a number its operator is looked for."""
_BOLD = re.compile(r"\*\*")
"""Markdown's bold marks: no multiplication."""
_OPERATOR_BEFORE = re.compile(r"(?:[×*+÷−]|(?<=[\d\s])[xX](?=\s))\s*[$¥€£]?\s*$")
"""An operator right before a number (not "=": what follows it is the working's result)."""
_OPERATOR_AFTER = re.compile(r"\s*(?:元|美元|/\S+)?\s*(?:[×*+÷=−]|(?<=\s)[xX](?=[\s\d]))")
"""An operator, "=" too, right after a number (and its unit)."""


def adds_up(found: WrittenArithmetic) -> bool:
    """Whether the written result is what the expression comes to, at the precision it is written."""
    return equal_at(found.value, Decimal(found.result.value or "0"), -(found.result.precision or 0))


def left_over(fact: Fact, facts: list[Fact], text: str, start: int, lex: Lexicon) -> str | None:
    """How an amount said as what is left or the whole ("还剩 6.5 天", "6 days left", 合计 30 GB) comes to the sum or
    the difference of two amounts of the same unit the claim gives before it ("全年 10 天，已休 3.5 天"), written
    without operators.

    Args:
        fact: A number no tool gives as said.
        facts: Every fact of the claim.
        text: The claim's text.
        start: The claim's offset in the answer.
        lex: The lexicon (`working_cues`: left, 还剩, 合计).

    Returns:
        The working ("10 − 3.5 = 6.5"), or None when no cue stands beside it or no two amounts come to it.
    """
    if fact.kind != FactKind.NUMBER or not fact.value:
        return None
    at, end = fact.start - start, fact.end - start
    before = text[max(0, at - _CUE_REACH) : at]
    after = text[end : end + _CUE_REACH + len(fact.unit or "")]
    if not lex.working_cues.finditer(before) and not lex.working_cues.finditer(after.lower()):
        return None
    earlier = [Decimal(f.value) for f in facts if f is not fact and f.kind == FactKind.NUMBER and f.value
               and f.end <= fact.start and f.unit == fact.unit]
    return pair_working(Decimal(fact.value), -(fact.precision or 0), earlier)


def pair_working(claimed: Decimal, exponent: int, values: list[Decimal]) -> str | None:
    """How two of `values`, added or one taken from the other, come to `claimed` at its last written digit.

    Args:
        claimed: The amount said.
        exponent: The power of ten of its last written digit.
        values: The amounts it may be worked out from, in the answer's order.

    Returns:
        The working ("10 − 3.5 = 6.5"), or None.
    """
    for i, x in enumerate(values):
        for y in values[i + 1 :]:
            for value, shown in ((x - y, f"{x:f} − {y:f}"), (x + y, f"{x:f} + {y:f}"), (y - x, f"{y:f} − {x:f}")):
                if value > 0 and equal_at(value, claimed, exponent):
                    return f"{shown} = {value:f}"
    return None


_SPENT = re.compile(r"(?:已经?|(?i:\b(?:used|paid|spent|taken|consumed|completed)\b))[^\d，,。；;:：]{0,4}$")
"""Right before the part: a word that it was used, paid or taken (已用, 已还, 已上, "used", "paid")."""
_WHOLE = re.compile(r"(?:共|总|合计|每月|每期|额度|全年|(?i:\b(?:total|of|out of|allowance|entitlement|quota|plan)\b))"
                    r"[^\d，,。；;:：]{0,6}$")
"""Right before the whole: a word of a whole or an allowance (共, 总价, 每月, 全年, "a total of", "of your")."""
_WHOLE_AFTER = re.compile(r"\s*[^\d\s，,。；;]{0,3}中")
"""Right after the whole: 中 ("36 期中已还 14 期")."""
_UNREAD_NUMBER = re.compile(r"[\d一二两三四五六七八九十半]")
"""A number's character between the part used and what is left."""
_LEFT = "balance"
"""The lexicon's field of what is left (剩余, "remaining")."""
_LEFT_BEFORE = re.compile(r"(?:剩余|还剩|剩下|(?i:\b(?:remaining|left)\b))[^\d，,。；;]{0,3}$")
"""Right before a number of another concept (days: "剩余 7 天"): a word that it is what is left."""
_LEFT_AFTER = re.compile(r"[^\d，,。；;.]{0,8}?\b(?:remaining|left)\b", re.IGNORECASE)
"""Right after it, its unit between ("7 days remaining", "6 days left")."""


def left_after_used(claims: list[Claim]) -> None:
    """Contradict what a claim says is left ("共 30GB，已用 24.6GB，剩余 6.4GB"; "36 期中已还 14 期，剩余 24 期";
    "全年 10 天，已休 3 天，剩余 0.5 天") when the claim gives the whole and the part used, both backed, just before
    it in the same unit, and the whole less the part is another number: the answer's own working, one step, shown in
    the reason (`left_over` backs one that such a working reaches).

    Args:
        claims: The answer's claims, grounded.
    """
    for claim in claims:
        numbers = [f for f in claim.facts if f.kind == FactKind.NUMBER and f.value]
        for i, left in enumerate(numbers):
            if i < 2 or left.verdict == Verdict.SUPPORTED and left.code == "match" or left.concept != _LEFT \
                    and not _LEFT_BEFORE.search(claim.text[: left.start - claim.start]) \
                    and not _LEFT_AFTER.match(claim.text[left.end - claim.start :]):
                continue
            whole, used = numbers[i - 2], numbers[i - 1]
            gap = claim.text[whole.end - claim.start : used.start - claim.start]
            said = claim.text[: whole.start - claim.start]
            if not _SPENT.search(gap) or whole.concept not in (None, "total", left.concept) \
                    or not (_WHOLE.search(said[-12:]) or _WHOLE_AFTER.match(gap)) \
                    or any(f.verdict != Verdict.SUPPORTED for f in (whole, used)) \
                    or len({f.unit or "" for f in (whole, used, left)}) > 1 \
                    or _UNREAD_NUMBER.search(claim.text[used.end - claim.start : left.start - claim.start]):
                continue  # "已休六天半，另有一天还在审批中，…还剩七天半": a third part the facts do not hold
            try:
                a, b, c = Decimal(whole.value or ""), Decimal(used.value or ""), Decimal(left.value or "")
            except InvalidOperation:
                continue
            if a <= b or a - b == c:
                continue
            set_verdict(left, Verdict.CONTRADICTED, "recomputed",
                        f"{whole.text} less {used.text} leaves {a - b}, not {left.text}", [])
