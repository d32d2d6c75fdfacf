"""The number checks: a number's verdict from its field, its record, its role and the answer's own working."""

from __future__ import annotations

import re
from decimal import Decimal

from factcheck.grounding import working
from factcheck.grounding.arithmetic import claim_targets, equal_at, operand_value, sum_text
from factcheck.grounding.count_totals import listed_count_total, note_count
from factcheck.grounding.counting import threshold_count
from factcheck.grounding.direction import item_price_as_refund, part_of_written
from factcheck.grounding.evidence import Located
from factcheck.grounding.flat import record_path, scalars_of
from factcheck.grounding.item_totals import record_items_total
from factcheck.grounding.line_amounts import names_line, unit_price_as_line
from factcheck.grounding.listed import stated_total
from factcheck.grounding.member_counts import member_count, part_count
from factcheck.grounding.moments import day_of_month
from factcheck.grounding.one_unit import one_units_amount
from factcheck.grounding.party_totals import alike_or_counted, per_unit_sum_as_total
from factcheck.grounding.per_unit_fields import per_unit_beside_its_whole, per_unit_field_as_whole, per_unit_times
from factcheck.grounding.record_checks import RecordChecks
from factcheck.grounding.roles import (
    PER_UNIT_FIELD,
    PRICE_LABELS,
    Recomputed,
    clause_bounds,
    fits_role,
    per_unit_as_total,
    plain_amount_word,
    plain_duration,
)
from factcheck.grounding.selection import selection
from factcheck.grounding.slips import slipped_total
from factcheck.grounding.state_counts import some_state_count, state_count
from factcheck.grounding.totals import column_total, field_total, some_added_up
from factcheck.grounding.unit_checks import UnitChecks
from factcheck.grounding.units import (
    glued,
    in_minor_units,
    in_other_unit,
    priced_in_minor_units,
    spans_of_time,
    year_of_a_date,
)
from factcheck.grounding.user_word import MIN_DIGITS_NAMED, MIN_DIGITS_UNSAID, names_field, record_near
from factcheck.grounding.verdicts import Backing, evidence_of, set_verdict
from factcheck.grounding.walked import holds_no_money
from factcheck.grounding.working import adds_up, agrees, another_reading, stated_difference, written_arithmetic
from factcheck.lexicon import field_name
from factcheck.report import Fact, FactKind, Verdict

_BESIDE = 24
"""How far from a number (characters, within its clause) a word is read as naming its field."""
_REFERENCE_DIGITS = re.compile(r"\d{4,}")
"""A bare run of digits long enough to refer to the identifier whose last segment it is (`_suffix`)."""
_ORDINAL_MARKS = ("第", "No.", "no.")
"""What makes the bare number after it a place in a list, not a quantity ("第 1 条收益最大")."""
_BREAKDOWN = re.compile(r"\s*[—–:：(（-]")
"""What opens a total's breakdown right after it: a dash, a colon or a bracket ("Total paid: $1,296.00 — $234.00 …")."""
_SMALL_COUNT = 100
"""Below it a whole number the user gave is taken as the user's own (a party size), not as another record's."""
_PARTY_BEFORE = re.compile(r"(?i)(?:\b(?:for(?: all| the)?|with|at least|enough for|fits?)"
                           r"|够|满足|至少|能买到|买得到|可买|能订|可订|坐得下|容纳)\s*$")
_PARTY_AFTER = re.compile(r"(?i)\s*(?:of (?:you|us)\b|(?:people|persons|passengers|guests|travell?ers|adults)\b"
                          r"|人|位|名)")
"""Words around a whole number that make it a party's size or a condition ("seats for 3", "with 2 seats open",
"能买到 3 张的", "不够 4 位"): the user's number there is the user's own."""
_MASK_BEFORE = re.compile(r"(?:[*•●]{3,}|[xX]{4,}|\.{3}|…)[ -]?$")
"""Mask marks right before digits ("****4471", "•••• 1234", "card ...5585"): the digits end a masked card or account
number."""
_SUMMED = re.compile(r" \+ |\bsum of\b")
"""A derivation that adds amounts up (pair arithmetic, a column's sum): a subset's total may outrank it."""


