"""Give each fact a verdict by comparing it with the evidence index."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from decimal import ROUND_HALF_UP, Decimal
from itertools import combinations

from factcheck.grounding.evidence import EvidenceIndex, Leaf, Located, StatusEvidence
from factcheck.report import Evidence, Fact, FactKind, Verdict

_SHOW = 120
# Which evidence polarities agree with a claimed one ("not shipped" is true of "pending").
_AGREES = {
    "positive": {"positive"},
    "negative": {"negative", "pending"},
    "pending": {"pending"},
}


def evidence_of(leaf: Leaf, index: EvidenceIndex, note: str | None = None) -> Evidence:
    """The report's view of a leaf."""
    text = leaf.text if len(leaf.text) <= _SHOW else leaf.text[: _SHOW - 1] + "…"
    if leaf.source == "context":
        return Evidence(source="context", index=leaf.index, path=leaf.path, text=text, note=note)
    call = index.calls[leaf.index]
    return Evidence(
        source="tool", index=leaf.index, tool_name=call.name, tool_status=call.status,  # type: ignore[arg-type]
        path=leaf.path, text=text, note=note,
    )


def _set(fact: Fact, verdict: Verdict, code: str, reason: str, evidence: list[Evidence]) -> None:
    fact.verdict, fact.code, fact.reason, fact.evidence = verdict, code, reason, evidence


