"""The fact checker: claims out of an answer, grounded in the run's tool outputs."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from decimal import localcontext
from typing import Any

from factcheck.bounds import bounded_answer, bounded_text, bounded_value
from factcheck.calibration import Calibration, agent_doer, answer_stats, flag_features
from factcheck.config import CheckerConfig
from factcheck.excerpts import place_excerpts
from factcheck.extractors.categories import CategoryExtractor
from factcheck.extractors.claims import ClaimExtractor
from factcheck.extractors.json_answer import JsonAnswer, read_escaped_answer, read_json_answer
from factcheck.extractors.mentions import MentionExtractor
from factcheck.extractors.methods import MethodExtractor
from factcheck.extractors.segment import Segmenter, detect_lang
from factcheck.extractors.speech_acts import EXACT_KINDS, SpeechActClassifier
from factcheck.extractors.status import StatusExtractor
from factcheck.grounding.all_in import all_in_picks
from factcheck.grounding.availability import listed_as_available
from factcheck.grounding.block_items import items_of_block
from factcheck.grounding.date_shifts import record_date_moved, record_time_moved
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.kept_times import day_moved
from factcheck.grounding.listed import closing_total, listed_count, listed_total
from factcheck.grounding.locate import locate
from factcheck.grounding.matcher import Matcher
from factcheck.grounding.own_sums import worked_by_the_answer
from factcheck.grounding.partial_writes import partial_reported_whole
from factcheck.grounding.record_blocks import record_of_block
from factcheck.grounding.slips import slipped_pair
from factcheck.grounding.swapped_values import key_swapped_words, swapped_values
from factcheck.grounding.unit_dimensions import total_of_one_dimension
from factcheck.grounding.verdicts import evidence_of, evidence_strength, swapped_pairs
from factcheck.grounding.working import left_after_used
from factcheck.lexicon import DONE_CONCEPT, load_lexicon
from factcheck.phrases import forget_words, marked_done
from factcheck.report import OPAQUE_KINDS, Claim, Report, worst
from factcheck.typography import plain_text, plain_value
from factcheck.verify import second_opinions

_LANGS = ("zh", "en", "mixed")
SWAP_CONFIDENCE = 0.9
"""The least confidence of two wrong-record flags that hold each other's records' values, a swap
(`verdicts.swapped_pairs`)."""



_DIGITS = 100
"""Decimal precision of a check: numbers of up to this many digits are compared exactly."""


class FactChecker:
    """Reusable checker: lexicons and spaCy pipelines are loaded once, at construction."""

    def __init__(self, config: CheckerConfig | None = None) -> None:
        """Build a checker.

        Args:
            config: Settings; the defaults need no download and no network.
        """
        self.config = config or CheckerConfig()
        self.lexicon = load_lexicon(self.config.lexicon_paths)
        self.action_tools = dict(self.lexicon.action_tools)
        for concept, names in self.config.action_tools.items():
            self.action_tools[concept] = tuple(names)
        self._mentions = MentionExtractor(self.lexicon)
        self._statuses = StatusExtractor(self.lexicon)
        self._claims = ClaimExtractor(
            Segmenter(self.lexicon.list("abbreviations"), self.config.nlp),
            self._mentions,
            self._statuses,
            MethodExtractor(self.lexicon),
            CategoryExtractor(self.lexicon),
        )
        self._acts = SpeechActClassifier(self.lexicon)
        self.calibration = Calibration.load(self.config.calibration_path)
        """The table that gives each flag its confidence."""

    def check(
        self,
        answer: str,
        tool_calls: Sequence[Any] = (),
        context: Sequence[str] = (),
        lang: str | None = None,
    ) -> Report:
        """Check an answer against the tool calls of its run.

        Args:
            answer: The agent's final answer.
            tool_calls: What the tools returned: mappings with `name`, `args`,
                `output`, `status` (`ok`/`error`), LangChain `ToolMessage`s, or
                bare outputs (a JSON value: str, number, dict, list, None; or bytes).
            context: Other text the answer may rely on (user messages, system
                prompt, policy); a fact found only here is backed by context.
            lang: `zh`, `en` or `mixed`; detected from the script when None.

        Returns:
            The report, with the claims in answer order.

        Raises:
            TypeError: when `answer` is not a str, `tool_calls`/`context` are
                not sequences, or an item of `tool_calls` is none of the shapes above
                (a tuple, another object; a bare JSON value is an output, a bare None
                a call that returned nothing, noted): the message names its position.
            ValueError: for an unknown `lang`.
        """
        started = time.perf_counter()
        if not isinstance(answer, str):
            raise TypeError(f"answer must be a str, not {type(answer).__name__}")
        tool_calls = _as_list(tool_calls, "tool_calls")
        context = _as_list(context, "context")
        if lang is not None and lang not in _LANGS:
            raise ValueError(f"lang must be one of {_LANGS} or None, not {lang!r}")
        forget_words()
        # "I’ve sent" read as "I've sent", "**$86**" as "  $86  "; the report keeps the answer as written
        plain = plain_text(answer)
        scanned, notes = bounded_answer(plain, self.config.max_answer_chars)
        depth = min(self.config.max_json_depth, 400)
        context = [plain_value(c) for c in _bounded_context(context, depth, self.config.max_output_chars, notes)]
        try:
            return self._check(answer, plain, scanned, tool_calls, context, lang, notes, started)
        except (ValueError, OverflowError) as exc:  # an int too long to write or to make a float
            if isinstance(exc, ValueError) and "integer string conversion" not in str(exc):
                raise
        return self._check(answer, plain, scanned, _bounded_calls(tool_calls, depth, notes), context, lang, notes,
                           started)

    def _check(self, answer: str, plain: str, scanned: str, tool_calls: list[Any], context: list[Any],
               lang: str | None, notes: list[str], started: float) -> Report:
        """`check` of inputs already read to their bounds (`plain`: the answer as read, `typography.plain_text`;
        `scanned`: the part of it read)."""
        with localcontext() as exact:  # numbers of up to 100 digits compared exactly, not at 28
            exact.prec = _DIGITS
            index = EvidenceIndex(tool_calls, context, self.config, self.lexicon, self._mentions, self._statuses)
            matcher = Matcher(index, self.action_tools, self.config.derive_arithmetic, self.config.name_cutoff)
            # {"message": "…"}, or text escaped twice ("…\\n2. …"): the prose inside is what the user reads
            view = read_json_answer(scanned, self.lexicon.says_record_state) or read_escaped_answer(scanned)
            source = view.text if view else scanned
            claims = self._claims.extract(source)
            end = 0
            for claim in claims:
                if view is None:  # the answer's own text, where bounds blanked a part of it
                    claim.text = plain[claim.start : claim.end]
                # an action said done in general (`DONE_CONCEPT`) speaks only when every action call failed: it is
                # no part of what the claim is, nor of its facts' weight otherwise
                claim.act = self._acts.classify(claim.text, [f for f in claim.facts if f.concept != DONE_CONCEPT],
                                                claim.start)
                if not claim.act.asserts:  # an offer, a rule or the request restated: its exact facts only,
                    premises = self._acts.premises(claim.text, claim.facts, claim.start)  # and the states it rests on
                    claim.facts = [f for f in claim.facts if f.kind in EXACT_KINDS or any(f is p for p in premises)]
                matcher.ground_claim(claim.facts, claim.text, claim.start, gap=source[end : claim.start],
                                     asserts=claim.act.asserts)
                claim.facts = [f for f in claim.facts if f.concept != DONE_CONCEPT or f.verdict.flagged]
                end = claim.end
            listed_count(claims, source, index)  # "I found three grills:" and a list of two after it
            listed_total(claims, source, index)  # "a combined balance of $202.69:" and its three parts after it
            closing_total(claims, source, index)  # "| **Total** | | **$190.55** |" under its four rows
            record_of_block(claims, source, index)  # "Order ID: #W7181492" over the items of #W5565470
            if view is None:  # a JSON answer's view lists fields line by line: no block of prose about one record
                items_of_block(claims, source, index)  # "AirPods Pro 2 … Tracking No.: <the other parcel's number>"
            partial_reported_whole(claims, source, index)  # "All four of you are confirmed" after `result: partial`
            swapped_values(claims, source, index)  # "李娜：座位 32C" where 李娜's seat is 32B and 张子轩's 32C
            key_swapped_words(claims, source, index)  # "INC0081452 …由孙磊跟进" where 孙磊 is RITM0033710's assignee
            all_in_picks(claims, source, index)  # "cheapest once fees are included is Balcony" of 62 + 14 > 66 + 6.50
            slipped_pair(claims, index)  # "德邦便宜 32.80 元" beside 205.20 元 and 182.40 元
            listed_as_available(claims, index)  # "Here are the keyboards in stock:" over an unavailable one
            left_after_used(claims)  # "共 30GB，已用 24.6GB，剩余 6.4GB": 30 − 24.6 = 5.4
            day_moved(claims, index)  # "2025年10月19日（周六）19:30" of `new_time: 2025-10-18 19:30`
            record_date_moved(claims, index)  # "Drop-off：4 月 7 日" of `dropoff: 2025-04-06`, a date never said
            record_time_moved(claims, index)  # "Pick-up: 7:30 AM" of `pickup_time: 07:15`, a time never said
            total_of_one_dimension(claims, index)  # "两间房住三晚总共 ¥1,317" of ¥439 per room per night
            worked_by_the_answer(claims)  # "尾款合计 ¥10,020" of its own ¥2,000 + ¥8,020, not `total: 8740`
        if view is not None:
            _to_raw_offsets(claims, view, answer)
        lang = lang or detect_lang(view.text if view else answer)
        self._weigh_flags(claims, lang, tool_calls, context, index)
        # a second opinion on flags within its band, when a verifier is set
        verifier = second_opinions(self, claims, index) if self.config.verifier is not None else None
        for claim in claims:
            self._settle_claim(claim, index)
        if view is None:
            _as_written(claims, answer, plain)
        report = Report(answer=answer, lang=lang, claims=claims, notes=[*notes, *index.notes],
                        tool_call_count=len(tool_calls), verifier=verifier)
        place_excerpts(report, tool_calls, context)  # display only: where in a long field the fact was found
        report.elapsed_ms = (time.perf_counter() - started) * 1000
        return report

    def _weigh_flags(
        self, claims: list[Claim], lang: str, tool_calls: list[Any], context: list[str], index: EvidenceIndex
    ) -> None:
        """Give every contradicted or unsupported fact its strength and confidence, and mark those below the
        threshold; each flag is weighed on its own evidence, never on how many calls or flags the run has."""
        flags = [(claim, f) for claim in claims for f in claim.facts if f.verdict.flagged]
        if not flags:
            return
        stats = answer_stats(lang, context)
        threshold = self.config.min_confidence
        for claim, fact in flags:
            done = fact.code == "no_tool_call" and marked_done(claim.text, max(0, fact.start - claim.start),
                                                               len(fact.text))
            fact.strength = evidence_strength(fact, index, agent_doer(fact, claim), claim.text, done)
            if not tool_calls and fact.code == "no_tool_call":
                fact.confidence = 1.0  # a run that called no tool at all cannot have done what the claim narrates
            else:
                fact.confidence = self.calibration.confidence(flag_features(fact, claim, stats))
        for fact in swapped_pairs([fact for _, fact in flags]):
            fact.strength = "swapped"  # measured right in every pair read so far (5 of 5 on the read blind batches)
            fact.confidence = max(fact.confidence or 0.0, SWAP_CONFIDENCE)
        for claim, fact in flags:
            if fact.code == "no_tool_call":
                # "已发布至平台，链接 <a link no tool gave>": the made-up product is evidence the action did not run
                made_up = [f.confidence or 0.0 for f in claim.facts if f.kind in OPAQUE_KINDS and f.code == "not_found"]
                fact.confidence = max([fact.confidence or 0.0, *made_up])
            fact.uncertain = (fact.confidence or 0.0) < threshold
            claim.confidence = max(claim.confidence or 0.0, fact.confidence or 0.0)

    def _settle_claim(self, claim: Claim, index: EvidenceIndex) -> None:
        """The claim's verdict, reason and evidence from its facts' (uncertain flags do not count)."""
        claim.verdict = worst([f.verdict for f in claim.facts if not f.uncertain])
        if not claim.facts:
            claim.reason = "no checkable fact"
            return
        uncertain = [f for f in claim.facts if f.uncertain]
        if uncertain and not claim.verdict.flagged:
            top = max(uncertain, key=lambda f: f.confidence or 0.0)
            claim.reason = f"uncertain (confidence {top.confidence:.2f}): {top.reason}"
        else:
            claim.reason = next(f for f in claim.facts if f.verdict == claim.verdict and not f.uncertain).reason
        seen = set()
        for fact in claim.facts:
            for ev in fact.evidence[:1]:
                key = (ev.source, ev.index, ev.path)
                if key not in seen:
                    seen.add(key)
                    claim.evidence.append(ev)
        if claim.flagged and not claim.evidence:
            found = locate(claim.text, index.text_leaves, self.config.fuzzy_cutoff)
            if found is not None:
                leaf, start, end, score = found
                ev = evidence_of(leaf, index, f"closest wording, score {score:.0f}")
                ev.text = leaf.text[start:end]
                claim.evidence.append(ev)


def _to_raw_offsets(claims: list[Claim], view: JsonAnswer, answer: str) -> None:
    """Claims and facts found in a JSON answer's prose, placed in the raw answer (`answer[start:end] == text`)."""
    for claim in claims:
        claim.start, claim.end = view.raw_span(claim.start, claim.end)
        claim.text = answer[claim.start : claim.end]
        for fact in claim.facts:
            fact.start, fact.end = view.raw_span(fact.start, fact.end)
            fact.text = answer[fact.start : fact.end]


