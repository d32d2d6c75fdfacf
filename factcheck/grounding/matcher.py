"""Give each fact a verdict by comparing it with the evidence index."""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal
from functools import cached_property
from itertools import chain, combinations, product

from factcheck.grounding.arithmetic import (
    claim_targets,
    days_between,
    equal_at,
    find_operation,
    line_item_total,
    operand_value,
    sum_text,
)
from factcheck.grounding.calls import token_of_another_call, value_of_another_call
from factcheck.grounding.counting import available_count, filtered_count, threshold_count
from factcheck.grounding.coverage import incomplete_coverage
from factcheck.grounding.direction import wrong_direction
from factcheck.grounding.evidence import EvidenceIndex, Leaf, Located
from factcheck.grounding.flat import shape_of
from factcheck.grounding.moments import (
    approximate_time,
    day_of_month,
    duration_seconds,
    epoch_date,
    in_other_zone,
    other_half_of_day,
    record_duration,
    same_date,
    seconds_between,
    shifted,
    time_said_after,
    weekday,
    zoned,
)
from factcheck.grounding.naming import LIST_ITEM, ClaimRecords, names_record, other_item
from factcheck.grounding.roles import (
    ClaimText,
    Recomputed,
    fits_role,
    name_selection,
    named_items_total,
    per_unit_as_total,
    per_unit_sum_as_total,
    selection,
)
from factcheck.grounding.states import RecordStates
from factcheck.grounding.statuses import StatusMatcher
from factcheck.grounding.tokens import ground_name, ground_token
from factcheck.grounding.totals import column_total, field_total
from factcheck.grounding.units import glued, in_minor_units, in_other_unit, priced_in_minor_units, year_of_a_date
from factcheck.grounding.verdicts import Backing, evidence_of, set_verdict
from factcheck.grounding.windows import time_window
from factcheck.grounding.working import adds_up, agrees, stated_difference, written_arithmetic
from factcheck.report import Fact, FactKind, Verdict

_NAMING = (FactKind.IDENTIFIER, FactKind.NAME)
_DIRECTION_BEFORE, _DIRECTION_AFTER = 24, 16
"""How far before and after an amount its direction words are read ("a charge of $30.78", "$30.78 refunded")."""
_ARROWS = ("→", "->", "⇒", "=>")
"""Marks of a change: "old → new"."""
_BARE_NUMBER = re.compile(r"-?[\d,]*\.?\d+")
"""An output that is one number and nothing else (a calculator's "1126.04")."""
_WHEN = (FactKind.DATE, FactKind.TIME)
_LISTED = (FactKind.DATE, FactKind.TIME, FactKind.IDENTIFIER, FactKind.URL, FactKind.EMAIL)
"""Kinds of fact a claim may list and count ("14:00 和 15:30 两个时段")."""
_OF_MANY = re.compile(r"\s+(?:of|out of)\s+(?:the\s+|your\s+)?\d", re.IGNORECASE)
"""What follows a count of some of a list's items: "2 of the 3 payouts"."""
_ORIGINAL = "original"
"""The payment-method category of "the original payment method" (原路)."""
_DIGITS_AND_SPACE = re.compile(r"[\d.,\s]+")
_FRACTION = re.compile(r"(\d{1,3})\s*/\s*(\d{1,3})")
"""A count of a total written like a date without a year (12/12)."""


_BREAKDOWN = re.compile(r"\s*[—–:：(（-]")
"""What opens a total's breakdown right after it: a dash, a colon or a bracket ("Total paid: $1,296.00 — $234.00 …")."""

