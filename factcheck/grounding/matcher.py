"""Give each fact a verdict by comparing it with the evidence index."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import cached_property

from factcheck.grounding.availability import said_unavailable
from factcheck.grounding.coverage import incomplete_coverage
from factcheck.grounding.date_moves import same_date, trip_day
from factcheck.grounding.date_roles import role_date_disagrees
from factcheck.grounding.direction import wrong_direction
from factcheck.grounding.earliest import earliest_pick
from factcheck.grounding.evidence import Leaf
from factcheck.grounding.key_names import KeyNames, key_beside_other_name, key_names
from factcheck.grounding.moments import (
    approximate_time,
    date_near,
    epoch_date,
    in_other_zone,
    other_half_of_day,
    shifted,
    time_said_after,
    weekday,
    zoned,
)
from factcheck.grounding.number_checks import NumberChecks
from factcheck.grounding.picks import named_pick
from factcheck.grounding.roles import ClaimText
from factcheck.grounding.stay_nights import nights_between
from factcheck.grounding.tokens import ground_name, ground_token
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.grounding.windows import passed_deadline, time_window
from factcheck.grounding.working import left_over
from factcheck.report import Fact, FactKind, Verdict

_NAMING = (FactKind.IDENTIFIER, FactKind.NAME)
_TABLE_RULE = re.compile(r"\|?\s*:?-{3,}")
"""A markdown table's rule under its header row (|---|---|): the row before it is the header."""
_DIRECTION_BEFORE, _DIRECTION_AFTER = 24, 16
"""How far before and after an amount its direction words are read ("a charge of $30.78", "$30.78 refunded")."""
_WHEN = (FactKind.DATE, FactKind.TIME)
_STILL_IN = re.compile(r"(?i)\b(?:you(?:'re|\s+are)\s+still|still)\s+(?:within|inside|in)\b|\bago\b|仍在|仍然在|还在"
                       r"|距今|距(?:离)?现在|距离?[^，。,；;]{0,8}?(?:已经?|超过|不到|不足|未满)")
"""Words that measure the time since this record's moment ("you're still within the 14-day window", "more than 30
days ago", 仍在…期内, 距今, 距离寄出已超过): only such a window measures an earlier claim's moment."""
_ORIGINAL = "original"
"""The payment-method category of "the original payment method" (原路)."""
_FRACTION = re.compile(r"(\d{1,3})\s*/\s*(\d{1,3})")
"""A count of a total written like a date without a year (12/12)."""


