"""Ground statuses and claimed actions: by concept and polarity, in the records the claim names."""

from __future__ import annotations

import re
from functools import cached_property

from factcheck.grounding.all_states import not_all_in_state
from factcheck.grounding.awaited import awaited_state
from factcheck.grounding.calls import named_calls, said_whole
from factcheck.grounding.counting import AGREES
from factcheck.grounding.evidence import EvidenceIndex, Leaf, StatusEvidence, ToolRecord
from factcheck.grounding.flat import shape_of, value_in
from factcheck.grounding.naming import LIST_ITEM, ClaimRecords, other_item
from factcheck.grounding.status_calls import (
    by_status_field,
    counted_search,
    failed_for_named,
    failed_lookup,
    latest_stating,
    named_record_disagrees,
    of_named_calls,
    read_disagrees,
    say,
)
from factcheck.grounding.trust import backing_statuses
from factcheck.grounding.verdicts import evidence_of, set_verdict, status_strength, write_message
from factcheck.grounding.write_outcomes import (
    entry_of_write_disagrees,
    named_write_failed,
    only_writes_failed,
    outcome_still_pending,
    pending_after_write,
    record_state_only,
    said_done,
    sorted_by_state,
)
from factcheck.lexicon import DONE_CONCEPT, field_name, term_key
from factcheck.phrases import AGENT_DOER, said_alone, window_before
from factcheck.report import Fact, FactKind, Verdict

_ARGUMENT_KEY = 4
"""The shortest argument value that names a record (`TK-501`, a barcode; not `1` or `en`)."""


