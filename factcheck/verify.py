"""A second opinion on the claims the checks are unsure of: a chat model or a callable, within a budget."""

from __future__ import annotations

import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from factcheck.grounding.locate import locate
from factcheck.report import Claim, SecondOpinion, Verdict, VerifierUse

if TYPE_CHECKING:
    from factcheck.config import CheckerConfig
    from factcheck.grounding.evidence import EvidenceIndex

VerifierFn = Callable[[str, list[str]], tuple[Any, float | None]]
"""A callable verifier: `(claim, evidence excerpts) -> (verdict, confidence)`; the verdict is `supported`,
`contradicted` or `unsupported` (a str or a `Verdict`), the confidence in [0, 1] or None."""

MIN_ANSWER_CONFIDENCE = 0.5
"""A callable's answer below this confidence is no answer: the checks' verdict stands."""
RUN_NAME = "factcheck_verifier"
"""Run name (and tag) of the verifier model's calls."""
_CACHE_SIZE = 4096
_EXCERPTS = 8
"""Most evidence excerpts one question carries."""
_RECORD_CHARS = 600
"""Longest part of a tool record quoted to the verifier."""
_AROUND = 160
"""Characters quoted on each side of a located span."""
_VERDICTS = {v.value: v for v in (Verdict.SUPPORTED, Verdict.CONTRADICTED, Verdict.UNSUPPORTED)}
_INSTRUCTIONS = (
    "You check one claim of an AI agent's answer against excerpts of the records of its run (tool outputs, "
    "and the user's words marked `context`). Judge only from the excerpts, not from what you know. Answer "
    "`supported` when the excerpts state the claim, `contradicted` when they state something else, "
    "`unsupported` when they do not say. Give a one-sentence reason quoting the excerpt."
)

Answer = tuple[Verdict, str, float | None, int | None]
"""verdict, reason, confidence, tokens."""
Key = tuple[str, tuple[str, ...]]
"""What an answer is cached under: the claim and the evidence excerpts shown."""


class ClaimVerdict(BaseModel):
    """The verifier model's answer on one claim."""

    verdict: Literal["supported", "contradicted", "unsupported"]
    """`supported` (the excerpts state it), `contradicted` (they state otherwise), `unsupported` (they do not say)."""
    reason: str
    """One sentence, quoting the excerpt it rests on."""


