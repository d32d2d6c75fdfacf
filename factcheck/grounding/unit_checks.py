"""Currency and unit checks: an amount or measure a tool gives in another currency or unit, units of a rate."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import cached_property

from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.evidence import Located
from factcheck.grounding.number_backings import NumberBackings
from factcheck.grounding.verdicts import Backing, evidence_of, set_verdict
from factcheck.grounding.working import WrittenArithmetic
from factcheck.report import Fact, FactKind, Verdict

_DIGITS_AND_SPACE = re.compile(r"[\d.,\s]+")
_RATE = re.compile(
    r"(?<![\d.,])[$€£¥]?\s*1(?:\.0+)?\s*[^\W\d_]{0,8}\s*[=＝≈]\s*[^\W\d_$€£¥]{0,4}\s*[$€£¥]?\s*[\d.,]*\d\s*[^\W\d_]{0,5}"
)
"""A rate between two units written as one of the first unit ("1 EUR = 0.8350 GBP", "1 美元 = 7.1850 元")."""
_NEXT_PART = re.compile(r"\s*[^\W\d_]*[\s,]*(?:and\s+)?\d+(?:\.\d+)?\s*([^\W\d_]+)")
"""The number and unit word after a measure's own unit: "3 hours 50 minutes", "3 小时 43 分"."""