class Matcher:
    """Ground facts: exact facts exactly, statuses by concept and polarity."""

    def __init__(self, index: EvidenceIndex, action_tools: dict[str, tuple[str, ...]], derive: bool) -> None:
        self.index = index
        self.action_tools = action_tools
        self.derive = derive
        self.verified: list[Decimal] = []
        """Numbers of this answer already backed, usable as operands ("3 晚共 4,740 元")."""

    def ground(self, fact: Fact) -> None:
        """Set the fact's verdict, code, reason and evidence."""
        if fact.kind in (FactKind.URL, FactKind.EMAIL, FactKind.IDENTIFIER):
            self._token(fact)
        elif fact.kind == FactKind.NUMBER:
            self._number(fact)
        elif fact.kind in (FactKind.DATE, FactKind.TIME):
            self._date_time(fact)
        else:
            self._status(fact)

    # ---------- exact tokens ----------
    def _token(self, fact: Fact) -> None:
        value = fact.value or ""
        url = fact.kind == FactKind.URL
        leaf = self.index.tools.find_token(value, url=url)
        if leaf is not None:
            _set(fact, Verdict.SUPPORTED, "match", f"{fact.kind.value} found in a tool output",
                 [evidence_of(leaf, self.index)])
            return
        leaf = self.index.context.find_token(value, url=url)
        if leaf is not None:
            _set(fact, Verdict.SUPPORTED, "context", f"{fact.kind.value} found in the context, not a tool",
                 [evidence_of(leaf, self.index)])
            return
        what = {"url": "link", "email": "e-mail address", "identifier": "identifier"}[fact.kind.value]
        _set(fact, Verdict.UNSUPPORTED, "not_found",
             f"no tool output holds the {what} {fact.text!r}", [])

    # ---------- numbers ----------
    def _number(self, fact: Fact) -> None:
        self._number_verdict(fact)
        if fact.verdict == Verdict.SUPPORTED and fact.value:
            value = Decimal(fact.value)
            self.verified.append(value / 100 if fact.unit == "%" else value)

    def _number_verdict(self, fact: Fact) -> None:
        claimed = Decimal(fact.value or "0")
        exponent = -(fact.precision or 0)
        labels = frozenset((fact.concept or "").split("+")) - {""}
        matches = [loc for t, e in _targets(fact, claimed, exponent) for loc in self._equal_numbers(t, e)]
        same_field: list[Located] = []
        if labels:
            best = 0
            for loc in self.index.numbers:
                overlap = len(labels & loc.mention.labels)
                if overlap > best:
                    best, same_field = overlap, [loc]
                elif overlap and overlap == best:
                    same_field.append(loc)
            if same_field:
                agree = [loc for loc in matches if loc in same_field]
                if agree:
                    _set(fact, Verdict.SUPPORTED, "match", "number matches the same field",
                         [evidence_of(agree[0].leaf, self.index)])
                    return
                if not self._count_ok(fact, claimed) and not self._field_total_ok(fact, claimed, exponent, same_field):
                    # the tool states this field's value: only its own total or the
                    # answer's backed numbers may explain another value
                    shown = ", ".join(sorted({loc.mention.value for loc in same_field})[:3])
                    _set(fact, Verdict.CONTRADICTED, "value_mismatch",
                         f"tool gives {shown} for {'/'.join(sorted(labels))}, not {fact.text}",
                         [evidence_of(loc.leaf, self.index) for loc in same_field[:2]])
                    return
        if matches:
            _set(fact, Verdict.SUPPORTED, "match", "number found in a tool output",
                 [evidence_of(matches[0].leaf, self.index)])
            return
        if self._count_ok(fact, claimed):
            return
        if self._derived_ok(fact, claimed, exponent):
            return
        context = [loc for loc in self.index.context_numbers if _equal(Decimal(loc.mention.value), claimed, exponent)]
        if context:
            _set(fact, Verdict.SUPPORTED, "context", "number found in the context, not a tool",
                 [evidence_of(context[0].leaf, self.index)])
            return
        _set(fact, Verdict.UNSUPPORTED, "not_found", f"no tool output gives {fact.text}", [])

    def _field_total_ok(self, fact: Fact, claimed: Decimal, exponent: int, same_field: list[Located]) -> bool:
        """The sum of the field over line items, or arithmetic on the answer's own backed numbers."""
        by_key: dict[str, list[Located]] = {}
        for loc in same_field:
            by_key.setdefault(re.sub(r"\[\d+\]", "[]", loc.leaf.path), []).append(loc)
        for group in by_key.values():
            if len(group) > 1 and _equal(sum(Decimal(loc.mention.value) for loc in group), claimed, exponent):
                how = "the sum of " + " + ".join(loc.mention.value for loc in group)
                _set(fact, Verdict.SUPPORTED, "derived", f"number equals {how}",
                     [evidence_of(group[0].leaf, self.index, how)])
                return True
        values = self.verified[-8:]
        for a, b in combinations(values, 2):
            for total, op in ((a + b, "+"), (abs(a - b), "-"), (a * b, "×")):
                if _equal(total, claimed, exponent):
                    _set(fact, Verdict.SUPPORTED, "derived",
                         f"number equals {a} {op} {b}, both backed earlier in the answer", [])
                    return True
        return False

    def _derived_ok(self, fact: Fact, claimed: Decimal, exponent: int) -> bool:
        """Back the number with simple arithmetic over one tool output, if enabled."""
        derived = self._derived(claimed, exponent) if self.derive else None
        if derived is None:
            return False
        leaf, how = derived
        _set(fact, Verdict.SUPPORTED, "derived", f"number equals {how}",
             [evidence_of(leaf, self.index, how)] if leaf else [])
        return True

    def _count_ok(self, fact: Fact, claimed: Decimal) -> bool:
        """A count backed by the length of a list in a tool output, or by the calls that ran."""
        ok_calls = [c for c in self.index.calls if c.status == "ok"]
        names = {c.name for c in ok_calls}
        if fact.unit not in (None, "%") and 1 < len(ok_calls) == claimed and len(names) == 1:
            _set(fact, Verdict.SUPPORTED, "derived", f"{len(ok_calls)} successful {ok_calls[0].name} calls", [])
            return True
        for count, leaf in self.index.list_counts:
            if leaf.path.startswith("args"):
                continue
            if count and Decimal(count) == claimed and fact.unit not in (None, "%"):
                _set(fact, Verdict.SUPPORTED, "derived", f"count of {leaf.path or 'the result list'}",
                     [evidence_of(leaf, self.index, f"{count} items in {leaf.path or 'the list'}")])
                return True
        return False

    def _equal_numbers(self, target: Decimal, exponent: int) -> list[Located]:
        values = self.index.number_values
        half = float(Decimal(5).scaleb(exponent - 1)) * 1.000001
        lo = bisect_left(values, (float(target) - half, -1))
        hi = bisect_right(values, (float(target) + half, len(values)))
        numbers = self.index.numbers
        return [
            numbers[i] for _, i in values[lo:hi]
            if _equal(Decimal(numbers[i].mention.value), target, exponent)
        ]

    def _derived(self, claimed: Decimal, exponent: int) -> tuple[Leaf | None, str] | None:
        """A sum or product of numbers from one tool output that equals the claim."""
        by_call: dict[int, list[Located]] = {}
        for loc in self.index.numbers:
            if loc.leaf.count or loc.mention.unit == "%":
                continue
            if len(by_call.setdefault(loc.leaf.index, [])) < 40:
                by_call[loc.leaf.index].append(loc)
        answer_values = self.verified[-8:]
        if answer_values and not by_call:
            by_call[-1] = []
        for locs in by_call.values():
            values = [Decimal(loc.mention.value) for loc in locs]
            if answer_values:  # numbers of this answer already backed by the tools
                locs = locs + [None] * len(answer_values)  # type: ignore[list-item]
                values = values + answer_values
            if len(values) > 1 and _equal(sum(values), claimed, exponent):
                return _first_leaf(locs), "the sum of " + " + ".join(str(v) for v in values)
            for a, b in combinations(range(len(locs)), 2):
                a_count = values[a] == int(values[a]) and 2 <= values[a] <= 100
                b_count = values[b] == int(values[b]) and 2 <= values[b] <= 100
                ops = [(values[a] + values[b], "+"), (abs(values[a] - values[b]), "-")]
                if a_count or b_count:  # price x quantity, never rate x amount
                    ops.append((values[a] * values[b], "×"))
                for base, rate in ((values[a], values[b]), (values[b], values[a])):
                    if 0 < rate < 1 <= base:  # a discount or a tax rate applied to an amount
                        ops += [(base * (1 - rate), "× (1 −"), (base * (1 + rate), "× (1 +")]
                for total, op in ops:
                    if total and _equal(total, claimed, exponent):
                        how = f"{values[a]} {op} {values[b]}" + (")" if "(" in op else "")
                        return _first_leaf([locs[a], locs[b]]), how
            # sum over line items of price x quantity
            products = _line_item_total([loc for loc in locs if loc is not None])
            if products is not None and _equal(products, claimed, exponent):
                return _first_leaf(locs), "the sum of price × quantity over the line items"
        return None

    # ---------- dates and times ----------
    def _date_time(self, fact: Fact) -> None:
        value = fact.value or ""
        for pool, code in ((self.index.dates_times, "match"), (self.index.context_dates_times, "context")):
            for loc in pool:
                if loc.mention.kind == fact.kind and _same_date(value, loc.mention.value):
                    where = "a tool output" if code == "match" else "the context, not a tool"
                    _set(fact, Verdict.SUPPORTED, code, f"{fact.kind.value} found in {where}",
                         [evidence_of(loc.leaf, self.index)])
                    return
        _set(fact, Verdict.UNSUPPORTED, "not_found", f"no tool output gives the {fact.kind.value} {fact.text}", [])

    # ---------- statuses and actions ----------
    def _status(self, fact: Fact) -> None:
        concept, polarity = fact.concept, fact.polarity or "positive"
        pool = [s for s in self.index.statuses if concept is None or s.concept == concept]
        if concept is None:
            self._generic_status(fact, polarity, pool)
            return
        if pool:
            latest = max(s.call for s in pool)
            pool = [s for s in pool if s.call == latest]
            agree = [s for s in pool if s.polarity in _AGREES[polarity]]
            if agree:
                _set(fact, Verdict.SUPPORTED, "match", f"tool says {_say(agree[0])}",
                     [evidence_of(agree[0].leaf, self.index)])
                return
            first = pool[0]
            code = "tool_error" if self.index.calls[first.call].status == "error" else "polarity_mismatch"
            _set(fact, Verdict.CONTRADICTED, code, f"tool says {_say(first)}, answer says {polarity}",
                 [evidence_of(s.leaf, self.index) for s in pool[:2]])
            return
        ran = self._calls_for(concept)
        ok = [c for c in ran if c.status == "ok"]
        if concept == "search" and polarity == "positive":
            ok = ok or [c for c in self.index.calls if c.status == "ok" and c.output not in (None, "", [], {})]
        if ok:
            leaf = next((lf for lf in self.index.tools.leaves if lf.index == ok[-1].index), None)
            if polarity == "positive":
                _set(fact, Verdict.SUPPORTED, "match", f"tool {ok[-1].name} ran successfully",
                     [evidence_of(leaf, self.index)] if leaf else [])
            else:
                fact.reason = f"tool {ok[-1].name} ran; its output states no {concept} status"
            return
        if ran:
            verdict = Verdict.CONTRADICTED if polarity == "positive" else Verdict.SUPPORTED
            _set(fact, verdict, "tool_error", f"tool {ran[-1].name} failed with an error", [])
            return
        if polarity == "negative":
            _set(fact, Verdict.SUPPORTED, "no_tool_call",
                 f"no {concept} tool ran, consistent with not done", [])
            return
        _set(fact, Verdict.UNSUPPORTED, "no_tool_call",
             f"no tool call or output backs {concept} ({fact.text!r})", [])

    def _generic_status(self, fact: Fact, polarity: str, pool: list[StatusEvidence]) -> None:
        """A status that names no concept ("操作成功", "generated"): checked only loosely."""
        agree = [s for s in pool if s.polarity in _AGREES[polarity]]
        if agree:
            _set(fact, Verdict.SUPPORTED, "match", f"tool says {_say(agree[-1])}",
                 [evidence_of(agree[-1].leaf, self.index)])
        elif fact.kind == FactKind.ACTION and not any(c.status == "ok" for c in self.index.calls):
            _set(fact, Verdict.UNSUPPORTED, "no_tool_call",
                 f"the answer claims an action ({fact.text!r}) but no tool call succeeded", [])
        else:
            fact.reason = "status names no concept; not compared"

    def _calls_for(self, concept: str | None):
        if concept is None:
            return []
        names = self.action_tools.get(concept, ())
        return [
            c for c in self.index.calls
            if concept in c.concepts or any(n in (c.name or "").lower() for n in names)
        ]