class NumberChecks(RecordChecks, UnitChecks):
    """Give a number its verdict: the same field's value, another backing, or the answer's own working."""

    def _number(self, fact: Fact) -> None:
        before = self._claim_text[: max(0, fact.start - self._records.start)].rstrip()
        if before.endswith(_ORDINAL_MARKS):
            fact.reason = "an ordinal (第 1 条, No. 2): a place in a list, not a quantity"
            return
        self._number_verdict(fact)
        note_count(self.listed_counts, fact, self._claim_text, self._records.start, self.index.lex)
        if fact.verdict == Verdict.SUPPORTED and fact.value:
            value = Decimal(fact.value)
            self.verified.append(operand_value(value, fact.unit))
            if fact.unit in self.index.lex.currency_codes:
                self.amounts.append(value)
                lines = self.line_amounts
                if lines and lines[-1][0] == self._records.start:
                    lines[-1] = (self._records.start, value)  # a line's last amount is what it comes to
                else:
                    lines.append((self._records.start, value))

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
        # "加班超过 10 小时的员工共 3 名": the items over the threshold; "已送达的有 2 笔": the items in that state
        counted = threshold_count(self.index, fact, self._claim_facts, self._claim_text, self._records.start) \
            or state_count(self.index, fact, self._claim_facts, self._claim_text, self._records.start)
        if counted is not None:
            held, how, leaf = counted
            if held == claimed:
                set_verdict(fact, Verdict.SUPPORTED, "derived", f"number equals the count: {how}",
                            [evidence_of(leaf, self.index, how)])
            else:
                set_verdict(fact, Verdict.CONTRADICTED, "recomputed", f"the records give {how}, not {fact.text}",
                            [evidence_of(leaf, self.index, how)])
            return
        if (members := self._members(fact, claimed)) is not None:
            set_verdict(fact, Verdict.CONTRADICTED, *members)  # "共有 3 位乘客" of a reservation listing four
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
            # a count or a measure (1.25 万词, 3 期) is no amount of money: a field in cents, or of money, does not
            # speak for it; a count (3 期, 2 张) is whole, a measure (8 米) may be compared with decimals (6.5 m)
            whole = claimed == claimed.to_integral_value() and not fact.precision \
                and fact.unit.lower() not in self.index.lex.unit_scales
            same_field = self._not_of_money([loc for loc in same_field if not loc.leaf.minor_unit], whole)
        elif fact.unit:  # money: no count's field (`total_baggages`), percentage ("City tax 6%") nor rate speaks for it
            not_money = self.index.lex.not_money_labels
            same_field = [loc for loc in same_field if not loc.leaf.labels & not_money and not holds_no_money(loc)]
        elif claimed == claimed.to_integral_value() and not fact.precision:
            # "You've paid 3 of them", "未缴账单：3期", "installment #13": a whole number written bare is no amount of
            # money; a field of money (a money label, or a value with cents) does not speak for it
            # (a score of 0.83 said as 83 is a share, compared ×100 above)
            same_field = self._not_of_money(same_field, whole=not labels & self.index.lex.share_labels)
        if same_field and all(loc.leaf.count for loc in same_field) \
                and len({leaf.index for _, leaf in self.index.list_counts if leaf.source == "tool"}) > 1:
            # "4 direct flights" against the lengths of the lists several calls return (a profile's saved travellers
            # beside a search's results): one's length speaks for a count only as the count of what it holds
            # (`_condition_disagrees`, the counting checks); the lists of a run's one call are what "I found 3 books"
            # counts
            same_field = []
        generic = self.index.lex.generic_field_labels
        if labels <= generic and all(loc.mention.labels - labels - generic for loc in same_field):
            # "it costs $248" (amount) says nothing of a refund amount: only fields as plain as the claim speak for it
            same_field = []
        if self._members_own_measure(fact, labels, same_field, targets):  # "全年 15 天" beside a request's `days: 2`
            same_field = []
        if same_field:
            agree = priced_in_minor_units(self.index, [
                loc for loc in same_field
                if any(equal_at(Decimal(loc.mention.value), t, e) for t, e in targets)
            ], minor, fact)
            if agree:
                if self._role_disagrees(fact, agree):
                    return
                if not self._of_another(fact, agree):
                    said = "number matches the same field" + in_minor_units(agree, minor)
                    set_verdict(fact, Verdict.SUPPORTED, "match", said, [evidence_of(agree[0].leaf, self.index)])
                return
            found = priced_in_minor_units(self.index, self.index.equal_numbers(targets), minor, fact)
            if found and self._per_unit_disagrees(fact, found):
                return  # "额外席位 3 个，合计 ¥12.00": a unit price said as what the field holds (3 × 12)
            # the tool states this field's value: only a count, the field's own total or
            # arithmetic on the answer's backed numbers may explain another value
            backing = (
                listed_count_total(fact, self.listed_counts, self._claim_text, self._records.start, self.index.lex)
                or self._computed_by_a_tool(targets)
                or one_units_amount(fact, same_field, claimed, self._said, self.index)  # $24.99 of 3 × 24.99
                or self._at_a_rate(fact, same_field, claimed, exponent)
                or self._in_keyed_record(fact, targets, same_field)
                or self._subset_total(fact)
                or self._count(fact, claimed)
                or self._duration(fact, claimed)
                or in_other_unit(fact, claimed, exponent, self._claim_facts, self.index)
                or field_total(same_field, claimed, exponent, self.index)
                or (  # "… $5.51, $49.76, $147.42. Combined balance: $202.69": the amounts it listed, added up
                    self._listed_parts(fact, same_field, claimed, exponent)
                    if self.index.lex.derivation_cues.search(self._claim_text) else None
                )
                or self._named_items(fact)
                or self._arithmetic([(v, None) for v in self.verified[-8:]], claimed, exponent)
                or self._with_field(fact, labels, same_field, claimed, exponent)
                or self._context_over(fact, same_field, claimed, exponent)
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
            if backing is None and (stated := self._stated_elsewhere(fact, targets, minor, labels, same_field)):
                # "可用余额 5,120.33 元" that `available` holds, where a loan's `principal_outstanding` (a balance
                # too) holds another number: a tool states the value, and a field the claim's word also fits
                # gives no evidence against it; only the role and record checks of a found number may
                self._found(fact, stated, claimed, exponent, minor)
                return
            if backing is None and (times := per_unit_times(same_field, fact, self._claim_facts, exponent, self.index)):
                # "Service fees: $33.75" where `service_fee_per_ticket` is 6.75: a count of the unit, not checked here
                set_verdict(fact, Verdict.UNSUPPORTED, "not_found",
                            f"no tool output gives {fact.text}; it is {times}, a count not checked", [])
                return
            if backing is None and (some := some_added_up(same_field, claimed, exponent)):
                # "Completed orders total $85.71" where four orders' totals are 16.51, 23.75, 27.32 and 45.45: the
                # claim adds up some records of its field, which ones its condition says; no one value contradicts
                # it, and nothing here checks that condition: neither backed nor flagged (flagged, it was wrong 21
                # times in 24 on the read blind batches)
                set_verdict(fact, Verdict.UNVERIFIABLE, "not_found",
                            f"no tool output gives {fact.text}; it is {some} of the records' {'/'.join(sorted(labels))}"
                            ", for a condition not checked", [])
                return
            if backing is None and part_count(fact, self._claim_text, self._records.start, self.index.lex):
                fact.reason = f"{fact.text} counts a part of the whole (a part word or a rate beside it); not compared"
                return
            if backing is None and working.operand_of_working(fact, self._claim_text, self._records.start):
                fact.reason = f"{fact.text} is an operand of the answer's written working; the working is checked"
                return  # "门票 ¥48 × 28 = ¥1,344": the label before the working names its result, not each operand
            if backing is None:
                shown = ", ".join(sorted({loc.mention.value for loc in same_field})[:3])
                set_verdict(fact, Verdict.CONTRADICTED, "value_mismatch",
                            f"tool gives {shown} for {'/'.join(sorted(labels))}, not {fact.text}",
                            [evidence_of(loc.leaf, self.index) for loc in same_field[:2]])
                return
        elif matches := spans_of_time(fact, priced_in_minor_units(self.index, self.index.equal_numbers(targets), minor,
                                                                  fact)):
            self._found(fact, matches, claimed, exponent, minor)
            return
        elif cued:  # "ending in 7512": only an identifier's end (or the user's own digits) backs it, never arithmetic
            backing = self._suffix(fact) or self._users_word(fact, claimed, exponent)
        else:
            backing = (
                listed_count_total(fact, self.listed_counts, self._claim_text, self._records.start, self.index.lex)
                or self._count(fact, claimed)
                or self._duration(fact, claimed)
                or self._derived(claimed, exponent, money=fact.unit in self.index.lex.currency_codes)
                or self._named_items(fact)
                or self._record_total(fact)
                or self._subset_total(fact)
                or self._users_word(fact, claimed, exponent)
                # "3315 那笔" of INV-NB-3315: a bare run of digits that is an identifier's last segment refers to it
                or (self._suffix(fact, segment=True) if _REFERENCE_DIGITS.fullmatch(fact.text) else None)
                or day_of_month(fact, claimed, self._claim_text[max(0, fact.end - self._records.start) :],
                                self.moments + self._claim_facts, self.index)
                or self._ratio(fact, claimed, exponent)
                or year_of_a_date(fact, claimed, self.index)
                or glued(fact, self._claim_text[: max(0, fact.start - self._records.start)], self.index)
                or in_other_unit(fact, claimed, exponent, self._claim_facts, self.index)
                or self._in_words(targets)
            )
        backing = self._fitting(fact, backing, claimed, exponent)
        if backing is None or backing[0] == "derived" and _SUMMED.search(backing[1]):
            # arithmetic backs a total only as the records compute it: the confirmed rooms' rates × the nights
            backing = self._subset_recomputed(fact) or backing
        if backing is None:
            said = fact.value or "0"  # "88321" of the order's 88231: a digit off is the evidence of a misread
            near = record_near(self.index, said, exponent, fact.unit, MIN_DIGITS_UNSAID) or record_near(
                self.index, said, exponent, fact.unit, MIN_DIGITS_NAMED, lambda loc: self._names_field(fact, loc))
            slip = None if near else slipped_total(  # 8,184 元 of 2 × 4,242
                fact, self.amounts, [v for _, v in self.line_amounts], self._claim_facts, self._claim_text,
                self._records.start, self.index)
            if slip is not None:
                set_verdict(fact, Verdict.CONTRADICTED, *slip)
            elif near is None:  # "3 active bookings": a count of some state's records is neither backed nor flagged
                some = some_state_count(self.index, fact, self._claim_facts, self._claim_text, self._records.start)
                set_verdict(fact, Verdict.UNVERIFIABLE if some else Verdict.UNSUPPORTED, "not_found",
                            f"no tool output gives {fact.text}{some}", [])
            else:
                set_verdict(fact, Verdict.UNSUPPORTED, "not_found",
                            f"no tool output gives {fact.text}; the tool gives {near.leaf.text} "
                            f"({near.leaf.path or 'text'}), one digit apart", [evidence_of(near.leaf, self.index)])
        elif backing[0] in ("recomputed", "user_over_record"):
            set_verdict(fact, Verdict.CONTRADICTED, *backing)
        elif backing[0] == "derived" and (found := per_unit_sum_as_total(fact, self.index, self._said)
                                          or self._listed_per_unit(fact, claimed, exponent)
                                          or alike_or_counted(fact, self.index, self._said)
                                          or self._part_of_written(fact)):
            # arithmetic backs a total only as the records compute it: the legs' sum is one traveller's
            set_verdict(fact, Verdict.CONTRADICTED, *self._recomputed(fact, found))
        elif backing[0] == "context" and (found := self._part_of_written(fact)):
            # a policy's $50 per bag said charged where the write recorded one $150 payment for three
            set_verdict(fact, Verdict.CONTRADICTED, *self._recomputed(fact, found))
        else:
            set_verdict(fact, Verdict.SUPPORTED, *backing)

    def _found(
        self, fact: Fact, matches: list[Located], claimed: Decimal, exponent: int, minor: Decimal | None
    ) -> None:
        """Give a number some tool states its verdict: its role or record may still contradict it."""
        if self._role_disagrees(fact, matches) or self._condition_disagrees(fact, matches):
            return
        if self._users_count(fact, claimed, exponent):
            said = "number found in a tool output; the user gave it too" + in_minor_units(matches, minor)
            set_verdict(fact, Verdict.SUPPORTED, "match", said, [evidence_of(matches[0].leaf, self.index)])
        elif not self._of_another(fact, matches):
            said = "number found in a tool output" + in_minor_units(matches, minor)
            set_verdict(fact, Verdict.SUPPORTED, "match", said, [evidence_of(matches[0].leaf, self.index)])

    def _listed_parts(self, fact: Fact, same_field: list[Located], claimed: Decimal, exponent: int) -> Backing | None:
        """The answer's last listed amounts added up to the claimed total. Where a tool states the field's one value,
        the parts cannot outvote it when that value's own record holds them (a bill's `total` after its `credit`), and
        take three or more when it is another record's (another invoice's `total: 58` beside four listed lines)."""
        if not stated_total(fact, [loc.mention.value for loc in same_field], self._claim_facts):
            return self._after_a_list(claimed, exponent)
        parts = self.amounts[-3:]
        if len(parts) < 3 or any(self._holds(loc, parts) for loc in same_field):
            return None
        return self._after_a_list(claimed, exponent, 3)

    def _holds(self, loc: Located, amounts: list[Decimal]) -> bool:
        """Whether the record that holds a located value holds every one of the amounts too."""
        record = record_path(loc.leaf.path)
        value = self.index.value_at(loc.leaf.index, record) if record else self.index.flats[loc.leaf.index].value
        held = {Decimal(str(v)) for v in scalars_of(value) if isinstance(v, int | float) and not isinstance(v, bool)}
        return all(a in held for a in amounts)

    def _stated_elsewhere(self, fact: Fact, targets: list[tuple[Decimal, int]], minor: Decimal | None,
                          labels: frozenset[str], same_field: list[Located]) -> list[Located]:
        """The tool outputs' own numbers equal to a claimed number that its field's values contradict, each in a field
        that names nothing the claim's words do not (`available`, `payable`; not `shipping_fee` for a refund of its
        amount), unless each is one unit's amount (an item's price in a list, `rate_per_night`) the claim does not
        call one unit's: "the total paid was $49.57" of a $49.57 item among several stays a contradiction."""
        found = [loc for loc in priced_in_minor_units(self.index, self.index.equal_numbers(targets), minor, fact)
                 if loc.leaf.source == "tool" and not loc.leaf.path.startswith("args") and loc.leaf.numeric]
        if not found:
            return []
        claim, phrase = self._claim_text.lower(), self._own_phrase(fact)
        line = {id(loc): names_line(loc, labels, claim, phrase, self.index) for loc in found}
        plain_word = plain_amount_word(self._claim_text[: max(0, fact.start - self._records.start)], labels,
                                       self.index.lex)
        stated = [loc for loc in found if loc.leaf.labels <= labels or line[id(loc)]
                  or self._plain_money(fact, labels, loc, same_field, plain_word)
                  or plain_duration(fact, labels, loc, self.index.lex)]
        if not stated or self.index.lex.per_unit_words.finditer(self._claim_text):
            return stated
        if all((PER_UNIT_FIELD.search(field_name(loc.leaf.path)) or "[" in loc.leaf.path
                and loc.leaf.labels & PRICE_LABELS) and not line[id(loc)] for loc in stated):
            return []  # one unit's amounts, unless the claim names the line ("CHEM 221 lab fee $75")
        return stated

    def _own_phrase(self, fact: Fact) -> str:
        """The claim's words (lower case) from the fact before the number, or the claim's start, up to the number."""
        start = self._records.start
        before = max((f.end for f in self._claim_facts if f.end <= fact.start), default=start)
        return self._claim_text[max(0, before - start) : max(0, fact.start - start)].lower()

    def _plain_money(self, fact: Fact, labels: frozenset[str], loc: Located, same_field: list[Located],
                     plain_word: bool) -> bool:
        """Whether an amount the claim names by generic words only ("cost", "paid") may be the value of a money
        field of another name: "Each extra bag cost £7.00" is a bag's `price`, whatever else was `charged`; never
        a count's, nor another field of the record whose own field of the claim's word says otherwise (已经缴了
        1550 元 of a statement whose `paid` is 4800 and whose `outstanding` is 1550), unless that word names an amount
        and nothing of what it is (`plain_word`, `roles.plain_amount_word`: 本期账单金额 of `statement_balance`,
        beside the statement's `min_payment`)."""
        if fact.unit not in self.index.lex.currency_codes or not labels <= self.index.lex.generic_field_labels \
                or loc.leaf.labels & self.index.lex.not_money_labels:
            return False
        if plain_word:
            return True  # "本期账单金额：¥8,426.37" of `statement_balance`, beside the record's `min_payment`
        record = record_path(loc.leaf.path)
        return not any(other.leaf.index == loc.leaf.index and record_path(other.leaf.path) == record
                       for other in same_field)

    def _of_another(self, fact: Fact, located: list[Located]) -> bool:
        """Contradict a found number that is another record's or call's, or in another currency or unit; whether
        it was (or was backed by the named record, see `_wrong_record`)."""
        return self._wrong_record(fact, located) or self._wrong_call(fact, located) \
            or self._wrong_currency(fact, located) or self._wrong_unit(fact, located)

    def _users_count(self, fact: Fact, claimed: Decimal, exponent: int) -> bool:
        """Whether a small whole number is one the user gave, said as a party's size or a condition ("seats for
        3" after "three of us", "能买到 3 张的"): the user's own number, not a value taken from another record that
        happens to hold it."""
        if fact.unit in self.index.lex.currency_codes or claimed != claimed.to_integral_value() \
                or not 0 < claimed < _SMALL_COUNT:
            return False
        at = fact.start - self._records.start
        before, after = self._claim_text[max(0, at - 16) : at], self._claim_text[fact.end - self._records.start :]
        return bool(_PARTY_BEFORE.search(before) or _PARTY_AFTER.match(after)) \
            and self._context(claimed, exponent) is not None

    def _fitting(self, fact: Fact, backing: Backing | None, claimed: Decimal, exponent: int) -> Backing | None:
        """A derivation only when it fits the number's role: a total is no difference or quotient ("total $0.5"
        of 3.5 − 3); a column's sum may still be it."""
        if backing is None or backing[0] != "derived" or fits_role(fact, backing[1], self.index, self._said):
            return backing
        backing = column_total(claimed, exponent, self.index)
        return backing if backing is not None and fits_role(fact, backing[1], self.index, self._said) else None

    def _record_total(self, fact: Fact) -> Backing | None:
        """A claimed total of the record the claim names by key, against the sum of its items."""
        found = record_items_total(fact, self.index, self._said)
        return None if found is None else self._recomputed(fact, found)

    def _other_total(self, fact: Fact) -> Recomputed | None:
        """The total of the record the claim names by key, when a claimed total a tool gives elsewhere is not it
        ("Order #W5199551 with a total of $2025.51", one item's price, when its five items add up to $3,131.10)."""
        return record_items_total(fact, self.index, self._said)

    def _not_of_money(self, located: list[Located], whole: bool) -> list[Located]:
        """The places that may speak for a count or a measure: none in a field of money (`amount`, `fee`; not
        `refund_days`, `price_points`, nor "3-5 business days" in `refund_timing`), and for a `whole` count none in a
        field any of whose numbers has cents (117.61, and so the 0 beside it), nor a number the tool wrote with a
        decimal point (`"total": 1385.0` is no count of 5 tickets)."""
        lex = self.index.lex
        cents = _fields_with_cents(located) if whole else set()
        return [loc for loc in located
                if not (loc.leaf.labels & lex.money_labels and not loc.leaf.labels & lex.not_money_labels
                        and (loc.mention.unit is None or loc.mention.unit in lex.currency_codes))
                and _field_of(loc) not in cents
                and not (whole and loc.leaf.source == "tool"
                         and isinstance(self.index.value_at(loc.leaf.index, loc.leaf.path), float))]

    def _role_disagrees(self, fact: Fact, located: list[Located]) -> bool:
        """Contradict a found number whose role the records compute otherwise: a per-unit amount given as the
        total, or a superlative's option that is not the best of its list (the computation is the evidence)."""
        said = self._said
        found = per_unit_as_total(fact, located, self.index, said) \
            or unit_price_as_line(fact, located, self.index, said)
        if found is not None and self._states_too(fact, found.value):
            found = None  # "| Notebook A5 | 5 | $3.20 | $16.00 |": the unit price beside the line's total
        found = found or selection(fact, located, self.index, said) or self._other_total(fact)
        if found is None and (refund := item_price_as_refund(fact, located, self.index)) is not None:
            found = Recomputed(*refund)
        found = found or per_unit_field_as_whole(fact, located, self.index, said) \
            or per_unit_beside_its_whole(fact, located, self.index, said) or self._part_of_written(fact)
        if found is None:
            return False
        set_verdict(fact, Verdict.CONTRADICTED, *self._recomputed(fact, found))
        return True

    def _per_unit_disagrees(self, fact: Fact, located: list[Located]) -> bool:
        """Contradict a number no value of its field holds that is one unit's amount of a record with a multiplicity
        (a line's unit price beside its quantity, `fee_per_period` beside `total_fee`) said as the whole."""
        found = per_unit_as_total(fact, located, self.index, self._said, of_lines=False)
        if found is None or self._states_too(fact, found.value):
            return False
        set_verdict(fact, Verdict.CONTRADICTED, *self._recomputed(fact, found))
        return True

    def _part_of_written(self, fact: Fact) -> Recomputed | None:
        """The whole charge or refund a write recorded, when the claimed one is an equal part of it ("I charged the
        $34 difference" of a $68 payment for two)."""
        def said_too(whole: Decimal) -> bool:  # read only where the claimed amount is one part of a write's
            return any(f.kind == FactKind.NUMBER and f.value and f.unit == fact.unit and Decimal(f.value) == whole
                       for f in self._claim_facts if f is not fact)

        clause = self._said.text[slice(*clause_bounds(fact, self._said, labelled=True))]  # "Charged: $50.00"
        whole = part_of_written(fact, clause, self.index, said_too)
        return None if whole is None else Recomputed(*whole)

    def _states_too(self, fact: Fact, value: Decimal) -> bool:
        """Whether the claim itself gives the value recomputed for one of its numbers, as another number of it
        ("| Notebook A5 | 5 | $3.20 | $16.00 |": the line's total stands beside its unit price)."""
        return any(f is not fact and f.kind == FactKind.NUMBER and f.value and f.unit == fact.unit
                   and Decimal(f.value) == value for f in self._claim_facts)

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
            if part.kind == FactKind.NUMBER and self._after_suffix_cue(part):
                continue  # "尾号 9690 的信用卡支付 $1,671": the end of a card number names a part, it is none
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
        if found.per_unit and not adds_up(found):  # "12.5 kg × 2.2 = ¥27.50" writes the rate, if not its currency
            self._units_of_a_rate(fact, found)
            return
        if adds_up(found):
            if fact.verdict.flagged and all(f.verdict == Verdict.SUPPORTED for f in found.operands):
                set_verdict(fact, Verdict.SUPPORTED, "derived", f"number equals {found.how} (the answer's working)", [])
        elif not (fact.verdict == Verdict.SUPPORTED and fact.code == "match") and not another_reading(found):
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

    def _names_field(self, fact: Fact, loc: Located) -> bool:
        """Whether the words beside the number (within `_BESIDE` characters, in its clause, no other fact between)
        name the tool number's field (`user_word.names_field`)."""
        begin, end = self._records.clause(fact)
        begin = max([begin, fact.start - _BESIDE, *(f.end for f in self._claim_facts if f.end <= fact.start)])
        end = min([end, fact.end + _BESIDE, *(f.start for f in self._claim_facts if f.start >= fact.end)])
        start = self._records.start
        text = self._claim_text
        beside = f"{text[begin - start : fact.start - start]} {text[fact.end - start : end - start]}"
        units = {(f.unit or "").lower() for f in self._claim_facts}
        return names_field(beside, loc.leaf.path or "", units, self.index.lex.limit_fields)

    def _after_suffix_cue(self, fact: Fact) -> bool:
        """Whether digits stand right after a suffix cue ("ending in 0921", "尾号 4471"): the end of an identifier."""
        if not fact.text.isdigit():
            return False
        before = self._claim_text[: max(0, fact.start - self._records.start)]
        if _MASK_BEFORE.search(before):
            return True  # "checking ****4471": a masked account number's last digits
        prefix = before.rstrip(" *_`")[-20:]  # ending **4417**
        cue = self.index.lex.suffix_cues.finditer(prefix)
        return bool(cue) and cue[-1].end == len(prefix)

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

    def _members(self, fact: Fact, claimed: Decimal) -> Backing | None:
        """A count of a record's members the records give otherwise ("共有 3 位乘客" of four passengers)."""
        if fact.unit in self.index.lex.currency_codes or fact.unit == "%":
            return None
        found = member_count(fact, claimed, self._claim_text, self._records.start, self._claim_facts, self.index)
        if found is not None and _PARTY_BEFORE.search(self._claim_text, 0, max(0, fact.start - self._records.start)):
            return None  # "Total for 2 passengers": the party a search or a price is for
        return found

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


def _field_of(loc: Located) -> str:
    """The field a tool's number is in, whatever record of a list holds it (`bills[2].balance` -> `balance`)."""
    return loc.leaf.path.rsplit(".", 1)[-1].split("[", 1)[0]


def _fields_with_cents(located: list[Located]) -> set[str]:
    """The fields any of whose numbers has a fractional part: amounts of money or measures, no counts."""
    return {_field_of(loc) for loc in located
            if (number := Decimal(loc.mention.value)) != number.to_integral_value()}