def _as_written(claims: list[Claim], answer: str, plain: str) -> None:
    """Claims and facts read in `plain` (the answer with `typography.plain_text`) given the answer's own text."""
    if plain is answer:
        return
    for claim in claims:
        claim.text = answer[claim.start : claim.end]
        for fact in claim.facts:
            if fact.text == plain[fact.start : fact.end]:
                fact.text = answer[fact.start : fact.end]


def _bounded_calls(tool_calls: list[Any], depth: int, notes: list[str]) -> list[Any]:
    """Tool calls with the ints too long for Python to write replaced (noted)."""
    calls = []
    for i, call in enumerate(tool_calls):
        call, more = bounded_value(call, depth)
        calls.append(call)
        notes.extend(f"tool call {i}: {n}" for n in more)
    return calls


def _bounded_context(context: list[Any], depth: int, max_chars: int, notes: list[str]) -> list[Any]:
    """Context items that are not text, as text read to `depth` levels (noted)."""
    texts = []
    for i, item in enumerate(context):
        if not isinstance(item, (str, bytes, bytearray)) and item is not None:
            item, more = bounded_text(item, depth, max_chars)
            notes.extend(f"context[{i}]: {n}" for n in more)
        texts.append(item)
    return texts


def _as_list(value: Any, name: str) -> list[Any]:
    """`tool_calls` or `context` as a list; a lone context string is one item."""
    if value is None:
        return []
    if name == "context" and isinstance(value, str):
        return [value]
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be a list, not {type(value).__name__}")
    return list(value)


_default: FactChecker | None = None


def check(
    answer: str,
    tool_calls: Sequence[Any] = (),
    context: Sequence[str] = (),
    lang: str | None = None,
) -> Report:
    """Check an answer with a shared default `FactChecker` (see `FactChecker.check`)."""
    global _default
    if _default is None:
        _default = FactChecker()
    return _default.check(answer, tool_calls=tool_calls, context=context, lang=lang)