class UnitChecks(NumberBackings):
    """Contradict amounts a tool gives in another currency and measures it gives in another unit."""

    def _explained(self, fact: Fact) -> Backing | None:
        """Arithmetic over the run's numbers that gives a measure a tool states only in another unit (已休 4 天 of
        10 − 6, where a comp-leave record holds 4 hours): that equal number is then one reading of it, and no evidence
        against it. Not asked of amounts of money: an amount in another currency is specific, arithmetic reaches it by
        chance (¥4,200.00 of a payment of 4200 USD)."""
        return self._derived(Decimal(fact.value), -(fact.precision or 0)) if fact.value else None

    def _in_a_rate(self, fact: Fact) -> bool:
        """Whether an amount is a side of an exchange rate the claim writes ("1 EUR = 0.8350 GBP"): a tool's rate
        field gives the number with no one currency of its own."""
        start = self._records.start
        return any(m.start() <= fact.start - start and fact.end - start <= m.end()
                   for m in _RATE.finditer(self._claim_text))

    def _part_of_a_measure(self, fact: Fact, dimension: str, size: Decimal) -> bool:
        """Whether a measure is the first part of one written in two units ("3 hours 50 minutes", "25 小时 25 分钟"):
        its number alone is no measure a tool could give."""
        after = _NEXT_PART.match(self._claim_text, max(0, fact.end - self._records.start))
        if after is None:
            return False
        word = after.group(1).lower()
        smaller = self.index.lex.unit_scales.get(word)
        return smaller is not None and smaller[0] == dimension and smaller[1] < size \
            or word in self.index.lex.duration_compound_units

    def _wrong_currency(self, fact: Fact, matches: list[Located]) -> bool:
        """Contradict an amount whose every match the tool gives in another currency (¥45 vs 45 USD).

        A symbol stands for each currency it may mean (`¥`: CNY or JPY). Returns whether
        the fact was contradicted.
        """
        lex = self.index.lex
        if fact.unit not in lex.currency_codes or not Decimal(fact.value or "0"):
            return False  # nothing is nothing in any currency ("0.00 港元 → ¥0.00")
        meant = {fact.unit}
        for symbol, codes in lex.map("currency_symbols").items():
            if symbol in fact.text:
                meant.update(codes)
        given = []
        for loc in matches:
            currency = self.index.currency_of(loc)
            if currency is None or currency[0] in meant or self._generic_currency(loc, meant):
                return False
            given.append((loc, *currency))
        if self._in_a_rate(fact):
            return False  # a side of an exchange rate has two currencies (read last: most amounts never get here)
        loc, currency, where = given[0]
        evidence = [evidence_of(where, self.index)]  # where the currency is given, then the amount
        if where is not loc.leaf:
            evidence.append(evidence_of(loc.leaf, self.index))
        set_verdict(fact, Verdict.CONTRADICTED, "other_unit",
                    f"tool gives {loc.mention.value} {currency} ({loc.leaf.path or 'text'}), not {fact.text}", evidence)
        return True

    def _wrong_unit(self, fact: Fact, matches: list[Located]) -> bool:
        """Contradict a measure whose every match the tool gives in another unit of the same dimension
        (2448.5 miles vs `{"distance": 2448.5, "units": "km"}`), unless arithmetic gives it (`_explained`, then
        backed by it). Returns whether the fact was given a verdict."""
        scales = self.index.lex.unit_scales
        unit = (fact.unit or "").lower()
        if unit not in scales:
            return False
        dimension, size = scales[unit]
        if self._part_of_a_measure(fact, dimension, size):
            return False
        given = []
        for loc in matches:
            found = self.index.unit_of(loc)
            if found is None or scales[found[0]][0] != dimension or scales[found[0]][1] == size:
                return False
            given.append((loc, *found))
        if not given:
            return False
        # read after the matches (the context's numbers are read only for a measure every match gives otherwise)
        if any(ctx.mention.unit and ctx.mention.unit.lower() == unit and ctx.mention.value == fact.value
               for ctx in self._context_numbers):
            return False  # "最近7天" the user asked about: the user's own measure, whatever a tool's 7 minutes are
        if (backing := self._explained(fact)) is not None:
            set_verdict(fact, Verdict.SUPPORTED, *backing)
            return True
        loc, other, where = given[0]
        evidence = [evidence_of(where, self.index)]
        if where is not loc.leaf:
            evidence.append(evidence_of(loc.leaf, self.index))
        set_verdict(fact, Verdict.CONTRADICTED, "other_unit",
                    f"tool gives {loc.mention.value} {other} ({loc.leaf.path or 'text'}), not {fact.text} {fact.unit}",
                    evidence)
        return True

    def _generic_currency(self, loc: Located, meant: set[str]) -> bool:
        """Whether a tool's amount carries only a generic currency word (`1073.64元`) while the user's
        messages give amounts in the claimed currency (a loan of 200,000美元): it is that currency's unit."""
        words = self.index.lex.generic_currency_words
        if not words or loc.leaf.source != "tool":
            return False
        written = _DIGITS_AND_SPACE.sub("", loc.leaf.text[loc.mention.start : loc.mention.end])
        if written not in words:
            return False
        return any(ctx.mention.unit in meant for ctx in self._context_numbers)

    @cached_property
    def _context_numbers(self) -> list[Located]:
        return [loc for loc in self.index.context_mentions if loc.mention.kind == FactKind.NUMBER]

    def _units_of_a_rate(self, fact: Fact, found: WrittenArithmetic) -> None:
        """Back an amount written as units of a rate it does not write ("1 room × 5 nights = $845.00") when a tool
        gives the rate it takes (169); contradict it when none does and no tool gives the amount itself."""
        if not found.value or not fact.value:
            return
        claimed, exponent = Decimal(fact.value), -(fact.precision or 0)
        rate = (claimed / found.value).quantize(Decimal("0.01"))
        places = [loc for loc in self.index.equal_numbers([(rate, -2)])
                  if equal_at(Decimal(loc.mention.value) * found.value, claimed, exponent)]
        if places:
            how = f"{places[0].mention.value} × {found.how.rsplit(' = ', 1)[0]}"
            if fact.verdict.flagged or fact.code != "match":
                set_verdict(fact, Verdict.SUPPORTED, "derived", f"number equals {how} (the answer's working)",
                            [evidence_of(places[0].leaf, self.index)])
        elif not (fact.verdict == Verdict.SUPPORTED and fact.code == "match"):
            units = found.how.rsplit(" = ", 1)[0]
            set_verdict(fact, Verdict.CONTRADICTED, "recomputed",
                        f"the answer's own working ({units}) takes a rate of {rate.normalize():f}, which no tool "
                        f"gives, not {fact.text}", fact.evidence[:1])
