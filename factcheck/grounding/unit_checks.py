"""Currency and unit checks: an amount or measure a tool gives in another currency or unit, units of a rate."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import cached_property

from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.claim_state import ClaimState
from factcheck.grounding.evidence import Located
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.grounding.working import WrittenArithmetic
from factcheck.report import Fact, FactKind, Verdict

_DIGITS_AND_SPACE = re.compile(r"[\d.,\s]+")


class UnitChecks(ClaimState):
    """Contradict amounts a tool gives in another currency and measures it gives in another unit."""

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
        loc, currency, where = given[0]
        evidence = [evidence_of(where, self.index)]  # where the currency is given, then the amount
        if where is not loc.leaf:
            evidence.append(evidence_of(loc.leaf, self.index))
        set_verdict(fact, Verdict.CONTRADICTED, "other_unit",
                    f"tool gives {loc.mention.value} {currency} ({loc.leaf.path or 'text'}), not {fact.text}", evidence)
        return True

    def _wrong_unit(self, fact: Fact, matches: list[Located]) -> bool:
        """Contradict a measure whose every match the tool gives in another unit of the same dimension
        (2448.5 miles vs `{"distance": 2448.5, "units": "km"}`). Returns whether the fact was contradicted."""
        scales = self.index.lex.unit_scales
        unit = (fact.unit or "").lower()
        if unit not in scales:
            return False
        dimension, size = scales[unit]
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
