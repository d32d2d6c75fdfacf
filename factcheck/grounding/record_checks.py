"""Record-identity checks: a value of another record or call than the one the claim names."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import cached_property

from factcheck.grounding.calls import repeated_tool, said_whole, token_of_another_call, value_of_another_call
from factcheck.grounding.claim_state import ClaimState
from factcheck.grounding.evidence import Leaf, Located
from factcheck.grounding.flat import record_path, shape_of
from factcheck.grounding.member_counts import members_only
from factcheck.grounding.naming import LIST_ITEM, names_record, other_item
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.lexicon import field_name
from factcheck.report import Fact, FactKind, Verdict

_LETTERS = re.compile(r"[^\W\d_]+")
"""A run of letters: a field value holding one has words (a name, "8 hours"), not only a number."""
_SHORTEST_NAME = 3
"""The fewest letters of a value without digits read as a name ("VIP"; not a size's "S")."""
_LEAD_IN = 40
"""Most characters before a value read as the words that name its record ("Drone X4 (4K camera) $499.00")."""


class RecordChecks(ClaimState):
    """Contradict values that only another record or call holds than the one the claim names."""

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
        lex = self.index.lex
        money = lex.currency_codes
        for loc in matches:
            item = LIST_ITEM.match(loc.leaf.path) if loc.leaf.source == "tool" else None
            if item is None or self.index.is_record_key(loc.leaf.path):
                return False  # not in a list item, or a record's key: it names that record
            if fact.unit in money and any(lex.currency_of(w) is None for w in _LETTERS.findall(loc.leaf.text)):
                return False  # "$20" against a truck's "20ft", "¥10" against "10GB": a measure, no amount of money
            paid, unpaid = loc.leaf.labels & lex.money_labels, loc.leaf.labels & lex.not_money_labels
            if fact.kind == FactKind.NUMBER and (unpaid and not paid if fact.unit in money else
                                                 fact.unit and fact.unit != "%" and paid and not unpaid):
                return False  # "$4 more" against a flight's 4 seats, "4 次骑行" against a ride's ¥4 fare: another kind
            if _unnamed_list(item[1]):
                return False  # "12 months: $2,380/month" of a lease's options, a tracking timeline's events
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
                if shape_of(named_items) != shape or not self._same_list(named_call, call, named_items, fact):
                    continue  # a record of another list
                if self._keys_said(other_record, f"{items}[{other}]"):
                    if named_call == call:
                        return False  # "与前天（12 月 1 日）提交的 TK-91004 重复": the claim names the other record too
                    continue  # "vm-api-prod-1: $251.17 → $337.34": the same record in two calls
                own_record = self.index.value_at(named_call, f"{named_items}[{i}]")
                if not isinstance(own_record, dict) or not isinstance(other_record, dict):
                    continue
                if names_record(claim, other_record, own_record, field.split(".")[0]) \
                        or names_record(self._lead_in(fact), other_record, own_record, field.split(".")[0]):
                    return False  # the claim names the other record too ("… $9.99 for the USB-C Cable"), or the
                    # words right before the value do ("Drone X4 (4K camera) $499.00 + Spare Battery $79.00")
                own = self.index.leaf_at(named_call, f"{named_items}[{i}].{field}")
                if own is not None and own.text == loc.leaf.text:
                    # the named record holds the same text (a string is indexed at its first place only)
                    set_verdict(fact, Verdict.SUPPORTED, "match", "number matches the record the answer names",
                                [evidence_of(own, self.index)])
                    return True
                if own is not None and self._says_too(fact, own) and not names_record(
                        self._claim_text.lower(), other_record, own_record, field.split(".")[0]):
                    return False  # "电 ¥161.59、水 ¥72.80、物业费 ¥315.00", "空气净化器 $543.68 + LED 灯泡 $49.80": the
                    # named record's own value is said too, and no word of the claim names the record holding this
                    # one ("武汉仓 120 件，北京仓 8 件" names both: each the other's)
                if own is not None and fact.kind == FactKind.NUMBER and _in_other_words(own.text, loc.leaf.text):
                    return False  # "Unlimited Essentials": the named record's field holds words, and the number
                    # the claim says is no value of that field
                if own is not None:
                    calls = (f" of call {named_call + 1}", f" of call {call + 1}") if named_call != call else ("", "")
                    set_verdict(fact, Verdict.CONTRADICTED, "wrong_record",
                                f"tool gives {own.text} for {own.path}{calls[0]}, the record the answer names, "
                                f"not {fact.text} ({loc.leaf.path}{calls[1]})",
                                [evidence_of(own, self.index), evidence_of(loc.leaf, self.index)])
                    return True
        return False

    def _lead_in(self, fact: Fact) -> str:
        """The claim's words (lower case) right before an amount of money, from the end of the amount before it (or
        the claim's start), at most `_LEAD_IN` characters: what names the record the amount is of in a run of records
        and their prices ("Drone X4 (4K camera) $499.00 + Spare Battery 2-pack $79.00"); "" for other numbers."""
        start, money = self._records.start, self.index.lex.currency_codes
        if fact.unit not in money:
            return ""
        before = [f.end for f in self._claim_facts if f.unit in money and f.end <= fact.start]
        begin = max(max(before, default=start), fact.start - _LEAD_IN)
        return self._claim_text[begin - start : fact.start - start].lower()

    def _same_list(self, named_call: int, call: int, items: str, fact: Fact) -> bool:
        """Whether the named record's list and the match's are one list: the same call's, or the same field of
        two calls of one tool when the claim names its record by a key ("Portable Charger (Item ID: 4063401924) —
        $253.54", the price of an item of another order read by the same tool)."""
        if named_call == call:
            return True
        return self.index.calls[named_call].name == self.index.calls[call].name \
            and (named_call, items) in {(c, i) for c, i, _ in self._records.keyed(fact)}

    def _keys_said(self, record: object, path: str) -> bool:
        """Whether the claim says a value of one of the record's key fields (`path` is where the record is)."""
        text = self._claim_text.lower()
        return isinstance(record, dict) and any(
            isinstance(v, str | int) and not isinstance(v, bool) and said_whole(text, str(v).lower().lstrip("#"))
            and self.index.is_record_key(f"{path}.{k}") for k, v in record.items())

    def _says_too(self, fact: Fact, own: Leaf) -> bool:
        """Whether another number of the claim is the named record's own value of the field: the claim gives each
        record's value in turn, and the value found in another record is that record's."""
        try:
            value = Decimal(own.text)
        except ArithmeticError:
            return False
        return any(other is not fact and other.kind == FactKind.NUMBER and other.value
                   and abs(Decimal(other.value)) == abs(value) for other in self._claim_facts)

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

    def _wrong_call(self, fact: Fact, matches: list[Located]) -> bool:
        """Contradict a value only another call of the same tool gives than the one the claim names ("MSFT");
        a value asked for ("update the address to 476 Maple Drive") may come from any record."""
        return self._repeated_tool and not self._asks_new_value() and value_of_another_call(
            fact, matches, self.index, lambda: self._clause(fact), self._claim_text.lower)

    def _foreign_calls(self, facts: list[Fact]) -> None:
        """Contradict identifiers and names found only in another call of the same tool than the one named."""
        if self._repeated_tool and not self._asks_new_value():
            for fact in facts:
                token_of_another_call(fact, self.index, lambda f=fact: self._clause(f), self._claim_text.lower)

    @cached_property
    def _repeated_tool(self) -> bool:
        """`repeated_tool` of the run, read once per check (every number and claim asks)."""
        return repeated_tool(self.index)

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

    def _keys_of_two_records(self, facts: list[Fact]) -> None:
        """Contradict a key of one item said as another's: "预订号 RV-3315｜…｜桌号 A12" where A12 is the
        `table_no` of RV-3301, an item of the same list. The claim gives one key of each field; the key of the
        item's first key field (`reservation_id`) names the record, the other must be that record's too."""
        by_field: dict[tuple[int, str, str], list[tuple[Fact, int]]] = {}
        for fact in facts:
            ev = fact.evidence[0] if fact.kind == FactKind.IDENTIFIER and fact.verdict == Verdict.SUPPORTED \
                and fact.evidence else None
            item = LIST_ITEM.match(ev.path) if ev is not None and ev.source == "tool" and ev.path else None
            if item is None or "." in ev.path[item.end():] or not (
                    self.index.is_record_key(ev.path) or self._whole_code(fact, ev.index, ev.path)):
                continue
            by_field.setdefault((ev.index, item[1], ev.path[item.end():]), []).append((fact, int(item[2])))
        if len(by_field) < 2 or any(len(v) > 1 for v in by_field.values()):
            return  # one key field only, or a field's keys enumerated
        for (call, items, field), [(fact, i)] in by_field.items():
            for (call2, items2, field2), [(lead, j)] in by_field.items():
                if (call2, items2) != (call, items) or i == j or not self._leads(call, f"{items}[{j}]", field2, field):
                    continue
                value = self.index.value_at(call, f"{items}[{j}].{field}")
                said = (fact.value or fact.text).lower().lstrip("#")
                if value is not None and str(value).lower().lstrip("#") == said:
                    continue  # the named record holds it too
                own = self.index.leaf_at(call, f"{items}[{j}].{field}")
                set_verdict(fact, Verdict.CONTRADICTED, "wrong_record",
                            f"{fact.text} is {items}[{i}].{field}, not of {items}[{j}], the record {lead.text} names",
                            [*fact.evidence[:1], *([evidence_of(own, self.index)] if own is not None else [])])
                break

    def _whole_code(self, fact: Fact, call: int, path: str) -> bool:
        """Whether the field at `path` holds the identifier whole and nothing else (a serial `PF3AB7QZ`, an asset tag):
        a code with digits that tells its record apart like a key field's value does."""
        value = self.index.value_at(call, path)
        said = (fact.value or fact.text).lower().lstrip("#")
        return isinstance(value, str) and value.lower().lstrip("#") == said and any(ch.isdigit() for ch in said)

    def _names_a_member(self, located: list[Located]) -> bool:
        """Whether the claim says a key value (an id, a name) of a record one of `located` sits in."""
        records = {(loc.leaf.index, record_path(loc.leaf.path)) for loc in located}
        return any(self._keys_said(self.index.value_at(call, path), path) for call, path in records)

    def _members_own_measure(self, fact: Fact, labels: frozenset[str], same_field: list[Located],
                             targets: list[tuple[Decimal, int]]) -> bool:
        """Whether a count or measure's field values are list members' own only ("全年 15 天，已休 9 天" where the
        one leave request listed has `days: 2`): they say nothing of a balance or a total the answer works out,
        unless the claim names the member and gives no other number of the unit ("LV-1093 is for 3 days")."""
        if not labels or not labels <= self.index.lex.member_measure_labels or not members_only(same_field, targets):
            return False
        alone = not any(other is not fact and other.kind == FactKind.NUMBER and other.unit == fact.unit
                        for other in self._claim_facts)
        return not (alone and self._names_a_member(same_field))

    def _leads(self, call: int, record: str, lead: str, field: str) -> bool:
        """Whether the record's field `lead` comes before its field `field` (both its keys or codes): the first names
        it."""
        value = self.index.value_at(call, record)
        if not isinstance(value, dict) or lead not in value or field not in value:
            return False
        order = list(value)
        return order.index(lead) < order.index(field)

    def _record_keys(self, call: int, record: str) -> list[Leaf]:
        """The leaves of a record's key fields."""
        value = self.index.value_at(call, record)
        if not isinstance(value, dict):
            return []
        leaves = (self.index.leaf_at(call, f"{record}.{k}") for k in value if self.index.is_record_key(f"{record}.{k}"))
        return [leaf for leaf in leaves if leaf is not None][:1]


def _holds(record: object, value: str) -> bool:
    """Whether a string of `record` (lower case) holds `value`."""
    return isinstance(record, dict) and any(isinstance(v, str) and value in v.lower() for v in record.values())


def _in_other_words(own: str, other: str) -> bool:
    """Whether the named record's value of a field is words a number cannot be compared with: a name with no digit
    ("Unlimited Essentials", "VIP"; not a size's "S"), or words other than those beside the number in the other
    record's value ("8 hours" against "20 hours" compares; "Orch N 104" against "$20" does not)."""
    words = [w.lower().rstrip("s") for w in _LETTERS.findall(own)]
    if not words:
        return False
    if not any(ch.isdigit() for ch in own):
        return sum(map(len, words)) >= _SHORTEST_NAME
    others = [w.lower().rstrip("s") for w in _LETTERS.findall(other)]
    return bool(others) and others != words


def _unnamed_list(items: str) -> bool:
    """Whether a list's entries are bare options to choose from (`options`) or the steps of one record (`events`,
    `schedule`, `instalments`, `charges`): an answer compares or walks them, and a value of one beside a word of
    another is no value taken from the wrong record. (Flights, rooms and listings are records of their own.)"""
    return field_name(items.rsplit(".", 1)[-1]) in _UNNAMED_LISTS


_UNNAMED_LISTS = frozenset({"options", "events", "history", "timeline", "schedule", "instalments", "installments",
                            "charges", "milestones", "scans"})
"""Lists whose entries are bare options or the steps and parts of one record, not records of their own."""