class SecondOpinions:
    """The verifier of one checker: picks the claims in the band, asks concurrently, caches, counts."""

    def __init__(self, verifier: Any) -> None:
        """Wrap a verifier.

        Args:
            verifier: A LangChain chat model, or a `VerifierFn`.

        Raises:
            TypeError: for anything else.
        """
        self.ask: Callable[[str, list[str]], Answer]
        """Asks the verifier about one claim; raises when it fails or answers nothing usable."""
        if _is_chat_model(verifier):
            self.ask = _ModelAsker(verifier)
            self.source = str(getattr(verifier, "model_name", None) or getattr(verifier, "model", None)
                              or type(verifier).__name__)
        elif callable(verifier):
            self.ask = _callable_asker(verifier)
            self.source = getattr(verifier, "__name__", type(verifier).__name__)
        else:
            raise TypeError(f"verifier must be a LangChain chat model or a callable, not {type(verifier).__name__}")
        self._cache: OrderedDict[Key, Answer] = OrderedDict()
        self._lock = threading.Lock()

    def weigh(self, claims: list[Claim], index: EvidenceIndex, config: CheckerConfig) -> VerifierUse:
        """Ask about the claims in the band and let the answers settle their uncertain flags.

        Args:
            claims: The answer's claims, their flags weighed (confidences set).
            index: The run's evidence, where the excerpts are taken from.
            config: The band, the budget and the timeout.

        Returns:
            What it cost.
        """
        use = VerifierUse()
        low, high = config.verify_between
        band = [c for c in claims if c.confidence is not None and low <= c.confidence < high
                and any(f.verdict.flagged for f in c.facts)]
        band.sort(key=lambda c: -(c.confidence or 0.0))
        use.over_budget = max(0, len(band) - config.verify_max_claims)
        asked = [(c, (c.text, tuple(excerpts(c, index, config.fuzzy_cutoff))))
                 for c in band[: config.verify_max_claims]]
        use.asked = len(asked)
        answers: dict[Key, tuple[Answer, bool]] = {}
        todo: dict[Key, None] = {}
        with self._lock:
            for _, key in asked:
                if key in self._cache:
                    self._cache.move_to_end(key)
                    answers[key] = (self._cache[key], True)
                elif key not in answers:
                    todo[key] = None
        use.cached = sum(1 for _, key in asked if key in answers)
        if todo:
            self._call(list(todo), config.verify_timeout, answers, use)
        for claim, key in asked:
            if key in answers:
                answer, cached = answers[key]
                _settle(claim, answer, self.source, cached)
        return use

    def _call(self, keys: list[Key], timeout: float, answers: dict[Key, tuple[Answer, bool]], use: VerifierUse) -> None:
        """Ask about each key at once, in threads; what answers within `timeout` goes into `answers` and the cache."""
        pool = ThreadPoolExecutor(max_workers=len(keys), thread_name_prefix=RUN_NAME)
        futures: dict[Future[Answer], Key] = {
            pool.submit(self.ask, key[0], list(key[1])): key for key in keys
        }
        done, late = wait(futures, timeout=timeout)
        pool.shutdown(wait=False, cancel_futures=True)
        use.calls = len(keys)
        use.timed_out = len(late)
        for future in done:
            error = future.exception()
            if error is not None:  # the verifier failed or answered nothing usable: the checks' verdict stands
                use.failed += 1
                use.tokens = _plus(use.tokens, error.tokens if isinstance(error, _Unreadable) else None)
                continue
            answer = future.result()
            use.tokens = _plus(use.tokens, answer[3])
            answers[futures[future]] = (answer, False)
            with self._lock:
                self._cache[futures[future]] = answer
                while len(self._cache) > _CACHE_SIZE:
                    self._cache.popitem(last=False)


def _settle(claim: Claim, answer: Answer, source: str, cached: bool) -> None:
    """Let the verifier's verdict settle the claim's flags: `supported` leaves them uncertain, else they count."""
    verdict, reason, confidence, _ = answer
    for fact in claim.facts:
        if fact.verdict.flagged:
            fact.uncertain = verdict is Verdict.SUPPORTED
    claim.second_opinion = SecondOpinion(verdict=verdict, reason=reason, confidence=confidence, source=source,
                                         cached=cached)


def excerpts(claim: Claim, index: EvidenceIndex, cutoff: float) -> list[str]:
    """What the verifier is shown: the evidence located for the claim's facts and the records they bind to.

    Never the whole run: each fact's evidence, the closest wording of the claim in the records when its
    facts have none, and the start of each tool record those come from.

    Args:
        claim: The claim.
        index: The run's evidence.
        cutoff: rapidfuzz score below which no closest wording is taken.

    Returns:
        Up to 8 excerpts, each a line naming where it comes from.
    """
    out: list[str] = []
    records: list[int] = []
    for fact in claim.facts:
        for ev in fact.evidence[:2]:
            out.append(ev.describe())
            if ev.source == "tool" and ev.index not in records:
                records.append(ev.index)
    if not out:
        found = locate(claim.text, index.text_leaves, cutoff)
        if found is not None:
            leaf, start, end = found[:3]
            where = f"context[{leaf.index}]" if leaf.source == "context" else _record_name(index, leaf.index)
            out.append(f"{where} {leaf.path}: {leaf.text[max(0, start - _AROUND): end + _AROUND]!r}".replace(" :", ":"))
            if leaf.source != "context":
                records.append(leaf.index)
    for i in records:
        call = index.calls[i]
        text = call.output if isinstance(call.output, str) else json.dumps(call.output, ensure_ascii=False, default=str)
        out.append(f"record {_record_name(index, i)} ({call.status}): {text[:_RECORD_CHARS]}")
    return list(dict.fromkeys(out))[:_EXCERPTS]