class Matcher:
    """Ground facts: exact facts exactly, statuses by concept and polarity."""

    def __init__(
        self, index: EvidenceIndex, action_tools: dict[str, tuple[str, ...]], derive: bool, name_cutoff: float = 90.0
    ) -> None:
        self.index = index
        self.name_cutoff = name_cutoff
        self._claim_facts: list[Fact] = []
        self._claim_text = ""
        self._said = ClaimText("", 0, [])
        self._rated = False
        """Whether the claim in hand speaks of a rate (lexicon `rate_cues`): any product or quotient may back it."""
        self._records = ClaimRecords(index, {})
        self._states = RecordStates(index, self._records)
        """The list items the claim in hand names."""
        self._statuses = StatusMatcher(index, action_tools, self._records)
        self.derive = derive
        self.duration_days = index.lex.duration_days
        self.counts: set[tuple[Decimal, str | None]] = set()
        """Counts (value, unit) this answer stated and a list backed: a later claim may repeat them ("两笔合计")."""
        self.moments: list[Fact] = []
        """Dates and times of this answer's earlier claims already backed: a later one may be a duration away."""
        self.zone = ""
        """The time zone an earlier claim of this answer named: a later time without one is read in it."""
        self.verified: list[Decimal] = []
        """Numbers of this answer already backed, usable as operands ("3 晚共 4,740 元")."""
        self.amounts: list[Decimal] = []
        """Amounts of money of this answer already backed, in order: a total after a list of them adds them up."""

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
        self._said = ClaimText(text, start, facts)
        self._rated = self.index.lex.rate_cues.search(text)
        self._records.reset(facts, text, start)
        ordered = sorted(facts, key=_grounding_order)
        for i, fact in enumerate(ordered):
            self.ground(fact)
            if fact.kind in _NAMING and (i + 1 == len(ordered) or ordered[i + 1].kind not in _NAMING):
                self._foreign_names([f for f in ordered if f.kind in _NAMING])
                self._foreign_calls([f for f in ordered if f.kind in _NAMING])
        if self.derive:
            # a total said before its parts ("$185.76 in total: 3 days at $54 ($162.00) plus $23.76")
            for fact in ordered:
                if fact.kind == FactKind.NUMBER and fact.code == "not_found" and len(self.verified) > 1:
                    self._number(fact)
                if fact.kind == FactKind.NUMBER and fact.code in ("not_found", "value_mismatch"):
                    self._sum_of_parts(fact)  # "合计 ¥132.90（¥42.50、¥88.90、¥1.50）"
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
        for fact in ordered:  # "a charge of $30.78" where the records give 30.78 as a refund
            if fact.kind == FactKind.NUMBER and fact.verdict == Verdict.SUPPORTED:
                begin, end = self._records.clause(fact)
                begin, end = max(begin, fact.start - _DIRECTION_BEFORE), min(end, fact.end + _DIRECTION_AFTER)
                wrong_direction(fact, text[begin - start : end - start], self.index)
        picked = name_selection(self._said, self.index)
        if picked is not None:  # "Of these, Backpack is the cheapest": the named record is not
            fact, found = picked
            set_verdict(fact, Verdict.CONTRADICTED, *self._recomputed(fact, found, f"the records give {found.how}"))
        if asserts:
            incomplete_coverage(facts, text, start, self.index)  # "none of your orders" with two of five read
        # "within 24 hours", 25.8 hours on; a rule or an offer only with moments of its own ("创建于 12月1日 08:10，
        # 距现在不到24小时，可以全额退款"), never those of earlier claims
        time_window(facts, text, start, self.index, self.moments if asserts else [])
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

    # ---------- exact tokens ----------
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

    # ---------- numbers ----------
    def _number(self, fact: Fact) -> None:
        before = self._claim_text[: max(0, fact.start - self._records.start)].rstrip()
        if before.endswith(_ORDINAL_MARKS):
            fact.reason = "an ordinal (第 1 条, No. 2): a place in a list, not a quantity"
            return
        self._number_verdict(fact)
        if fact.verdict == Verdict.SUPPORTED and fact.value:
            value = Decimal(fact.value)
            self.verified.append(operand_value(value, fact.unit))
            if fact.unit in self.index.lex.currency_codes:
                self.amounts.append(value)

    def _number_verdict(self, fact: Fact) -> None:
        claimed = Decimal(fact.value or "0")
        exponent = -(fact.precision or 0)
        labels = frozenset((fact.concept or "").split("+")) - {""}
        targets = claim_targets(fact, claimed, exponent, self.duration_days)
        if labels & self.index.lex.share_labels and claimed > 1 and fact.unit != "%":
            targets.append((claimed / 100, exponent - 2))  # a score of 83 given as 0.83
        minor = claimed * 100 if fact.unit in self.index.lex.currency_codes and claimed else None
        if minor is not None and minor == minor.to_integral_value():
            targets.append((minor, 0))  # {"amount": 4599, "currency": "usd"}: minor units, as payment APIs give them
        if (counted := threshold_count(self.index, fact, self._claim_facts, self._claim_text,
                                       self._records.start)) is not None:
            met, how, leaf = counted  # "加班超过 10 小时的员工共 3 名": the items over the threshold, counted
            if met == claimed:
                set_verdict(fact, Verdict.SUPPORTED, "derived", f"number equals the count: {how}",
                            [evidence_of(leaf, self.index, how)])
            else:
                set_verdict(fact, Verdict.CONTRADICTED, "recomputed", f"the records give {how}, not {fact.text}",
                            [evidence_of(leaf, self.index, how)])
            return
        cued = self._after_suffix_cue(fact)
        if cued:  # "尾号0937的卡": the end of a card number, not an amount of its field
            labels = frozenset()
        same_field = self._same_field(labels)
        companions = frozenset().union(*(self.index.lex.label_companions.get(label, ()) for label in labels))
        if companions - labels:  # "共有 12,580 积分" is also compared with a points tool's balance
            same_field += [loc for loc in self._same_field(companions - labels) if loc not in same_field]
        if fact.unit == "%":  # a share of a fee is no fee: only percentages and rates of the field speak for it
            same_field = [loc for loc in same_field if loc.mention.unit == "%" or abs(Decimal(loc.mention.value)) <= 1]
        elif fact.unit and fact.unit not in self.index.lex.currency_codes:
            # a count or a measure (1.25 万词) is no amount of money: a field in cents does not speak for it
            same_field = [loc for loc in same_field if not loc.leaf.minor_unit]
        elif fact.unit:  # an amount of money: a count's field (`total_baggages`, `total_nights`) does not speak for it
            not_money = self.index.lex.not_money_labels
            same_field = [loc for loc in same_field if not loc.leaf.labels & not_money]
        generic = self.index.lex.generic_field_labels
        if labels <= generic and all(loc.mention.labels - labels - generic for loc in same_field):
            # "it costs $248" (amount) says nothing of a refund amount: only fields as plain as the claim speak for it
            same_field = []
        if same_field:
            agree = priced_in_minor_units(self.index, [
                loc for loc in same_field
                if any(equal_at(Decimal(loc.mention.value), t, e) for t, e in targets)
            ], minor, fact)
            if agree:
                if self._role_disagrees(fact, agree):
                    return
                if not self._wrong_record(fact, agree) and not self._wrong_call(fact, agree) \
                        and not self._wrong_currency(fact, agree) \
                        and not self._wrong_unit(fact, agree):
                    said = "number matches the same field" + in_minor_units(agree, minor)
                    set_verdict(fact, Verdict.SUPPORTED, "match", said, [evidence_of(agree[0].leaf, self.index)])
                return
            # the tool states this field's value: only a count, the field's own total or
            # arithmetic on the answer's backed numbers may explain another value
            backing = (
                self._computed_by_a_tool(targets)
                or self._at_a_rate(fact, same_field, claimed, exponent)
                or self._in_keyed_record(fact, targets, same_field)
                or self._count(fact, claimed)
                or self._duration(fact, claimed)
                or in_other_unit(fact, claimed, exponent, self._claim_facts, self.index)
                or field_total(same_field, claimed, exponent, self.index)
                or self._named_items(fact)
                or self._arithmetic([(v, None) for v in self.verified[-8:]], claimed, exponent)
                or self._context_over(same_field, claimed, exponent)
                or (  # "the price difference is $22.55": an order's price and a variant's, of two calls
                    self._across_calls(claimed, exponent)
                    if self.index.lex.derivation_cues.search(self._claim_text) else None
                )
                or (  # "you'll be charged $167.87" on an exchange: the new variant's price less the old item's
                    self._across_calls(claimed, exponent, money=True)
                    if self.index.lex.directions_in(self._claim_text.lower()) else None
                )
            )
            backing = self._fitting(fact, backing, claimed, exponent)
            if backing is not None and backing[0] == "recomputed":
                set_verdict(fact, Verdict.CONTRADICTED, *backing)
                return
            if backing is None:
                shown = ", ".join(sorted({loc.mention.value for loc in same_field})[:3])
                set_verdict(fact, Verdict.CONTRADICTED, "value_mismatch",
                            f"tool gives {shown} for {'/'.join(sorted(labels))}, not {fact.text}",
                            [evidence_of(loc.leaf, self.index) for loc in same_field[:2]])
                return
        elif matches := priced_in_minor_units(self.index, self.index.equal_numbers(targets), minor, fact):
            if self._role_disagrees(fact, matches) or self._condition_disagrees(fact, matches):
                return
            if not self._wrong_record(fact, matches) and not self._wrong_call(fact, matches) \
                    and not self._wrong_currency(fact, matches) \
                    and not self._wrong_unit(fact, matches):
                said = "number found in a tool output" + in_minor_units(matches, minor)
                set_verdict(fact, Verdict.SUPPORTED, "match", said, [evidence_of(matches[0].leaf, self.index)])
            return
        else:
            backing = (
                self._count(fact, claimed)
                or self._duration(fact, claimed)
                or self._derived(claimed, exponent)
                or self._named_items(fact)
                or self._context(claimed, exponent)
                or (self._suffix(fact) if cued else None)
                or day_of_month(fact, claimed, self._claim_text[max(0, fact.end - self._records.start) :],
                                self.moments + self._claim_facts, self.index)
                or self._ratio(fact, claimed, exponent)
                or year_of_a_date(fact, claimed, self.index)
                or glued(fact, self._claim_text[: max(0, fact.start - self._records.start)], self.index)
                or in_other_unit(fact, claimed, exponent, self._claim_facts, self.index)
                or self._in_words(targets)
            )
        backing = self._fitting(fact, backing, claimed, exponent)
        if backing is None:
            set_verdict(fact, Verdict.UNSUPPORTED, "not_found", f"no tool output gives {fact.text}", [])
        elif backing[0] == "recomputed":
            set_verdict(fact, Verdict.CONTRADICTED, *backing)
        elif backing[0] == "derived" and (found := per_unit_sum_as_total(fact, self.index, self._said)):
            # arithmetic backs a total only as the records compute it: the legs' sum is one traveller's
            set_verdict(fact, Verdict.CONTRADICTED, *self._recomputed(fact, found))
        else:
            set_verdict(fact, Verdict.SUPPORTED, *backing)

    def _fitting(self, fact: Fact, backing: Backing | None, claimed: Decimal, exponent: int) -> Backing | None:
        """A derivation only when it fits the number's role: a total is no difference or quotient ("total $0.5"
        of 3.5 − 3); a column's sum may still be it."""
        if backing is None or backing[0] != "derived" or fits_role(fact, backing[1], self.index, self._said):
            return backing
        backing = column_total(claimed, exponent, self.index)
        return backing if backing is not None and fits_role(fact, backing[1], self.index, self._said) else None

    def _recomputed(self, fact: Fact, found: Recomputed, reason: str | None = None) -> Backing:
        """The code, reason and evidence of a number (or name) its records compute otherwise."""
        reason = reason or f"the records give {found.how}, not {fact.text}"
        return "recomputed", reason, [evidence_of(found.where.leaf, self.index, found.how)]

    def _named_items(self, fact: Fact) -> Backing | None:
        """The prices of the items the claim names, added up (a refund of two named items)."""
        found = named_items_total(fact, self.index, self._said)
        if found is None:
            return None
        if not equal_at(found.value, Decimal(fact.value or "0"), -(fact.precision or 0)):
            return self._recomputed(fact, found)  # a total of named items they do not add up to: the wrong subset
        return "derived", f"number equals {found.how}", [evidence_of(found.where.leaf, self.index, found.how)]

    def _role_disagrees(self, fact: Fact, located: list[Located]) -> bool:
        """Contradict a found number whose role the records compute otherwise: a per-unit amount given as the
        total, or a superlative's option that is not the best of its list (the computation is the evidence)."""
        said = self._said
        found = per_unit_as_total(fact, located, self.index, said) or selection(fact, located, self.index, said)
        if found is None:
            return False
        set_verdict(fact, Verdict.CONTRADICTED, *self._recomputed(fact, found))
        return True

    def _in_words(self, targets: list[tuple[Decimal, int]]) -> Backing | None:
        """The number as a tool writes it in words ("三名成年人" of "3 个成年人")."""
        found = self.index.other_forms.word_numbers(targets)
        if not found:
            return None
        return "match", "number found in a tool output, written in words", [evidence_of(found[0].leaf, self.index)]

    def _sum_of_parts(self, fact: Fact) -> None:
        """Back a total by the backed numbers that follow it in the claim, when they add up to it.

        The parts are the claim's next numbers, in the total's unit or none, up to the first
        one not backed: "合计 ¥132.90（美团外卖 ¥42.50、¥88.90，美团单车 ¥1.50）". Against a
        tool's other value of its field (a contradiction) the sum must be written out with
        "+" ("税前合计 1.85 万元（基本工资 16,000 + 绩效 2,500）") or as a breakdown a dash, colon or
        bracket opens right after the total ("Total paid: $1,296.00 — $234.00 from your gift card and
        $1,062.00 on your card"): an answer that lists parts without saying they add up may have left one out.
        """
        later = sorted((f for f in self._claim_facts if f.kind == FactKind.NUMBER and f.start >= fact.end),
                       key=lambda f: f.start)
        total, parts, end = Decimal(0), [], fact.end
        breakdown = False
        for part in later:
            if part.verdict != Verdict.SUPPORTED or part.unit not in (fact.unit, None) or not part.value:
                return
            gap = self._claim_text[end - self._records.start : part.start - self._records.start]
            if not parts:  # "合计支付 $1,084.00：礼品卡 $202.00，…": a colon, dash or bracket opens the parts
                breakdown = _BREAKDOWN.match(gap) is not None
            if fact.code == "value_mismatch" and parts and not ("+" in gap or "＋" in gap or breakdown):
                return
            total, end = total + operand_value(Decimal(part.value), part.unit), part.end
            parts.append(part.text)
            if len(parts) > 1 and equal_at(total, Decimal(fact.value or "0"), -(fact.precision or 0)):
                how = sum_text(parts) + " (the parts the answer gives after it)"
                set_verdict(fact, Verdict.SUPPORTED, "derived", f"number equals {how}", [])
                self.verified.append(operand_value(Decimal(fact.value or "0"), fact.unit))
                return

    def _written_arithmetic(self, fact: Fact) -> None:
        """Back a number the claim works out in writing from backed numbers ("$79.00 + $6.50 fee = $85.50"), or
        contradict one its written working does not come to ("12 seats x $72 = $846"), unless a tool gives it."""
        found = written_arithmetic(fact, self._claim_facts, self._claim_text, self._records.start)
        if found is None:
            return
        if adds_up(found):
            if fact.verdict.flagged and all(f.verdict == Verdict.SUPPORTED for f in found.operands):
                set_verdict(fact, Verdict.SUPPORTED, "derived", f"number equals {found.how} (the answer's working)", [])
        elif not (fact.verdict == Verdict.SUPPORTED and fact.code == "match"):
            set_verdict(fact, Verdict.CONTRADICTED, "recomputed",
                        f"the answer's own working gives {found.how}, not {fact.text}", fact.evidence[:1])

    def _stated_difference(self, fact: Fact) -> None:
        """Back or contradict a number the claim states as the difference of two of its backed amounts."""
        found = stated_difference(fact, self._claim_facts, self._claim_text, self._records.start, self.index.lex)
        if found is None:
            return
        if agrees(found, fact):
            if fact.verdict != Verdict.SUPPORTED:
                set_verdict(fact, Verdict.SUPPORTED, "derived", f"number equals {found.how}", [])
            return
        said = found.how if found.sign_ok else f"{found.how}, the other way round"
        set_verdict(fact, Verdict.CONTRADICTED, "recomputed",
                    f"the answer's own amounts give {said}, not {fact.text}", fact.evidence[:1])

    def _ratio(self, fact: Fact, claimed: Decimal, exponent: int) -> Backing | None:
        """A percentage one backed number of the answer is of a larger one ("36 节（占 75%）" of 48).

        The larger one may also be a tool's number the answer does not repeat ("used 84,200
        calls, 84.2% of the quota" of `quota: 100000`); the part must be the answer's own.
        """
        if fact.unit != "%" or not self.derive:
            return None
        values = self.verified[-8:]
        for part, whole in ((a, b) for a in values for b in values if 0 < a < b):
            if equal_at(part / whole * 100, claimed, exponent):
                return "derived", f"number equals {part} / {whole} as a percentage", []
        for locs in self.index.call_numbers():
            for loc in locs:
                whole = Decimal(loc.mention.value)
                part = next((a for a in values if 0 < a < whole and equal_at(a / whole * 100, claimed, exponent)), None)
                if part is not None:
                    how = f"{part} / {whole} as a percentage"
                    return "derived", f"number equals {how}", [evidence_of(loc.leaf, self.index, how)]
        return None

    def _after_suffix_cue(self, fact: Fact) -> bool:
        """Whether digits stand right after a suffix cue ("ending in 0921", "尾号 4471"): the end of an identifier."""
        if not fact.text.isdigit():
            return False
        prefix = self._claim_text[: max(0, fact.start - self._records.start)].rstrip(" *_`")[-20:]  # ending **4417**
        cue = self.index.lex.suffix_cues.finditer(prefix)
        return bool(cue) and cue[-1].end == len(prefix)

    def _suffix(self, fact: Fact) -> Backing | None:
        """Digits after a suffix cue (`_after_suffix_cue`) backed by a tool string ending with them."""
        leaf = self.index.string_ending_with(fact.text)
        if leaf is None:
            return None
        return "derived", f"{leaf.text!r} ends with {fact.text}", [evidence_of(leaf, self.index)]

    def _wrong_record(self, fact: Fact, matches: list[Located]) -> bool:
        """Contradict a number, date or time that only another record holds than the one the claim names.

        Returns whether the fact got its verdict here: contradicted, or supported by the named
        record when it holds the same text as the match.

        In "MU5401 ... 票价 980 元", MU5401 is `flights[0].flight_no`. When 980 is only
        `flights[1].fare`, the claim names nothing else of `flights[1]` (no other string of
        it that `flights[0]` lacks) and `flights[0]` has a fare of its own, the answer took
        the value from the wrong record.
        """
        places = []
        for loc in matches:
            item = LIST_ITEM.match(loc.leaf.path) if loc.leaf.source == "tool" else None
            if item is None or self.index.is_record_key(loc.leaf.path):
                return False  # not in a list item, or a record's key: it names that record
            places.append((loc, item[1], item[2], loc.leaf.path[item.end() :]))
        if self._enumerates(fact, matches):
            return False  # "$234.00 from your gift card and $1,062.00 on your Mastercard": each item its own value
        # the records the claim names by an identifier or a name; else by a word only one record has ("| Mug | $18 |")
        named, claim = self._records.records_for(fact, {(loc.leaf.index, items) for loc, items, _, _ in places})
        if any(
            call == loc.leaf.index and loc.leaf.path.startswith(f"{items}[{i}].") for loc, *_ in places
            for call, items, i in named
        ):
            return False  # a match is in a record the claim names
        for loc, items, other, field in places:
            call, shape = loc.leaf.index, shape_of(items)
            other_record = self.index.value_at(call, f"{items}[{other}]")
            for named_call, named_items, i in sorted(named):
                if named_call != call or shape_of(named_items) != shape:
                    continue  # a record of another list
                own_record = self.index.value_at(call, f"{named_items}[{i}]")
                if not isinstance(own_record, dict) or not isinstance(other_record, dict):
                    continue
                if names_record(claim, other_record, own_record, field.split(".")[0]):
                    return False  # the claim names the other record too ("… $9.99 for the USB-C Cable")
                own = self.index.leaf_at(call, f"{named_items}[{i}].{field}")
                if own is not None and own.text == loc.leaf.text:
                    # the named record holds the same text (a string is indexed at its first place only)
                    set_verdict(fact, Verdict.SUPPORTED, "match", "number matches the record the answer names",
                                [evidence_of(own, self.index)])
                    return True
                if own is not None:
                    set_verdict(fact, Verdict.CONTRADICTED, "wrong_record",
                                f"tool gives {own.text} for {own.path}, the record the answer names, "
                                f"not {fact.text} ({loc.leaf.path})",
                                [evidence_of(own, self.index), evidence_of(loc.leaf, self.index)])
                    return True
        return False

    def _at_a_rate(self, fact: Fact, same_field: list[Located], claimed: Decimal, exponent: int) -> Backing | None:
        """An amount of money its field gives as a rate (`tax: 0.06`, `restocking_fee: 0.15`), worked out on a backed
        amount of the answer or an amount of money a tool gives ("税 ¥283.20" of 0.06 × ¥4,720.00)."""
        if fact.unit not in self.index.lex.currency_codes:
            return None
        rates = {Decimal(loc.mention.value) for loc in same_field}
        if not rates or not all(0 < r < 1 for r in rates):
            return None
        bases = [*self.verified[-8:], *(Decimal(loc.mention.value) for locs in self.index.money_numbers()
                                        for loc in locs)]
        for rate in sorted(rates):
            for base in bases:
                if equal_at(rate * base, claimed, exponent):
                    return "derived", f"number equals {rate.normalize():f} × {base.normalize():f} (a rate)", [
                        evidence_of(next(loc for loc in same_field if Decimal(loc.mention.value) == rate).leaf,
                                    self.index)]
        return None

    def _in_keyed_record(
        self, fact: Fact, targets: list[tuple[Decimal, int]], same_field: list[Located]
    ) -> Backing | None:
        """The number in another field of the record the claim names by its key, when that record has no value
        of the claimed field of its own ("账单 B3744 金额是 $157.27" of that bill's `total_due`)."""
        records = self._records.keyed(fact)
        if not records:
            return None

        def inside(loc: Located, own: bool = False) -> bool:
            """In the record (with `own`: a field of its own, not of a list nested in it: a bill's line items)."""
            return loc.leaf.source == "tool" and any(
                call == loc.leaf.index and loc.leaf.path.startswith(head := f"{items}[{i}].")
                and not (own and "[" in loc.leaf.path[len(head):]) for call, items, i in records)

        if any(inside(loc, own=True) for loc in same_field):
            return None  # the record states the field otherwise: a contradiction, not another field's value
        found = next((loc for loc in self.index.equal_numbers(targets) if inside(loc)), None)
        if found is None:
            return None
        return "match", "number found in the record the answer names", [evidence_of(found.leaf, self.index)]

    def _enumerates(self, fact: Fact, matches: list[Located]) -> bool:
        """Whether another backed fact of the claim is the same field of another item of the match's list: the
        claim lists that field item by item, so each value names its own item (unless a key names one)."""
        if self._records.names_by_key():
            return False
        shapes = {(loc.leaf.index, shape_of(loc.leaf.path)) for loc in matches}
        for other in self._claim_facts:
            if other is fact or other.verdict != Verdict.SUPPORTED or not other.evidence:
                continue
            ev = other.evidence[0]
            if ev.source == "tool" and ev.path and (ev.index, shape_of(ev.path)) in shapes \
                    and all(ev.path != loc.leaf.path for loc in matches):
                return True
        return False

    def _clause(self, fact: Fact) -> str:
        """The clause the fact stands in, lower case."""
        begin, end = self._records.clause(fact)
        return self._claim_text[begin - self._records.start : end - self._records.start].lower()

    def _wrong_call(self, fact: Fact, matches: list[Located]) -> bool:
        """Contradict a value only another call of the same tool gives than the one the claim names ("MSFT");
        a value asked for ("update the address to 476 Maple Drive") may come from any record."""
        return not self._asks_new_value() and value_of_another_call(
            fact, matches, self.index, self._clause(fact), self._claim_text.lower())

    def _foreign_calls(self, facts: list[Fact]) -> None:
        """Contradict identifiers and names found only in another call of the same tool than the one named."""
        if not self._asks_new_value():
            for fact in facts:
                token_of_another_call(fact, self.index, self._clause(fact), self._claim_text.lower())

    def _foreign_names(self, facts: list[Fact]) -> None:
        """Contradict an identifier or name that another item holds than the one its clause names by key.

        In "O-6603 已经发货了，运单号 SF1420993817265", O-6603 is `[1].order_id`; the tracking
        number is `[0].tracking`, another order's.
        """
        if not self._records.names_by_key():
            return
        for fact in facts:
            if fact.verdict != Verdict.SUPPORTED or not fact.evidence or fact.evidence[0].source != "tool":
                continue
            ev = fact.evidence[0]
            if ev.note is not None or self.index.is_record_key(ev.path):
                continue  # a name found by its likeness only, or a record's key
            named = self._records.keyed(fact)
            if not other_item(ev.path, named, ev.index):
                continue
            value = (fact.value or fact.text).lower()
            own = [r for r in named if r[0] == ev.index and _holds(self.index.value_at(r[0], f"{r[1]}[{r[2]}]"), value)]
            if own:
                continue  # the named record holds it too
            call, items, i = sorted(named)[0]
            set_verdict(fact, Verdict.CONTRADICTED, "wrong_record",
                        f"{fact.text} is {ev.path}, not of {items}[{i}], the record the answer names",
                        [ev, *(evidence_of(k, self.index) for k in self._record_keys(call, f"{items}[{i}]"))])

    def _record_keys(self, call: int, record: str) -> list[Leaf]:
        """The leaves of a record's key fields."""
        value = self.index.value_at(call, record)
        if not isinstance(value, dict):
            return []
        leaves = (self.index.leaf_at(call, f"{record}.{k}") for k in value if self.index.is_record_key(f"{record}.{k}"))
        return [leaf for leaf in leaves if leaf is not None][:1]

    def _wrong_currency(self, fact: Fact, matches: list[Located]) -> bool:
        """Contradict an amount whose every match the tool gives in another currency (¥45 vs 45 USD).

        A symbol stands for each currency it may mean (`¥`: CNY or JPY). Returns whether
        the fact was contradicted.
        """
        lex = self.index.lex
        if fact.unit not in lex.currency_codes:
            return False
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
        set_verdict(fact, Verdict.CONTRADICTED, "value_mismatch",
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
        loc, other, where = given[0]
        evidence = [evidence_of(where, self.index)]
        if where is not loc.leaf:
            evidence.append(evidence_of(loc.leaf, self.index))
        set_verdict(fact, Verdict.CONTRADICTED, "value_mismatch",
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

    def _same_field(self, labels: frozenset[str]) -> list[Located]:
        """Evidence numbers sharing the most field labels with the claim (none without labels)."""
        best, same_field = 0, []
        for loc in self.index.labelled_numbers(labels) if labels else ():
            overlap = len(labels & loc.mention.labels)
            if overlap > best:
                best, same_field = overlap, [loc]
            elif overlap and overlap == best:
                same_field.append(loc)
        return same_field

    def _condition_disagrees(self, fact: Fact, matches: list[Located]) -> bool:
        """Contradict a count that is a list's length when the claim counts only the options that can be taken
        ("3 班可以订" of three flights, one cancelled)."""
        counts = [loc for loc in matches if loc.leaf.count and not loc.leaf.path.startswith("args")]
        if len(counts) != len(matches) or len(counts) != 1:
            return False  # the number is also a value some field holds, or the length of several lists
        backing = self._available(fact, counts[0].leaf)
        if backing is not None:
            set_verdict(fact, Verdict.CONTRADICTED, *backing)
        return backing is not None

    def _available(self, fact: Fact, leaf: Leaf) -> Backing | None:
        """The recomputed verdict of a count of options some of which cannot be taken, or None."""
        found = available_count(self.index, leaf, self._claim_text)
        if found is None:
            return None
        can, length = found
        where = leaf.path or "the result list"
        return "recomputed", f"the records give {can} of the {length} items in {where} that can be taken " \
            f"(not cancelled, sold out or at zero), not {fact.text}", [
                evidence_of(leaf, self.index, f"{length} items in {where}")]

    def _count(self, fact: Fact, claimed: Decimal) -> Backing | None:
        """A count backed by the length of a list in a tool output, or by the calls that ran."""
        of_many = _OF_MANY.match(self._claim_text, fact.end - self._records.start)
        if fact.unit == "%" or fact.unit is None and not of_many:
            return None  # a count has a count noun, or is "2 of the 3 payouts"
        ok_calls = [c for c in self.index.calls if c.status == "ok"]
        if 1 < len(ok_calls) == claimed and len({c.name for c in ok_calls}) == 1:
            return "derived", f"{len(ok_calls)} successful {ok_calls[0].name} calls", []
        for count, leaf in self.index.list_counts:
            if count and Decimal(count) == claimed and not leaf.path.startswith("args"):
                where = leaf.path or "the result list"
                if (fewer := self._available(fact, leaf)) is not None:  # "3 班可以订", one of three cancelled
                    return fewer
                self.counts.add((claimed, fact.unit))
                return "derived", f"count of {where}", [evidence_of(leaf, self.index, f"{count} items in {where}")]
        found = filtered_count(self.index, claimed, self._claim_text, self._claim_facts)
        if found is not None:
            leaf, key, value = found
            said = f"{claimed} items of {leaf.path} with {key} {value!r}"
            self.counts.add((claimed, fact.unit))
            return "derived", f"count of {said}", [evidence_of(leaf, self.index, said)]
        if (claimed, fact.unit) in self.counts:
            return "derived", f"the count of {claimed} {fact.unit} the answer gave before", []
        lex = self.index.lex
        if any(fact.unit in units for units in (self.duration_days, lex.duration_seconds, lex.duration_compound_units)):
            return None  # "two weeks, from Nov. 1 through Nov. 15" counts days, not the dates listed
        listed = Counter(f.kind for f in self._claim_facts if f.kind in _LISTED)
        kind = next((k for k, n in listed.items() if n == claimed > 1), None)
        if kind is not None:
            return "derived", f"the claim lists {claimed} {kind.value}s", []
        return None

    def _duration(self, fact: Fact, claimed: Decimal) -> Backing | None:
        """A duration (`two weeks`, `3 晚`, `4 小时 28 分`) equal to the days between two backed dates, or
        the time between two backed times of the claim, if enabled.

        A date pair is two of the claim, or one of the claim and one an earlier claim or the
        context gives ("ends on July 11, 10 days from today").
        """
        if not self.derive:
            return None
        seconds = duration_seconds(fact, self._claim_facts, self._claim_text, self._records.start, self.index.lex)
        if seconds is not None and seconds < 86400:  # clock times are less than a day apart
            times = [f for f in self._claim_facts if f.kind == FactKind.TIME and f.verdict == Verdict.SUPPORTED]
            for first, last in zip(times, times[1:], strict=False):  # consecutive times
                if seconds in seconds_between(first, last):
                    how = f"the time from {first.text} to {last.text}"
                    evidence = [ev.model_copy(update={"note": how}) for ev in first.evidence[:1] + last.evidence[:1]]
                    return "derived", f"number is part of {how}", evidence
            found = record_duration(seconds, self.index)
            if found is not None:  # "全程约 5 小时 29 分钟" of a train's depart 08:12 and arrive 13:41
                return "derived", f"number is part of {found.note}", [found]
        days_per_unit = self.duration_days.get((fact.unit or "").lower())
        if days_per_unit is None:
            return None
        dates = [(f.value or "", f.text, f.evidence[:1]) for f in self._claim_facts
                 if f.kind == FactKind.DATE and f.verdict == Verdict.SUPPORTED]
        known = [(f.value or "", f.text, f.evidence[:1]) for f in self.moments if f.kind == FactKind.DATE] + [
            (loc.mention.value, loc.leaf.text[loc.mention.start : loc.mention.end], [evidence_of(loc.leaf, self.index)])
            for loc in self.index.context_mentions if loc.mention.kind == FactKind.DATE
        ]
        for first, last in chain(combinations(dates, 2), product(dates, known)):
            days = days_between(first[0], last[0])
            if days is not None and claimed * days_per_unit == days:
                how = f"the {days} days from {first[1]} to {last[1]}"
                evidence = [ev.model_copy(update={"note": how}) for ev in first[2] + last[2]]
                return "derived", f"number equals {how}", evidence
        return None

    def _derived(self, claimed: Decimal, exponent: int) -> Backing | None:
        """Arithmetic over one tool output's numbers and the answer's backed ones, if enabled."""
        if not self.derive:
            return None
        listed = self._after_a_list(claimed, exponent)
        if listed is not None:
            return listed
        answer = [(v, None) for v in self.verified[-8:]]
        for locs, operands, total in self._call_operands:
            found = self._arithmetic(operands + answer, claimed, exponent)
            if found is not None:
                return found
            if total is not None and equal_at(total, claimed, exponent):
                how = "the sum of price × quantity over the line items"
                return "derived", f"number equals {how}", [evidence_of(locs[0].leaf, self.index, how)]
        return (
            column_total(claimed, exponent, self.index)
            or self._across_calls(claimed, exponent)
            or self._converted(claimed, exponent)
        )

    def _after_a_list(self, claimed: Decimal, exponent: int) -> Backing | None:
        """The sum of the last amounts the answer gave, when they add up to it ("… $258.84, $232.49, $259.97.
        That comes to $750.30 in total.")."""
        amounts = self.amounts[-_LISTED_AMOUNTS:]
        for k in range(2, len(amounts) + 1):
            if equal_at(sum(amounts[-k:]), claimed, exponent):
                how = sum_text([str(v) for v in amounts[-k:]]) + " (the amounts the answer gives before it)"
                return "derived", f"number equals {how}", []
        return None

    @cached_property
    def _call_operands(self) -> list[tuple[list[Located], list[tuple[Decimal, Leaf | None]], Decimal | None]]:
        """Each call's first numbers (`call_numbers`), as operands, and their line-item total: read once per answer."""
        return [
            (locs, [(Decimal(loc.mention.value), loc.leaf) for loc in locs], line_item_total(locs))
            for locs in self.index.call_numbers() or [[]]
        ]

    def _across_calls(self, claimed: Decimal, exponent: int, money: bool = False) -> Backing | None:
        """The sum or difference of two numbers of different calls (an order's price and a variant's: the
        price difference of an exchange; a balance after a payment), found by set look-ups, not pairs; with
        `money`, only of amounts of money (fields the lexicon's `money_labels` name: price, amount, fee...)."""
        calls = self.index.money_numbers() if money else self.index.call_numbers()
        if sum(bool(locs) for locs in calls) < 2:
            return None
        quantum = Decimal(1).scaleb(exponent)
        seen: dict[Decimal, dict[int, Located]] = {}
        for call, locs in enumerate(calls):
            for loc in locs:
                try:
                    value = Decimal(loc.mention.value).quantize(quantum)
                except ArithmeticError:  # more digits than a check's precision holds (1e+100 at cents)
                    continue
                calls_of = seen.setdefault(value, {})
                if money or not calls_of:  # any amount's every call; else the first call of each number
                    calls_of.setdefault(call, loc)
        for value, where in seen.items():  # every pair is met with its larger number as `value`
            for other, how in ((value - claimed, "{a} - {b}"), (claimed - value, "{b} + {a}")):
                found = seen.get(other) if other > 0 else None
                pair = next(((a, b) for a in where.items() for b in (found or {}).items() if a[0] != b[0]), None)
                if pair is None:
                    continue
                said = how.format(a=value.normalize(), b=other.normalize())
                note = f"{said}, across two tool calls"
                return "derived", f"number equals {note}", [
                    evidence_of(pair[0][1].leaf, self.index, note), evidence_of(pair[1][1].leaf, self.index, note)
                ]
        return None

    def _converted(self, claimed: Decimal, exponent: int) -> Backing | None:
        """A tool's number or a backed one of the answer, converted at a rate the context states."""
        rates = self.index.context_rates
        if not rates:
            return None
        operands = [(Decimal(loc.mention.value), loc.leaf) for locs in self.index.call_numbers() for loc in locs]
        for value, leaf in operands + [(v, None) for v in self.verified[-8:]]:
            for factor, said, where in rates:
                if equal_at(value * factor, claimed, exponent):
                    how = f"{value} converted at {said!r} (context)"
                    evidence = [evidence_of(leaf, self.index, how)] if leaf else []
                    return "derived", f"number equals {how}", evidence + [evidence_of(where, self.index, how)]
        return None

    def _arithmetic(
        self, operands: list[tuple[Decimal, Leaf | None]], claimed: Decimal, exponent: int
    ) -> Backing | None:
        """A sum of all operands, or one simple operation on two, equal to the claim."""
        values = [v for v, _ in operands]
        if len(values) > 1 and equal_at(sum(values), claimed, exponent):
            how = sum_text([str(v) for v in values])
            leaf = next((lf for _, lf in operands if lf is not None), None)
            return "derived", f"number equals {how}", [evidence_of(leaf, self.index, how)] if leaf else []
        found = find_operation(values, claimed, exponent, self._rated)
        if found is None:
            return None
        i, j, how = found
        leaf = operands[i][1] or operands[j][1]
        return "derived", f"number equals {how}", [evidence_of(leaf, self.index, how)] if leaf else []

    def _asks_new_value(self) -> bool:
        """Whether the claim speaks of a value asked for ("change it to", "new", an arrow: "#W1 → 565 Maple Drive")."""
        return bool(self.index.lex.new_value_cues.search(self._claim_text)) or any(
            arrow in self._claim_text for arrow in _ARROWS
        )

    def _computed_by_a_tool(self, targets: list[tuple[Decimal, int]]) -> Backing | None:
        """A number a tool's whole output is ("1126.04" of `calculate`): worked out by a tool, whatever the field."""
        for loc in self.index.equal_numbers(targets):
            leaf = loc.leaf
            if leaf.source == "tool" and not leaf.path and not leaf.count and _BARE_NUMBER.fullmatch(leaf.text.strip()):
                return "match", "number a tool computed (its whole output)", [evidence_of(leaf, self.index)]
        return None

    def _context_over(self, same_field: list[Located], claimed: Decimal, exponent: int) -> Backing | None:
        """The context's number, for a claim whose field a tool states otherwise: a rule the context states
        ("按 100 积分抵 1 元"), a value asked for ("change it to Suite 641"), one of several records; never the
        user's word over the value the record holds ("I'm pretty sure it's $160.75" when the price is 150.75)."""
        lex = self.index.lex
        records = len({Decimal(loc.mention.value) for loc in same_field}) == 1 or all(
            loc.leaf.source == "tool" and not loc.leaf.count and "[" not in loc.leaf.path for loc in same_field
        )  # one value, or one record per call (a stock's price, a tax): not options the user chooses among
        if records and not (lex.speech_acts["policy_markers"].search(self._claim_text)
                           or self._asks_new_value()):
            return None
        return self._context(claimed, exponent)

    def _context(self, claimed: Decimal, exponent: int) -> Backing | None:
        for loc in self.index.context_mentions:
            if loc.mention.kind == FactKind.NUMBER and equal_at(Decimal(loc.mention.value), claimed, exponent):
                return "context", "number found in the context, not a tool", [evidence_of(loc.leaf, self.index)]
        return None

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
        reason = f"no tool output gives the {fact.kind.value} {fact.text}"
        set_verdict(fact, Verdict.UNSUPPORTED, "not_found", reason, [])


_ORDINAL_MARKS = ("第", "No.", "no.")
"""What makes the bare number after it a place in a list, not a quantity ("第 1 条收益最大")."""

_LISTED_AMOUNTS = 12
"""Most amounts of an answer's list a later total may add up."""


def _holds(record: object, value: str) -> bool:
    """Whether a string of `record` (lower case) holds `value`."""
    return isinstance(record, dict) and any(isinstance(v, str) and value in v.lower() for v in record.values())


def _grounding_order(fact: Fact) -> int:
    """Identifiers and names first, then dates and times, then the rest, weekdays among them (see `ground_claim`)."""
    return 0 if fact.kind in _NAMING else 1 if fact.kind in (FactKind.DATE, FactKind.TIME) else 2