class Matcher(NumberChecks):
    """Ground facts: exact facts exactly, statuses by concept and polarity."""

    def ground_claim(self, facts: list[Fact], text: str = "", start: int = 0, gap: str = "",
                     asserts: bool = True) -> None:
        """Ground the facts of one claim.

        Identifiers and names go first: they name the records the claim's numbers must
        come from. Dates and times next: a duration may be the days between two of them.
        The rest follow in order: later numbers may use earlier backed ones, and a number
        found nowhere is tried once more with the numbers backed after it.

        Args:
            facts: The claim's facts.
            text: The claim's text.
            start: Where the claim's text starts in the answer (the facts' offsets are the answer's).
            gap: The answer's text between the previous claim and this one (a blank line ends a block).
            asserts: Whether the claim asserts (an offer or a question says nothing of every order or of a window).
        """
        self._claim_facts, self._claim_text = facts, text
        previous, header = self._lines
        row = text.lstrip()
        header = previous if _TABLE_RULE.match(row) else header if row.startswith("|") and gap.count("\n") < 2 else ""
        self._lines = (text, header)
        self._said = ClaimText(text, start, facts, header)
        self._records.reset(facts, text, start)
        if not facts:  # nothing to ground: only coverage may add a fact, and the gap may end the record in view
            if asserts:
                incomplete_coverage(facts, text, start, self.index)
            self._states.next_claim(facts, text, start, gap)
            return
        ordered = sorted(facts, key=_grounding_order)
        for i, fact in enumerate(ordered):
            self.ground(fact)
            if fact.kind in _NAMING and (i + 1 == len(ordered) or ordered[i + 1].kind not in _NAMING):
                naming = ordered[: i + 1]  # they sort first
                self._foreign_names(naming)
                self._keys_of_two_records(naming)
                self._foreign_calls(naming)
                key_beside_other_name(naming, text, start, self.index, lambda: self._key_names)
        if self.derive:
            # a total said before its parts ("$185.76 in total: 3 days at $54 ($162.00) plus $23.76")
            for fact in ordered:
                if fact.kind == FactKind.NUMBER and fact.code in ("not_found", "value_mismatch") \
                        and len(self.verified) > 1:
                    self._number(fact)  # "$38 per day — $190 for the 5 days": 5 is backed after $190
                if fact.kind == FactKind.NUMBER and fact.code in ("not_found", "value_mismatch"):
                    self._sum_of_parts(fact)  # "合计 ¥132.90（¥42.50、¥88.90、¥1.50）"
                if fact.kind == FactKind.NUMBER and fact.code in ("not_found", "value_mismatch") \
                        and (how := left_over(fact, self._claim_facts, text, start, self.index.lex)):
                    # "全年 10 天，已休 3.5 天，还剩 6.5 天": the claim's own two amounts come to it
                    set_verdict(fact, Verdict.SUPPORTED, "derived", f"number equals {how} (the answer's amounts)", [])
            for fact in ordered:  # "$3,049.26, which is $300.00 less than the $3,212.44": recomputed from the two
                if fact.kind == FactKind.NUMBER:
                    self._stated_difference(fact)
                    self._written_arithmetic(fact)
            # a date or time a backed duration away from a backed one ("30-day window: through June 1")
            derived = False
            for fact in ordered:
                if fact.kind in _WHEN and fact.code == "not_found":
                    shifted(fact, self._claim_facts, self.moments, self.index)
                    if fact.code == "not_found":  # "2:41 AM Eastern (6:41 UTC)": the claim's time in another zone
                        in_other_zone(fact, text, start, self._claim_facts, self.index.lex)
                    derived = derived or fact.verdict == Verdict.SUPPORTED
            # a duration from a date derived just now ("runs until November 1 — 12 days from today")
            for fact in ordered if derived else ():
                if fact.kind == FactKind.NUMBER and fact.code == "not_found":
                    self._number(fact)
        nights_between(facts, text, start, self.index)  # "10月12日入住、10月15日退房，共 2 晚": 3 nights
        money = self.index.lex.currency_codes  # only amounts of money have a direction (`wrong_direction`)
        for fact in ordered:  # "a charge of $30.78" where the records give 30.78 as a refund
            if fact.kind == FactKind.NUMBER and fact.verdict == Verdict.SUPPORTED and fact.unit in money:
                begin, end = self._records.clause(fact)
                begin = max(begin, start + _reach(text, fact.start - start, -_DIRECTION_BEFORE))
                end = min(end, start + _reach(text, fact.end - start, _DIRECTION_AFTER))
                wrong_direction(fact, text[begin - start : end - start], self.index, fact.start - begin)
        said_unavailable(facts, text, start, self.index)  # "item 8277474082 … unavailable" when it is available
        picked = named_pick(self._said, self.index)
        if picked is not None:  # "Of these, Backpack is the cheapest": the named record is not
            fact, found = picked
            set_verdict(fact, Verdict.CONTRADICTED, *self._recomputed(fact, found, f"the records give {found.how}"))
        earliest = earliest_pick(self._said, self.index) if asserts else None
        if earliest is not None:  # "The earliest opening is March 12" where an open slot on March 11 comes first
            fact, how, evidence = earliest
            set_verdict(fact, Verdict.CONTRADICTED, "recomputed", f"not the earliest: {how}", [evidence])
        if asserts:
            incomplete_coverage(facts, text, start, self.index)  # "none of your orders" with two of five read
        # "within 24 hours", 25.8 hours on; with moments of its own ("创建于 12月1日 08:10，距现在不到24小时"), or
        # the record in view's when the claim measures the time since it ("you're still within the 14-day window",
        # "more than 30 days ago"); never a moment of other records ("#W66 已超过 30 天" after other orders' dates)
        still = _STILL_IN.search(text) is not None
        time_window(facts, text, start, self.index, self.moments if still else [], in_view=still)
        if asserts:
            passed_deadline(facts, text, self.index)  # "still cancel free of charge until 11:32", at 16:32
        self._states.next_claim(facts, text, start, gap)  # "#W1 … Status: Pending": the state of the record in view
        self.moments += [f for f in facts if f.kind in _WHEN and f.verdict == Verdict.SUPPORTED]
        zones = any(f.kind in _WHEN for f in facts) and self.index.lex.time_zone_words.finditer(text)
        if zones:
            self.zone = text[zones[-1].start : zones[-1].end]

    def ground(self, fact: Fact) -> None:
        """Set the fact's verdict, code, reason and evidence."""
        if fact.kind in (FactKind.URL, FactKind.EMAIL, FactKind.IDENTIFIER):
            ground_token(fact, self.index)
        elif fact.kind == FactKind.NUMBER:
            self._number(fact)
        elif fact.kind in (FactKind.DATE, FactKind.TIME):
            self._date_time(fact)
        elif fact.kind == FactKind.NAME:
            ground_name(fact, self.index, self.name_cutoff)
        elif fact.kind == FactKind.METHOD:
            self._method(fact)
        elif fact.kind == FactKind.WEEKDAY:
            weekday(fact, self._claim_facts)
        elif fact.kind == FactKind.CATEGORY:
            self._category(fact)
        else:
            self._statuses.ground(fact, self._claim_facts, self._claim_text, max(0, fact.start - self._records.start))

    # ---------- payment methods ----------
    def _method(self, fact: Fact) -> None:
        """A payment method must be one a tool gives; "the original payment method" never contradicts a specific one."""
        self._named_value(fact, fact.value or "", self.index.payment_methods, "payment method", _ORIGINAL)

    def _category(self, fact: Fact) -> None:
        """A category value (a tier, a plan) must be the one a tool gives for that category."""
        category, _, value = (fact.value or "").partition(":")
        self._named_value(fact, value, self.index.category_values(category), category)

    def _named_value(
        self, fact: Fact, value: str, given: list[tuple[str, Leaf]], what: str, vague: str | None = None
    ) -> None:
        """Compare a named value (a payment method, a tier) with those the tools give for it.

        Args:
            fact: The fact.
            value: Its value key (`card`, `gold`).
            given: (value key, leaf) of each value the tools give, in call order.
            what: What the value is, for reasons ("payment method", "tier").
            vague: A value key that never contradicts another, on either side (`original`).
        """
        same = [leaf for v, leaf in given if v == value]
        if same:
            set_verdict(fact, Verdict.SUPPORTED, "match", f"tool gives the {what} {same[0].text!r}",
                        [evidence_of(same[0], self.index)])
        elif not given:
            fact.reason = f"no tool output gives a {what}"
        elif vague is not None and (value == vague or any(v == vague for v, _ in given)):
            fact.reason = f"the {what} {vague!r} is not compared with a specific one"
        else:
            leaf = given[-1][1]
            set_verdict(fact, Verdict.CONTRADICTED, "value_mismatch",
                        f"tool gives the {what} {leaf.text!r} ({leaf.path}), not {fact.text!r}",
                        [evidence_of(leaf, self.index) for _, leaf in given[-2:]])

    # ---------- dates and times ----------
    def _fraction(self, fact: Fact) -> bool:
        """Back a "date" like 12/12 that no tool gives as a count of a total ("12/12 health checks passed").

        Both numbers must be a tool's (the same number once is enough when they are equal).
        """
        parts = _FRACTION.fullmatch(fact.text.strip())
        if parts is None:
            return False
        found = [self.index.equal_numbers([(Decimal(n), 0)]) for n in parts.groups()]
        if not all(found):
            return False
        how = f"{parts[1]} of {parts[2]}, not a date"
        set_verdict(fact, Verdict.SUPPORTED, "derived", f"number equals {how}",
                    [evidence_of(locs[0].leaf, self.index, how) for locs in found])
        return True

    def _date_time(self, fact: Fact) -> None:
        value = fact.value or ""
        for code, where in (("match", "a tool output"), ("context", "the context, not a tool")):
            # the context is read only when no tool output gives the date
            pool = self.index.dates_times(fact.kind, value) if code == "match" else self.index.context_mentions
            matches = [loc for loc in pool if loc.mention.kind == fact.kind and same_date(value, loc.mention.value)]
            if matches:
                if not self._wrong_record(fact, matches):
                    set_verdict(fact, Verdict.SUPPORTED, code, f"{fact.kind.value} found in {where}",
                                [evidence_of(matches[0].leaf, self.index)])
                return
        before = self._claim_text[: max(0, fact.start - self._records.start)]
        if (
            zoned(fact, self._claim_text, self._claim_facts, self.index, self.zone)
            or fact.kind == FactKind.DATE and epoch_date(fact, self.index)
            or fact.kind == FactKind.TIME and approximate_time(fact, before, self.index)
            or fact.kind == FactKind.TIME and time_said_after(fact, self._claim_text[fact.end - self._records.start :],
                                                              self.index)
            or fact.kind == FactKind.TIME and other_half_of_day(fact, self.index)
            or fact.kind == FactKind.DATE and self._fraction(fact)
        ):
            return
        if fact.kind == FactKind.DATE and (first := trip_day(fact, self._claim_text, self._records.start,
                                                               self.index)) is not None:
            set_verdict(fact, Verdict.SUPPORTED, "derived", f"the date of that day, counted from {first.leaf.text}",
                        [evidence_of(first.leaf, self.index)])
            return
        reason = f"no tool output gives the {fact.kind.value} {fact.text}"
        near = date_near(fact, self.index, self._claim_facts, self._claim_text, self._records.start)
        if near is not None:  # "6 月 12 日" where the shipment's estimated delivery is 2024-06-14: misread
            set_verdict(fact, Verdict.UNSUPPORTED, "not_found", f"{reason}; the tool gives {near.leaf.text} "
                        f"({near.leaf.path or 'text'}), one digit apart", [evidence_of(near.leaf, self.index)])
            return
        role = role_date_disagrees(fact, self._claim_facts, self._claim_text, self._records.start, self.index)
        if role is not None:  # "expected to arrive Friday, March 14" where `estimated_delivery` is 2025-03-13
            set_verdict(fact, Verdict.CONTRADICTED, *role)
            return
        set_verdict(fact, Verdict.UNSUPPORTED, "not_found", reason, [])

    @cached_property
    def _key_names(self) -> KeyNames:
        """The run's named records and their keys (read once per answer, at the first claim that names one)."""
        return key_names(self.index)


def _reach(text: str, at: int, chars: int) -> int:
    """Where `chars` characters after `at` (before it, when negative) end in `text`, a run of spaces counted as one:
    the bold of "**$86** has been charged", read as spaces, takes nothing from the reach of its direction words."""
    i, left = at, abs(chars)
    if chars >= 0:
        while left and i < len(text):
            left -= not (text[i] == " " and i and text[i - 1] == " ")
            i += 1
        return i
    while left and i > 0:
        i -= 1
        left -= not (text[i] == " " and i + 1 < len(text) and text[i + 1] == " ")
    return i


def _grounding_order(fact: Fact) -> int:
    """Identifiers and names first, then dates and times, then the rest, weekdays among them (see `ground_claim`)."""
    return 0 if fact.kind in _NAMING else 1 if fact.kind in (FactKind.DATE, FactKind.TIME) else 2