def _first_leaf(locs: list[Located | None]) -> Leaf | None:
    return next((loc.leaf for loc in locs if loc is not None), None)


def _targets(fact: Fact, claimed: Decimal, exponent: int) -> list[tuple[Decimal, int]]:
    """Values the evidence may hold for a claimed number (15% -> 0.15, 85折 -> 0.85, 2 weeks -> 14 days)."""
    out = [(claimed, exponent)]
    unit = (fact.unit or "").lower()
    if unit == "%":
        out.append((claimed / 100, exponent - 2))
    elif unit == "折":
        rate = claimed / 10 if claimed < 10 else claimed / 100
        out += [(rate, exponent - 2), (1 - rate, exponent - 2)]
    elif unit in ("week", "weeks", "周", "个星期", "星期"):
        out.append((claimed * 7, exponent))
    return out


def _say(s: StatusEvidence) -> str:
    return f"{s.concept or 'status'} {s.polarity} ({s.leaf.path or 'text'}: {s.leaf.text[:40]!r})"


def _equal(evidence: Decimal, claimed: Decimal, exponent: int) -> bool:
    """Equal at the precision written in the answer (¥1,299 == 1299.00; 1.2万 == 12000)."""
    if evidence == claimed:
        return True
    quantum = Decimal(1).scaleb(exponent)
    try:
        return evidence.quantize(quantum, rounding=ROUND_HALF_UP) == claimed.quantize(quantum, rounding=ROUND_HALF_UP)
    except ArithmeticError:
        return False


def _same_date(claimed: str, evidence: str) -> bool:
    if claimed == evidence:
        return True
    if ":" in claimed:
        return False
    cy, cmd = claimed[:-6].strip("-"), claimed[-5:]
    ey, emd = evidence[:-6].strip("-"), evidence[-5:]
    return cmd == emd and (not cy or not ey or cy == ey)


def _line_item_total(locs: list[Located]) -> Decimal | None:
    """Sum of price x quantity across sibling objects of a list (items[i].price * items[i].qty)."""
    rows: dict[str, dict[str, Decimal]] = {}
    for loc in locs:
        path = loc.leaf.path
        if "[" not in path or "." not in path:
            continue
        row, key = path.rsplit(".", 1)
        rows.setdefault(row, {})[key.lower()] = Decimal(loc.mention.value)
    total = Decimal(0)
    for fields in rows.values():
        price = next((v for k, v in fields.items() if "price" in k or "amount" in k), None)
        qty = next((v for k, v in fields.items() if k in ("qty", "quantity", "count", "num")), Decimal(1))
        if price is None:
            return None
        total += price * qty
    return total if rows else None
