"""What may back a number no field states as claimed: counts, durations, rates and arithmetic."""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal
from functools import cached_property
from itertools import chain, combinations, product

from factcheck.grounding.arithmetic import days_between, equal_at, find_operation, line_item_total, sum_text
from factcheck.grounding.claim_state import ClaimState
from factcheck.grounding.counting import available_count, filtered_count
from factcheck.grounding.evidence import Leaf, Located
from factcheck.grounding.flat import shape_of
from factcheck.grounding.item_totals import named_items_total
from factcheck.grounding.moments import duration_seconds, record_duration, seconds_between
from factcheck.grounding.multiplicity import dated_span, party_said, time_units
from factcheck.grounding.roles import PER_UNIT_FIELD, Recomputed, claims_a_total, priced_per_unit
from factcheck.grounding.subsets import SubsetTotal, per_unit_stay_total, subset_total
from factcheck.grounding.totals import column_total
from factcheck.grounding.user_word import record_near
from factcheck.grounding.verdicts import Backing, evidence_of
from factcheck.grounding.windows import current_time
from factcheck.lexicon import field_name
from factcheck.report import Fact, FactKind, Verdict

_STATED_LABELS = frozenset({"balance", "total"})
"""Labels of a value a record states as it stands: no sum or difference of its field speaks for another value."""
_BARE_NUMBER = re.compile(r"-?[\d,]*\.?\d+")
"""An output that is one number and nothing else (a calculator's "1126.04")."""
_LISTED = (FactKind.DATE, FactKind.TIME, FactKind.IDENTIFIER, FactKind.URL, FactKind.EMAIL)
"""Kinds of fact a claim may list and count ("14:00 和 15:30 两个时段")."""
_TIMES_A_RATE = re.compile(r"(?:/\s*|\bper\s+|\ba\s+|每)(night|day|week|晚|天|周)\s*[×x*]\s*$", re.IGNORECASE)
"""A multiplier right after a rate of a unit of time ("$299.00/night × 5"): a count of that unit, nights here."""
_OF_MANY = re.compile(r"\s+(?:of|out of)\s+(?:the\s+|your\s+)?\d", re.IGNORECASE)
"""What follows a count of some of a list's items: "2 of the 3 payouts"."""
_WINDOW = re.compile(r"(?i)(?:\b(?:last|past|previous|recent|prior)|最近|近|过去)\s*$")
"""A window counted back from now right before a number ("in the last 30 days", 最近 7 天): the window of the request,
which the user's or the context's number gives, not a record's value of its field."""
_LISTED_AMOUNTS = 12
"""Most amounts of an answer's list a later total may add up."""