def _record_name(index: EvidenceIndex, i: int) -> str:
    return index.calls[i].name or f"#{i}"


class _ModelAsker:
    """Asks a chat model through `with_structured_output(ClaimVerdict, include_raw=True)`."""

    def __init__(self, model: Any) -> None:
        self.structured = model.with_structured_output(ClaimVerdict, include_raw=True)

    def __call__(self, claim: str, evidence: list[str]) -> Answer:
        shown = "\n".join(f"- {e}" for e in evidence) or "- (no record mentions it)"
        messages = [("system", _INSTRUCTIONS), ("human", f"Claim: {claim}\n\nExcerpts:\n{shown}")]
        out = self.structured.invoke(messages, {"run_name": RUN_NAME, "tags": [RUN_NAME, "nostream"],
                                                "callbacks": []})
        tokens = _tokens(out.get("raw"))
        parsed = out.get("parsed")
        if not isinstance(parsed, ClaimVerdict):
            raise _Unreadable(f"no verdict in the model's answer: {out.get('parsing_error')}", tokens)
        return _VERDICTS[parsed.verdict], parsed.reason, None, tokens


class _Unreadable(ValueError):
    """The verifier answered, but not with a verdict."""

    def __init__(self, message: str, tokens: int | None) -> None:
        super().__init__(message)
        self.tokens = tokens


def _callable_asker(fn: VerifierFn) -> Callable[[str, list[str]], Answer]:
    def ask(claim: str, evidence: list[str]) -> Answer:
        result = fn(claim, evidence)
        if not (isinstance(result, Sequence) and len(result) == 2):
            raise _Unreadable(f"a verifier returns (verdict, confidence), not {result!r}", None)
        verdict, confidence = result
        verdict = _VERDICTS.get(getattr(verdict, "value", verdict))
        if verdict is None or confidence is not None and not 0 <= float(confidence) <= 1:
            raise _Unreadable(f"not a verdict with a confidence in [0, 1]: {result!r}", None)
        if confidence is not None and confidence < MIN_ANSWER_CONFIDENCE:
            raise _Unreadable(f"confidence {confidence} below {MIN_ANSWER_CONFIDENCE}", None)
        return verdict, "", None if confidence is None else float(confidence), None

    return ask


def _is_chat_model(value: Any) -> bool:
    try:
        from langchain_core.language_models import BaseChatModel
    except ImportError:  # pragma: no cover - langchain-core is a dependency
        return False
    return isinstance(value, BaseChatModel)


def _tokens(raw: Any) -> int | None:
    usage = getattr(raw, "usage_metadata", None)
    return usage.get("total_tokens") if usage else None


def _plus(total: int | None, more: int | None) -> int | None:
    return total if more is None else (total or 0) + more


_BY_CHECKER: weakref.WeakKeyDictionary[Any, SecondOpinions] = weakref.WeakKeyDictionary()
_BY_CHECKER_LOCK = threading.Lock()


def second_opinions(checker: Any, claims: list[Claim], index: EvidenceIndex) -> VerifierUse:
    """Consult `checker.config.verifier` on the answer's uncertain claims (the checker's one hook).

    Args:
        checker: The `FactChecker`; its verifier (and cache) is built once per checker.
        claims: The answer's claims, their flags weighed.
        index: The run's evidence.

    Returns:
        What the verifier cost on this answer.
    """
    with _BY_CHECKER_LOCK:
        opinions = _BY_CHECKER.get(checker)
        if opinions is None:
            opinions = _BY_CHECKER[checker] = SecondOpinions(checker.config.verifier)
    return opinions.weigh(claims, index, checker.config)