class StatusMatcher:
    """Statuses against what the latest call stating their concept says; actions against the calls that ran."""

    def __init__(self, index: EvidenceIndex, action_tools: dict[str, tuple[str, ...]], records: ClaimRecords) -> None:
        self.index = index
        self.action_tools = action_tools
        self.read_only = index.lex.read_only_tools
        self.records = records
        """The list items the claim in hand names (shared with the matcher)."""

    def ground(self, fact: Fact, claim_facts: list[Fact], claim: str = "", at: int = 0) -> None:
        """Set the verdict of a status or action fact.

        Args:
            fact: The fact.
            claim_facts: Every fact of its claim (an action narrated beside other facts with nothing run is flagged).
            claim: The claim's text.
            at: Where the fact starts in the claim's text ("今日任务全部" stands before "完成").
        """
        concept, polarity = fact.concept, fact.polarity or "positive"
        if concept == DONE_CONCEPT:
            said_done(self.index, fact, self._writes)
            return
        before = claim[:at]
        if polarity == "positive" and term_key(fact.text) in self.index.lex.presenting:
            # "Here are the details of the order": it presents what the run read, whatever the record's status
            found = [c for c in self.index.calls if c.status == "ok" and c.output not in (None, "", [], {})]
            if found:
                leaf = self.index.first_leaf(found[-1].index)
                set_verdict(fact, Verdict.SUPPORTED, "match", f"tool {found[-1].name} returned what it presents",
                            [evidence_of(leaf, self.index)] if leaf else [])
                return
        if concept == "search" and polarity == "negative" and failed_lookup(self.index, fact):
            return  # "the budgets lookup timed out", 这次没查到: a failed call says so, whatever other reads found
        if polarity == "positive" and not self.index.lex.hedges.search(window_before(claim[:at], 5, 8)) \
                and (awaited := awaited_state(self.index, fact)) is not None:
            set_verdict(fact, Verdict.CONTRADICTED, "polarity_mismatch",
                        f"tool says {awaited.text!r}: what the answer says done is still awaited",
                        [evidence_of(awaited, self.index)])
            return
        pool = self.index.statuses(concept)
        if concept is not None and not pool and not self.calls_for(concept):
            sense = self._other_sense(fact, claim)
            if sense is not None:  # "已经发出去了" of an article: the run published, it shipped nothing
                concept = fact.concept = sense
                pool = self.index.statuses(concept)
        if not pool and concept in self.index.lex.generic_concepts:
            # "订单已确认" where the outputs state CONFIRMED of the booking the order is
            pool = self.index.record_statuses()
        pool = backing_statuses(pool, self.index.calls)  # structured fields outrank prose and untrusted text
        pool = self._status_fields_first(pool)
        if (odd := not_all_in_state(fact, polarity, pool, claim, at, claim_facts, self.index)) is not None:
            set_verdict(fact, Verdict.CONTRADICTED, "record_state", f"tool says {say(odd)}: not all are {fact.text}",
                        [evidence_of(odd.leaf, self.index)])
            return
        if concept is None:
            self._generic_status(fact, polarity, pool, claim_facts, before, claim)
            return
        if concept in self.index.lex.completion_concepts and (own := named_record_disagrees(
                self.index, fact, polarity, self.index.record_statuses(), claim_facts, claim, len(before))):
            # "状态：已到账" of refund RF-…3391, whose own `status` is processing
            set_verdict(fact, Verdict.CONTRADICTED, "polarity_mismatch",
                        f"the record the answer names says {say(own)}, answer says {polarity}",
                        [evidence_of(own.leaf, self.index)])
            return
        failed = {c.index for c in self.index.failed_calls}
        if concept != "search":
            # a read that failed ("ReadTimeout: reminders service did not respond") says only that its lookup failed:
            # it is no status of the bills another read lists as paid, nor of a refund said issued
            pool = [s for s in pool
                    if s.call not in failed or not self.read_only.match(self.index.calls[s.call].name or "")]
        if pool and self._standing(fact, before):
            # "unchanged and still confirmed": a call that failed to change the record bears it out
            pool = [s for s in pool if s.call not in failed] or pool
        if concept == "search" and pool:
            # "found no errors, just three warnings": the count the output keeps of what was not found decides
            pool = counted_search(self.index, claim[at + len(fact.text) :]) or pool
        if pool:
            pool = of_named_calls(self.index, claim_facts, pool, claim, fact.start - at)
            if not pool:
                return  # only other records than the one the claim names state this concept
            if self._unnamed_among_records(pool, claim):
                acts = {c.index for c in self.calls_for(concept, action=True)}
                own = [s for s in pool if s.call in acts]
                if len({s.call for s in own}) != 1 or any(s.polarity != "negative" for s in own):
                    fact.reason = "several records state this concept and the claim names none of them; not compared"
                    return
                pool = own  # "已为您成功退款" after issue_refund failed: the act's own call says so, whatever reads say
            if concept == "search" and polarity == "positive" \
                    and (found := [s for s in pool if s.polarity == "positive" and s.call not in failed]):
                # "I found one of the two": a lookup that found something, whatever a later one found
                set_verdict(fact, Verdict.SUPPORTED, "match", f"tool says {say(found[-1])}",
                            [evidence_of(found[-1].leaf, self.index)])
                return
            if sorted_by_state(self.index, fact, polarity, pool, claim_facts, claim, fact.start - at):
                return  # "1 个已签收、2 个还在路上": the claim sorts several records by state
            if not self.index.lex.earlier_markers.search(before):
                # the latest call states the status now; "when I first checked, it was still in progress"
                # speaks of an earlier one
                latest = latest_stating(self.index, pool)
                pool = [s for s in pool if s.call == latest]
            pool = self._of_named_records(fact, pool, polarity)
            if not pool:
                return
            agree = [s for s in pool if s.polarity in AGREES[polarity]] or self._same_state_word(fact, polarity, pool) \
                or self._done_by_write(fact, polarity, pool)
            read_back = bool(agree) and self._read_back_only(fact, agree, before)
            # "I've also emailed a copy" beside an order read back as delivered: no send of this turn; whether a call
            # of the action ran decides, below
            failed = failed_for_named(self.index, lambda: self._named_entries(fact), agree[0].call) \
                if agree and polarity == "positive" else None
            if failed is not None:  # "The Ocean View Suite has been moved as well": its own change failed
                leaf = self.index.first_leaf(failed[0].index)  # the failed call's own error is the evidence
                set_verdict(fact, Verdict.CONTRADICTED, "tool_error",
                            f"tool {failed[0].name} failed for the record the claim names ({failed[1]})",
                            [evidence_of(leaf, self.index)] if leaf else [])
                return
            if agree and not read_back:
                set_verdict(fact, Verdict.SUPPORTED, "match", f"tool says {say(agree[0])}",
                            [evidence_of(agree[0].leaf, self.index)])
                return
            if not read_back:
                first = pool[0]
                code = "tool_error" if self.index.calls[first.call].status == "error" else "polarity_mismatch"
                if code == "tool_error" and record_state_only(self.index, fact, first.call):
                    fact.reason = "a failed call says its change failed, not which state the record is in"
                    return  # "It's already processed, so it can't be cancelled" beside "Error: non-pending order"
                retry = self._retried(fact, first.call) if code == "tool_error" and polarity == "positive" else None
                if retry is not None:  # "Error: user not found" by e-mail, then found by name and zip
                    leaf = self.index.first_leaf(retry.index)
                    set_verdict(fact, Verdict.SUPPORTED, "match",
                                f"tool {retry.name} succeeded after {self.index.calls[first.call].name} failed",
                                [evidence_of(leaf, self.index)] if leaf else [])
                    return
                set_verdict(fact, Verdict.CONTRADICTED, code, f"tool says {say(first)}, answer says {polarity}",
                            [evidence_of(s.leaf, self.index) for s in pool[:2]])
                if polarity != "positive" and code == "polarity_mismatch" \
                        and not write_message(first.leaf, self.index) \
                        and status_strength(fact, self.index) == "own-text":
                    # "has not shipped yet" beside `not_updated[0].reason: already_shipped`, 运输中 beside an event's
                    # 已揽收: prose naming the thing, not a write's own message, is no state a claim of not done denies
                    fact.verdict, fact.code, fact.evidence = Verdict.UNVERIFIABLE, None, []
                    fact.reason = f"only a tool's text says {say(first)}; no status field states it: not compared"
                return
        ran = self.calls_for(concept, action=fact.kind == FactKind.ACTION)
        ok = [c for c in ran if c.status == "ok" and not c.reports_failure]
        if polarity == "positive" and concept != "search" and all(self.read_only.match(c.name or "") for c in ok):
            # "已为您成功免除" after the eligibility check ran and the waiver's own write failed: the write speaks
            ok = [c for c in ok if not any(w.status == "error" and not self.read_only.match(w.name or "") for w in ran)]
        if concept == "search" and polarity == "positive":
            ok = ok or [c for c in self.index.calls if c.status == "ok" and c.output not in (None, "", [], {})]
        if ok:
            leaf = self.index.first_leaf(ok[-1].index)
            if polarity == "positive":
                set_verdict(fact, Verdict.SUPPORTED, "match", f"tool {ok[-1].name} ran successfully",
                            [evidence_of(leaf, self.index)] if leaf else [])
            else:
                fact.reason = f"tool {ok[-1].name} ran; its output states no {concept} status"
            return
        if ran and concept != "search" and all(self.read_only.match(c.name or "") for c in ran):
            # "Two other colors are in stock" after the inventory read failed: its lookup failed, no record's state
            fact.reason = f"tool {ran[-1].name}, a read, failed: it says nothing of the {concept}"
            return
        if ran:
            verdict = Verdict.CONTRADICTED if polarity == "positive" else Verdict.SUPPORTED
            leaf = self.index.first_leaf(ran[-1].index)  # the failed call's own error is the evidence
            said = "reported failure" if ran[-1].reports_failure else "failed with an error"
            set_verdict(fact, verdict, "tool_error", f"tool {ran[-1].name} {said}",
                        [evidence_of(leaf, self.index)] if leaf else [])
            return
        if polarity == "negative":
            set_verdict(fact, Verdict.SUPPORTED, "no_tool_call",
                        f"no {concept} tool ran, consistent with not done", [])
            return
        recorded = self._recorded_by_write(concept) if polarity == "positive" else None
        if recorded is not None:  # a cancellation's output lists the refund it made
            call, leaf = recorded
            set_verdict(fact, Verdict.SUPPORTED, "match", f"tool {call.name} recorded a {concept} ({leaf.path})",
                        [evidence_of(leaf, self.index)])
            return
        failed = only_writes_failed(self._writes) if fact.kind == FactKind.ACTION and polarity == "positive" else None
        if failed is not None:  # "Your lunch is booked" when the one order the run placed came back 409
            leaf = self.index.first_leaf(failed.index)
            set_verdict(fact, Verdict.CONTRADICTED, "tool_error",
                        f"no {concept} tool ran, and every action call of the run failed ({failed.name} last)",
                        [evidence_of(leaf, self.index)] if leaf else [])
            return
        if fact.kind == FactKind.ACTION and polarity == "positive" \
                and named_write_failed(self.index, self._writes, fact, claim, at):
            return  # "I've booked a redelivery" when request_redelivery came back REJECTED
        if polarity == "positive" and outcome_still_pending(self.index, self._writes, fact, claim_facts, claim, at):
            return  # "A refund of $5.29 has been issued" when the one claim filed is pending_review
        set_verdict(fact, Verdict.UNSUPPORTED, "no_tool_call",
                    f"no tool call or output backs {concept} ({fact.text!r})", [])

    @cached_property
    def _writes(self) -> list[ToolRecord]:
        """The run's action calls: every call of a tool not declared a read, in order (read once per answer)."""
        return [c for c in self.index.calls if not self.read_only.match(c.name or "")]

    def _named_entries(self, fact: Fact) -> list[dict]:
        """The list entries the claim names, as their records."""
        entries = (value_in(self.index.flats[call].value, f"{items}[{i}]")
                   for call, items, i in self.records.named(fact))
        return [e for e in entries if isinstance(e, dict)]

    def _of_named_records(self, fact: Fact, pool: list[StatusEvidence], polarity: str) -> list[StatusEvidence]:
        """The statuses of the list items the claim names, and those outside such lists.

        "O-6603 已经发货了" is not backed by O-6601's status in the same list. When only other
        items of the list state the concept, the fact is unsupported and nothing is returned.
        """
        items = [LIST_ITEM.match(s.leaf.path) if s.leaf.source == "tool" else None for s in pool]
        lists = {(s.leaf.index, item[1]) for s, item in zip(pool, items, strict=True) if item is not None}
        named = self.records.records_for(fact, lists)[0] if lists else set()
        if not named:
            return pool
        kept = []
        for s in pool:
            if s.leaf.source != "tool" or not other_item(s.leaf.path, named, s.leaf.index):
                kept.append(s)
            elif (own := self._same_in_named(s, named)) is not None:
                kept.append(StatusEvidence(s.concept, s.polarity, own, s.call))
        if not kept and polarity != "positive":
            # "hasn't been sent yet", 还没到账: another record's state does not speak against a thing not done
            fact.reason = f"tool states {say(pool[0])} of another record than the one the answer names; not compared"
        elif not kept:
            other = pool[0]
            set_verdict(fact, Verdict.UNSUPPORTED, "wrong_record",
                        f"tool states {say(other)} of another record than the one the answer names",
                        [evidence_of(other.leaf, self.index)])
        return kept

    def _same_in_named(self, s: StatusEvidence, named: set[tuple[int, str, str]]) -> Leaf | None:
        """The named record's own leaf for the field `s` was read from, when it holds the same text.

        A string is indexed at its first place only: "DELIVERED" of `orders[0]` stands for
        `orders[2].status` as well.
        """
        item = LIST_ITEM.match(s.leaf.path)
        if item is None:
            return None
        field = s.leaf.path[item.end() :]
        for call, items, i in sorted(named):
            if call == s.leaf.index and shape_of(items) == shape_of(item[1]):
                own = self.index.leaf_at(call, f"{items}[{i}].{field}")
                if own is not None and own.text == s.leaf.text:
                    return own
        return None

    def _generic_status(
        self, fact: Fact, polarity: str, pool: list[StatusEvidence], claim_facts: list[Fact], before: str,
        claim: str = "",
    ) -> None:
        """A status that names no concept ("操作成功", "generated"): checked only loosely.

        Said of everything the run did ("今日任务全部完成", "all done", or a bare "Done!"), any
        failed call contradicts it.
        """
        failed = self.index.failed_calls
        said_of_all = self.index.lex.all_words.search(window_before(before, 3, 6)) or said_alone(
            claim, len(before), len(before) + len(fact.text)
        )
        if polarity == "positive" and failed and said_of_all:
            set_verdict(fact, Verdict.CONTRADICTED, "tool_error", f"tool {failed[0].name} failed, so not all is done",
                        [evidence_of(leaf, self.index)] if (leaf := self.index.first_leaf(failed[0].index)) else [])
            return
        read = self._named_read(claim)
        if read is not None and any(s.call == read.index for s in pool):
            pool = [s for s in pool if s.call == read.index]  # "www.randomsite123.com is available": that call's
        agree = [s for s in pool if s.polarity in AGREES[polarity]] or self._done_by_write(fact, polarity, pool)
        if polarity == "positive" and fact.kind != FactKind.ACTION:
            # "已成功转出", "has been fully approved": a read's list having items says nothing of a success
            agree = [s for s in agree if not (s.concept == "search" and s.leaf.count
                                              and self.read_only.match(self.index.calls[s.call].name or ""))]
        if polarity == "positive" and agree and only_writes_failed(self._writes) is not None \
                and not self.index.lex.record_states_in(fact.text.lower()) \
                and all(self.read_only.match(self.index.calls[s.call].name or "") for s in agree):
            # "已为您改签成功" when the change failed: a search's results say nothing of the action (a record's
            # state, "EXP-1 已批准", is the record's own)
            agree = []
        if agree and fact.kind == FactKind.ACTION and not self._writes \
                and term_key(fact.text) not in self.index.lex.presenting:
            agree = []  # "I've upgraded your plan" after reads only: a record's state read is no action of this turn
        if polarity == "positive" and self._write_state_disagrees(fact, pool, claim_facts):
            return
        if polarity == "positive" and fact.kind == FactKind.STATUS \
                and (pending_after_write(self.index, self._writes, fact, agree, before)
                     or entry_of_write_disagrees(self.index, self._writes, fact, claim, len(before))):
            return  # "You're now confirmed" when the change came back waitlisted, or the booster seat it lists so
        if polarity == "positive" and (own := named_record_disagrees(self.index, fact, polarity, pool, claim_facts,
                                                                     claim, len(before))):
            # "PA-2025-114872 was approved" of a case whose own `status` is submitted
            set_verdict(fact, Verdict.CONTRADICTED, "polarity_mismatch",
                        f"the record the answer names says {say(own)}, answer says {polarity}",
                        [evidence_of(own.leaf, self.index)])
            return
        if agree:
            set_verdict(fact, Verdict.SUPPORTED, "match", f"tool says {say(agree[-1])}",
                        [evidence_of(agree[-1].leaf, self.index)])
        elif (polarity in ("positive", "negative") or fact.kind == FactKind.ACTION) and (
            (not self._standing(fact, before) and self._acting_call_disagrees(fact, polarity, pool, claim))
            or read_disagrees(self.index, fact, polarity, pool, read)
        ):
            return
        elif (
            fact.kind == FactKind.ACTION
            and not any(c.status == "ok" for c in self.index.calls)
            and any(f is not fact for f in claim_facts)
        ):
            # results narrated with nothing run ("here are two new variations: <links>");
            # a bare "here are some tips" is advice, not a claim
            set_verdict(fact, Verdict.UNSUPPORTED, "no_tool_call",
                        f"the answer claims an action ({fact.text!r}) but no tool call succeeded", [])
        elif (
            fact.kind == FactKind.ACTION
            and polarity in ("positive", "pending")
            and term_key(fact.text) not in self.index.lex.presenting
            and not self._writes
        ):
            # "Your return request has been submitted", "I have generated the QR code" after reads only (or no
            # call): nothing that ran could have done it, whatever the action is called
            set_verdict(fact, Verdict.UNSUPPORTED, "no_tool_call",
                        f"the answer claims an action ({fact.text!r}) but every call of the run only read", [])
        else:
            fact.reason = "status names no concept; not compared"

    def _write_state_disagrees(self, fact: Fact, pool: list[StatusEvidence], claim_facts: list[Fact]) -> bool:
        """"Transfer TRF-88412097 … has been completed" when the write that returned TRF-88412097 gives its record
        `status: held_for_review`: the record the action made is still pending, whatever a read's list says."""
        made = {ev.index for f in claim_facts if f.kind == FactKind.IDENTIFIER and f.verdict == Verdict.SUPPORTED
                for ev in f.evidence[:1] if ev.source == "tool" and self.index.calls[ev.index].status == "ok"
                and not self.read_only.match(self.index.calls[ev.index].name or "")}
        if len(made) != 1:
            return False
        call = next(iter(made))
        fields = self.index.lex.status_fields
        own = [s for s in pool if s.call == call and not s.leaf.count
               and fields.search(field_name(s.leaf.path.rsplit(".", 1)[-1]))]
        if not own or any(s.polarity != "pending" for s in own):
            return False  # a failed record's "已经跑完，但结果是 failed" is done, if not well: the write's call speaks
        set_verdict(fact, Verdict.CONTRADICTED, "polarity_mismatch",
                    f"tool {self.index.calls[call].name} says {say(own[0])} of the record it made, answer says done",
                    [evidence_of(own[0].leaf, self.index)])
        return True

    def _standing(self, fact: Fact, before: str) -> bool:
        """Whether the status is the state a record kept ("unchanged and still confirmed", 保持不变，仍是已确认状态):
        a call that failed to change the record bears it out, it does not contradict it."""
        return bool(self.index.failed_calls) and self.index.lex.standing_markers.search(
            window_before(before, 3, 6) + " " + fact.text)

    def _acting_call_disagrees(self, fact: Fact, polarity: str, pool: list[StatusEvidence], claim: str = "") -> bool:
        """A bare "failed" / "成功" said of what the run did, against the run's last write (no read-only tool) of
        the record the claim names, if it names one: contradicted when that call raised and the answer says it
        worked or, for an action, that it was submitted ("I've submitted the return"), or when it worked and its
        output's statuses say so while the answer says it failed ("会议已失败创建" after create_event returned
        success)."""
        writes = self._writes
        if not writes:
            return False
        call = self._acting_write(fact, claim.lower())
        if "send" in call.concepts:
            return False  # a confirmation SMS that failed: the notice failed, not the request it confirms
        if call.status == "error":
            if polarity != "positive" and not (polarity == "pending" and fact.kind == FactKind.ACTION):
                return False  # "I've submitted the return" (pending) when the return call raised: it went nowhere
            if record_state_only(self.index, fact, call.index):
                return False  # "It's already been processed": the record's state, not the failed change
            leaf = self.index.first_leaf(call.index)
            set_verdict(fact, Verdict.CONTRADICTED, "tool_error", f"tool {call.name} failed with an error",
                        [evidence_of(leaf, self.index)] if leaf else [])
            return True
        own = [s for s in pool if s.call == call.index and s.polarity in ("positive", "negative")]
        if polarity == "pending" or not own or any(s.polarity in AGREES[polarity] for s in own):
            return False
        set_verdict(fact, Verdict.CONTRADICTED, "polarity_mismatch", f"tool says {say(own[0])}, answer says {polarity}",
                    [evidence_of(own[0].leaf, self.index)])
        return True

    def _acting_write(self, fact: Fact, text: str) -> ToolRecord:
        """The write whose arguments name most of what the claim (lower-cased `text`) names: a key it says ("TK-501
        已经 transfer 成功"), or a value of a list item it names (《三体》's barcode); the latest of those, or of all
        writes when it names nothing they were given."""
        outputs = [(call, self.index.flats[call].value) for call in range(len(self.index.calls))]
        lists = {(call, field) for call, output in outputs if isinstance(output, dict)
                 for field, value in output.items() if isinstance(value, list) and value and isinstance(value[0], dict)}
        values = set()
        for call, items, i in self.records.named(fact) or self.records.named_by_words(text, lists):
            item = self.index.value_at(call, f"{items}[{i}]")
            if isinstance(item, dict):
                values |= {str(v).lower() for v in item.values()
                           if isinstance(v, str | int) and not isinstance(v, bool)}

        def named(call: ToolRecord) -> tuple[int, int]:  # how many of its arguments the claim names; then the latest
            args = call.args.values() if isinstance(call.args, dict) else ()
            said = [str(v).lower() for v in args if isinstance(v, str | int) and not isinstance(v, bool)]
            return sum(len(v) >= _ARGUMENT_KEY and (v in values or said_whole(text, v)) for v in said), call.index

        return max(self._writes, key=named)

    def _status_fields_first(self, pool: list[StatusEvidence]) -> list[StatusEvidence]:
        """Of each record, its status fields' statuses when it has any: `status: rolled_back` states the deploy,
        not `active_version: v2.4.0` (a field whose name suggests a state) of the same object."""
        def record(s: StatusEvidence) -> tuple[int, str]:  # the call and the object the field sits in
            return s.call, s.leaf.path.rpartition(".")[0]

        named = {record(s) for s in pool if by_status_field(self.index, s)}
        # a count ("results: 3") speaks of what was found, not of the record's state: it stays
        return [s for s in pool if record(s) not in named or by_status_field(self.index, s) or s.leaf.count
                or s.leaf.numeric]

    def _unnamed_among_records(self, pool: list[StatusEvidence], claim: str) -> bool:
        """Whether the statuses come from two or more records of different keys (orders #W1 and #W2 read in
        turn) and the claim names none of them: "the order's status is pending" is of one the answer meant."""
        keys = {call: self.index.record_keys(call) for call in {s.call for s in pool}}
        if len(set(keys.values())) < 2 or any(not found for found in keys.values()):
            return False  # one record (however many keys it has: order_id, user_id), or an unkeyed output
        text = claim.lower()
        if any(k in text for found in keys.values() for k in found):
            return False
        # "Your upgrade to the Junior Suite Ocean View is confirmed": a record named by a long value of its own
        return not any(said_whole(text, value.lower()) for call in keys for value in self._own_values(call))

    def _own_values(self, call: int) -> list[str]:
        """The long strings (a name, a room type; six characters or more, no status word) at the top of a call's
        output record."""
        output = self.index.flats[call].value
        if not isinstance(output, dict):
            return []
        return [v for v in output.values() if isinstance(v, str) and len(v) >= 6
                and not self.index.lex.term_hits(v.lower())]

    def _done_by_write(self, fact: Fact, polarity: str, pool: list[StatusEvidence]) -> list[StatusEvidence]:
        """For an act said submitted ("your change has been submitted", 已为您提交), the positive statuses the run's
        last write gave when it ran: the act was done and its record already done bears it out (`status: "pending
        (item modified)"`); a read's positive state (a policy `active`) or an earlier write's says nothing of it."""
        if polarity != "pending" or fact.kind != FactKind.ACTION or not (writes := self._writes):
            return []
        last = writes[-1]
        return [] if last.status == "error" else [s for s in pool if s.polarity == "positive" and s.call == last.index]

    def _same_state_word(self, fact: Fact, polarity: str, pool: list[StatusEvidence]) -> list[StatusEvidence]:
        """The statuses whose value holds the very state word the claim says, not negated: "Status remains
        pending" of `status: "pending (item modified)"` names the record's state, whatever else the value says."""
        lex = self.index.lex
        words = [hit.key for hit, term in lex.term_hits(fact.text.lower()) if term.polarity == polarity]

        def said(text: str) -> bool:  # "Refund not issued." names the state only to deny it
            return any(
                not lex.negators.search(window_before(text[: m.start()], lex.negation_window.get("en", 4),
                                                      lex.negation_window.get("zh", 3)))
                for w in words for m in re.finditer(rf"(?<!\w){re.escape(w)}(?!\w)", text)
            )

        return [s for s in pool if said(s.leaf.text.lower())]

    def _read_back_only(self, fact: Fact, agree: list[StatusEvidence], before: str) -> bool:
        """Whether an action the agent says it did ("I've emailed", 已为您发送) would be backed only by records that
        declared reads returned: a record's state read back is no act of this turn."""
        # "I've also emailed", 已为您发送; not "I found one order … and it has been delivered"
        near = window_before(before, 3, 6) + (" " if before[-1:].isascii() else "") + fact.text[:1]
        return fact.kind == FactKind.ACTION and any(not _WE.match(m.group()) for m in AGENT_DOER.finditer(near)) \
            and all(self.read_only.match(self.index.calls[s.call].name or "") for s in agree)

    def _named_read(self, claim: str) -> ToolRecord | None:
        """The one read a claim names by its arguments ("www.google.com"), or the run's only call; None when the
        run wrote (its last write speaks, see `_acting_call_disagrees`) or the claim names no single read."""
        calls = self.index.calls
        if not calls or any(not self.read_only.match(c.name or "") for c in calls):
            return None
        if len(calls) == 1:
            return calls[0]
        text = claim.lower()
        named = set().union(*(named_calls(self.index, text, name) for name in {c.name for c in calls}))
        return self.index.calls[next(iter(named))] if len(named) == 1 else None

    def _other_sense(self, fact: Fact, claim: str) -> str | None:
        """The first other concept a word of the fact may speak of that the run has evidence of (lexicon
        `other_senses`); None when the claim names the fact's own concept in other words ("the email was sent")."""
        lex = self.index.lex
        hits = lex.term_hits(fact.text)
        own = {hit.key for hit, _ in hits}
        if any(t.concept == fact.concept and t.polarity is None and h.key not in own for h, t in lex.term_hits(claim)):
            return None
        for hit, _ in hits:
            for concept in lex.other_senses.get(hit.key, ()):
                if self.index.statuses(concept) or self.calls_for(concept):
                    return concept
        return None

    def _retried(self, fact: Fact, failed: int) -> ToolRecord | None:
        """A later call that did what the failed call `failed` tried: the same tool or one performing the
        claim's concept, run successfully with an output after it; a success claimed after a retry holds."""
        name = self.index.calls[failed].name
        doers = {c.index for c in self.calls_for(fact.concept, action=fact.kind == FactKind.ACTION)}
        for call in self.index.calls[failed + 1 :]:
            if call.status == "ok" and call.output not in (None, "", [], {}) and (
                call.name == name or call.index in doers or _same_family(call.name, name)
            ):
                return call
        return None

    def _recorded_by_write(self, concept: str) -> tuple[ToolRecord, Leaf] | None:
        """A successful write (no read-only tool) whose output holds a field value naming `concept` exactly
        (`"transaction_type": "refund"` in a cancellation's payment history): the write made one."""
        words = {w.lower() for w in self.index.lex.concept_words.get(concept, ())}
        if not words:
            return None
        for flat in reversed(self.index.flats):  # the latest write first; argument flats (`root`) are no output
            call = self.index.calls[flat.call]
            if flat.root or call.status != "ok" or self.read_only.match(call.name or ""):
                continue
            if not isinstance(flat.value, dict | list):
                continue
            for shape, places in flat.strings.items():
                for text, (node, key) in places.items():
                    if text.strip().lower() in words:
                        return call, self.index.leaf(call.index, flat.path(node, key), shape, text)
        for call in reversed(self.index.calls):  # a write given what it takes: `payment_id` to a baggage update
            if call.status != "ok" or self.read_only.match(call.name or "") or not call.args:
                continue
            for field in call.args:
                if set(field_name(str(field)).split()) & words and (leaf := self.index.first_leaf(call.index)):
                    return call, leaf
        return None

    def calls_for(self, concept: str | None, action: bool = False) -> list[ToolRecord]:
        """Tool calls that perform `concept`; for an action, a read-only tool (get_refund_status) never does."""
        if concept is None:
            return []
        names = self.action_tools.get(concept, ())
        return [
            c for c in self.index.calls
            if (concept in c.concepts or any(n in (c.name or "").lower() for n in names))
            and not (action and concept != "search" and self.read_only.match(c.name or ""))
        ]


_BY = re.compile(r"_by_|By(?=[A-Z])")


def _same_family(a: str | None, b: str | None) -> bool:
    """Two tools that do one thing by different keys: `find_user_id_by_email` and `find_user_id_by_name_zip`."""
    if not a or not b:
        return False
    head_a, head_b = _BY.split(a, maxsplit=1)[0], _BY.split(b, maxsplit=1)[0]
    return head_a == head_b and head_a != a


_WE = re.compile(r"(?i)we\b|我们")
"""The agent as a plural doer (`AGENT_DOER`'s "we've paid", 我们已): the company's record of the past, maybe; only the
first person singular, or 为您, says what the agent did this turn ("I've also emailed", 已为您发送)."""