class NumberBackings(ClaimState):
    """Each way a number may be backed besides its field's value; each returns a `Backing` or None."""

    def _named_items(self, fact: Fact) -> Backing | None:
        """The prices of the items the claim names, added up (a refund of two named items)."""
        found = named_items_total(fact, self.index, self._said)
        if found is None:
            return None
        if not equal_at(found.value, Decimal(fact.value or "0"), -(fact.precision or 0)):
            return self._recomputed(fact, found)  # a total of named items they do not add up to: the wrong subset
        return "derived", f"number equals {found.how}", [evidence_of(found.where.leaf, self.index, found.how)]

    def _in_words(self, targets: list[tuple[Decimal, int]]) -> Backing | None:
        """The number as a tool writes it in words ("三名成年人" of "3 个成年人")."""
        found = self.index.other_forms.word_numbers(targets)
        if not found:
            return None
        return "match", "number found in a tool output, written in words", [evidence_of(found[0].leaf, self.index)]

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

    def _suffix(self, fact: Fact, segment: bool = False) -> Backing | None:
        """Digits after a suffix cue (`_after_suffix_cue`) backed by a tool string ending with them; with `segment`,
        digits without a cue, backed only by an identifier whose last segment they are."""
        leaf = self.index.string_ending_with(fact.text, segment)
        if leaf is None:
            return None
        return "derived", f"{leaf.text!r} ends with {fact.text}", [evidence_of(leaf, self.index)]

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

    def _subset_total(self, fact: Fact) -> Backing | None:
        """The sum over the items of a list that hold a status the claim says (the approved claims' total)."""
        found = self._subset_of(fact)
        if found is None:  # no status singles items out: the two rooms' nightly rates summed, times the nights
            found = per_unit_stay_total(fact, self.index)
        if found is None or not found.agrees:
            return None
        return "derived", f"number equals {found.how}", [evidence_of(found.leaf, self.index, found.how)]

    def _subset_recomputed(self, fact: Fact) -> Backing | None:
        """The total of the items of the one status the claim's total is of, when it is not the claimed amount."""
        found = self._subset_of(fact)
        if found is None or found.agrees:
            return None
        return "recomputed", f"the records give {found.how}, not {fact.text}", [
            evidence_of(found.leaf, self.index, found.how)]

    def _subset_of(self, fact: Fact) -> SubsetTotal | None:
        """`subset_total` of the fact, worked out once: a backing asks first, the final verdict again."""
        if self._subset[0] is not fact:
            self._subset = (fact, subset_total(fact, self.index, self._said))
        return self._subset[1]

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
        context gives ("ends on July 11, 10 days from today"), or one of the claim or an earlier claim and the
        current time the context or a tool gives ("bought on March 1, which is 19 days ago").
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
        unit = (fact.unit or "").lower()
        if not unit and (rate := _TIMES_A_RATE.search(self._claim_text[: max(0, fact.start - self._records.start)])):
            unit = rate[1].lower()  # "$299.00/night × 5": 5 nights, as a stay's dates give them
            for call in range(len(self.index.calls)):
                output = self.index.value_at(call, "")
                span = dated_span(output, "nights") if isinstance(output, dict) else None
                if span is not None and span[0] == claimed * self.duration_days.get(unit, 0) \
                        and (leaf := self.index.first_leaf(call)) is not None:
                    return "derived", f"number equals the {span[1]}", [evidence_of(leaf, self.index, span[1])]
        days_per_unit = self.duration_days.get(unit)
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
        now = current_time(self.index)
        if now is not None:  # "您 1 月 5 日投保，距今 7 天", "现在才过去 2 天": a claim's (or earlier) date to now
            today = f"{now[0]:%Y-%m-%d}"
            earlier = [(f.value or "", f.text, f.evidence[:1]) for f in self.moments if f.kind == FactKind.DATE]
            for value, text, evidence in dates + earlier:
                days = days_between(value, today)
                if days is not None and claimed * days_per_unit == days:
                    how = f"the {days} days from {text} to now ({today})"
                    return "derived", f"number equals {how}", [ev.model_copy(update={"note": how}) for ev in evidence]
        return None

    def _derived(self, claimed: Decimal, exponent: int, money: bool = False) -> Backing | None:
        """Arithmetic over one tool output's numbers and the answer's backed ones, if enabled; with `money` (an
        amount of money claimed), a sum or difference across calls only of amounts of money ($167.87 + 10 items
        is no price)."""
        if not self.derive:
            return None
        listed = self._after_a_list(claimed, exponent) or self._after_lines(claimed, exponent)
        if listed is not None:
            return listed
        answer = [(v, None) for v in self.verified[-8:]]
        for locs, operands, total in self._call_operands:
            found = self._arithmetic(operands + answer, claimed, exponent, money)
            if found is not None:
                return found
            if total is not None and equal_at(total, claimed, exponent):
                how = "the sum of price × quantity over the line items"
                return "derived", f"number equals {how}", [evidence_of(locs[0].leaf, self.index, how)]
        return (
            column_total(claimed, exponent, self.index)
            or self._across_calls(claimed, exponent, money=money)
            or self._converted(claimed, exponent)
            or self._party_multiple(claimed, exponent)
            or self._listed_stay_total(claimed, exponent)
        )

    def _listed_per_unit(self, fact: Fact, claimed: Decimal, exponent: int) -> Recomputed | None:
        """A total that adds up per-night or per-day rates the answer listed before it, when the records give the
        nights or days they are for ("每晚¥480 … 每晚¥890 … 合计: ¥2,260" of a 4-night stay): the total is the sum
        times that count."""
        found = self._per_unit_parts(claimed, exponent, times_said=False)
        if found is None or not claims_a_total(fact, self.index, self._said):
            return None
        parts, times, what, where = found
        total = claimed * times
        return Recomputed(total, f"{sum_text([str(p) for p in parts])} = {claimed.normalize():f} for one unit; "
                          f"× {times} ({what}) = {total.normalize():f}", where)

    def _listed_stay_total(self, claimed: Decimal, exponent: int) -> Backing | None:
        """The per-night or per-day rates the answer listed before, added up, times the nights or days the records
        give them for ("每晚¥480 … 每晚¥890 … 4 晚合计 ¥5,480")."""
        found = self._per_unit_parts(claimed, exponent, times_said=True)
        if found is None:
            return None
        parts, times, what, where = found
        how = f"{sum_text([str(p) for p in parts])} × {times} ({what})"
        return "derived", f"number equals {how}", [evidence_of(where.leaf, self.index, how)]

    def _per_unit_parts(
        self, claimed: Decimal, exponent: int, times_said: bool
    ) -> tuple[list[Decimal], int, str, Located] | None:
        """The last amounts the answer listed, each a tool's per-night or per-day rate whose records give one count
        of nights or days, whose sum (or, `times_said`, sum times that count) is `claimed`: (the amounts, the
        count, how the records give it, a rate's place)."""
        amounts = self.amounts[-_LISTED_AMOUNTS:]
        counts: set[tuple[int, str]] = set()
        where = None
        for k in range(1, len(amounts) + 1):  # from the last amount back, while each is a rate of one count
            part = amounts[-k]
            # a rate of each night listed (`nightly_rate: [688, 728]`) is that night's, already the stay's part
            rates = [loc for loc in self.index.equal_numbers([(part, part.as_tuple().exponent)]) if loc.leaf.source
                     == "tool" and PER_UNIT_FIELD.search(field_name(loc.leaf.path.rsplit(".", 1)[-1]))
                     and not loc.leaf.path.endswith("]")]
            units = {u for loc in rates if (u := time_units(self.index, loc.leaf)) is not None}
            counts |= units
            if not rates or len(units) != 1 or len(counts) != 1:
                return None
            where = where or rates[0]
            times, what = next(iter(counts))
            parts = amounts[-k:]
            if k > 1 and equal_at(sum(parts) * (times if times_said else 1), claimed, exponent):
                return parts, times, what, where
        return None

    def _party_multiple(self, claimed: Decimal, exponent: int) -> Backing | None:
        """A total the party the claim names shares equally ("Total for both of you: $270.00" of a $135 fare):
        one person's share is a tool's number, or the sum of the last amounts the answer gave."""
        party = party_said(self._claim_text, self.index.lex)
        if party is None:
            return None
        share = claimed / party
        found = [loc for loc in self.index.equal_numbers([(share, exponent)]) if loc.leaf.source == "tool"]
        if found:
            how = f"{party} × {format(share.normalize(), 'f')}, the party the answer names"
            return "derived", f"number equals {how}", [evidence_of(found[0].leaf, self.index, how)]
        amounts = self.amounts[-_LISTED_AMOUNTS:]
        for k in range(1, len(amounts) + 1):
            if equal_at(sum(amounts[-k:]) * party, claimed, exponent):
                parts = sum_text([str(v) for v in amounts[-k:]])
                how = f"{party} × {parts} (the party and the amounts the answer gives)"
                return "derived", f"number equals {how}", []
        return None

    def _after_a_list(self, claimed: Decimal, exponent: int, parts: int = 2) -> Backing | None:
        """The sum of the last amounts the answer gave (at least `parts` of them), when they add up to it ("…
        $258.84, $232.49, $259.97. That comes to $750.30 in total.")."""
        amounts = self.amounts[-_LISTED_AMOUNTS:]
        for k in range(parts, len(amounts) + 1):
            if equal_at(sum(amounts[-k:]), claimed, exponent):
                how = sum_text([str(v) for v in amounts[-k:]]) + " (the amounts the answer gives before it)"
                return "derived", f"number equals {how}", []
        return None

    def _after_lines(self, claimed: Decimal, exponent: int) -> Backing | None:
        """The sum of what the answer's last lines come to, each its last amount ("Room: $189 + $189 + $215 =
        $593.00 / Resort fee: $25 × 3 nights = $75.00 / Occupancy tax: $93.29 / Total: $761.29"); only for a
        number no field of its label gives (a tool's own total outranks the answer's lines)."""
        lines = [v for start, v in self.line_amounts[-_LISTED_AMOUNTS:] if start != self._records.start]
        for k in range(2, len(lines) + 1):
            if equal_at(sum(lines[-k:]), claimed, exponent):
                how = sum_text([str(v) for v in lines[-k:]]) + " (what the answer's lines before it come to)"
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
            for other, how in ((value - claimed, "{a} − {b}"), (claimed - value, "{b} + {a}")):
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

    def _with_field(self, fact: Fact, labels: frozenset[str], same_field: list[Located], claimed: Decimal,
                    exponent: int) -> Backing | None:
        """A sum or difference of one of the field's values and one of the answer's backed numbers, or of two of the
        field's values ("原价 ¥746.80，退款完成后您实际支付 ¥268.80" of a refund `amount` of 478): the value the label
        names worked out from the field ("还能再住 8 晚" of 25 − 17 nights). Two values added up are of one field
        (two records' `amount`), not two fields the label fits (`payout_amount` + `held_amount`). Not for a balance
        or a total, which the record states as it stands, nor a product or a quotient (a per-unit amount said as the
        whole is the error to catch), nor a sum of counts (1 + 2 books said as three is as often a miscount)."""
        if labels & _STATED_LABELS:
            return None
        fields = [(Decimal(loc.mention.value), loc.leaf) for loc in same_field[:8]]
        values = [v for v, _ in fields] + self.verified[-8:]
        money = fact.unit in self.index.lex.currency_codes
        addends = [not (money and self._counts(leaf, v)) for v, leaf in fields] + [True] * len(self.verified[-8:])
        for (i, a), (j, b) in combinations(enumerate(values), 2):
            if i >= len(fields) and j >= len(fields) or not (addends[i] and addends[j]):
                continue  # two of the answer's numbers are read before (`_arithmetic`)
            # counts added up are as often a count's error; two fields the label fits added up
            # (`payout_amount` + `held_amount`) are a total over the wrong records as often as a total
            one_field = j >= len(fields) or _last_key(fields[i][1].path) == _last_key(fields[j][1].path)
            sums = ((a + b, f"{a} + {b}"),) if money and one_field else ()
            for total, how in (*sums, (abs(a - b), f"{max(a, b)} − {min(a, b)}")):
                if equal_at(total, claimed, exponent):
                    leaf = fields[i][1]
                    return "derived", f"number equals {how}", [evidence_of(leaf, self.index, how)]
        return None

    def _arithmetic(
        self, operands: list[tuple[Decimal, Leaf | None]], claimed: Decimal, exponent: int, money: bool = False
    ) -> Backing | None:
        """A sum of all operands, or one simple operation on two, equal to the claim; with `money` (an amount of
        money claimed), a tool's count is never added or subtracted ($170.68 − 20 items), only multiplied."""
        values = [v for v, _ in operands]
        addends = [leaf is None or not self._counts(leaf, value) for value, leaf in operands] if money else None
        if len(values) > 1 and equal_at(sum(values), claimed, exponent) and (addends is None or all(addends)):
            how = sum_text([str(v) for v in values])
            leaf = next((lf for _, lf in operands if lf is not None), None)
            return "derived", f"number equals {how}", [evidence_of(leaf, self.index, how)] if leaf else []
        found = find_operation(values, claimed, exponent, self._rated, addends)
        if found is None:
            return None
        i, j, how = found
        leaf = operands[i][1] or operands[j][1]
        return "derived", f"number equals {how}", [evidence_of(leaf, self.index, how)] if leaf else []

    def _counts(self, leaf: Leaf, value: Decimal) -> bool:
        """Whether a tool's number counts something: a list's length, or a whole number of a field whose labels are
        all of counts and measures (`quantity`, `nights`: the lexicon's `not_money_labels`) or none (`seats_left`);
        not a `discount` of 20, nor the `nightly_rate` of a list of `rooms`."""
        return leaf.count or value == value.to_integral_value() and leaf.labels <= self.index.lex.not_money_labels

    def _computed_by_a_tool(self, targets: list[tuple[Decimal, int]]) -> Backing | None:
        """A number a tool's whole output is ("1126.04" of `calculate`): worked out by a tool, whatever the field."""
        for loc in self.index.equal_numbers(targets):
            leaf = loc.leaf
            if leaf.source == "tool" and not leaf.path and not leaf.count and _BARE_NUMBER.fullmatch(leaf.text.strip()):
                return "match", "number a tool computed (its whole output)", [evidence_of(leaf, self.index)]
        return None

    def _context_over(
        self, fact: Fact, same_field: list[Located], claimed: Decimal, exponent: int
    ) -> Backing | None:
        """The context's number, for a claim whose field a tool states otherwise: a rule the context states
        ("按 100 积分抵 1 元"), a value asked for ("change it to Suite 641"), one of several records; never the
        user's word over the value the record holds ("I'm pretty sure it's $160.75" when the price is 150.75),
        nor over a tool's number a digit off it (`_users_word`)."""
        lex = self.index.lex
        if _WINDOW.search(self._said.text, 0, fact.start - self._said.start):
            return self._context(claimed, exponent)  # "Paid in the last 30 days", the window the user asked about
        records = len({Decimal(loc.mention.value) for loc in same_field}) == 1 or all(
            loc.leaf.source == "tool" and not loc.leaf.count and "[" not in loc.leaf.path for loc in same_field
        )  # one value, or one record per call (a stock's price, a tax): not options the user chooses among
        if lex.speech_acts["policy_markers"].search(self._claim_text) or self._asks_new_value():
            return self._context(claimed, exponent)  # a rule, or the new value asked for ("update it to Suite 641")
        if priced_per_unit(fact, self._said, lex):
            # "超出部分每件 50 美元" where the ticket's `price` is 133: a rule's rate per unit, which the context states
            return self._users_word(fact, claimed, exponent)
        if records:
            return None
        return self._users_word(fact, claimed, exponent)  # one of several records, unless a digit off the user's

    def _users_word(self, fact: Fact, claimed: Decimal, exponent: int) -> Backing | None:
        """The context's number, unless a tool gives one a digit off it: then the answer repeats what the user
        misremembered over the record ("I'm pretty sure it's 132" when the order's street number is 123)."""
        backing = self._context(claimed, exponent)
        if backing is None or not fact.value:
            return backing
        near = record_near(self.index, fact.value, exponent, fact.unit)
        if near is None:
            return backing
        return "user_over_record", (f"{fact.text} is the user's own number; the tool gives {near.leaf.text} "
                                    f"({near.leaf.path or 'text'}), one digit apart"), [
            evidence_of(near.leaf, self.index), *backing[2][:1]]

    def _context(self, claimed: Decimal, exponent: int) -> Backing | None:
        for loc in self.index.context_mentions:
            if loc.mention.kind == FactKind.NUMBER and equal_at(Decimal(loc.mention.value), claimed, exponent):
                return "context", "number found in the context, not a tool", [evidence_of(loc.leaf, self.index)]
        return None


def _last_key(path: str) -> str:
    """The last field of a leaf's path, its list indexes dropped (`orders[2].net` -> `net`)."""
    return shape_of(path).rsplit(".", 1)[-1]
