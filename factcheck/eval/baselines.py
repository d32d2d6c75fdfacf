"""Baseline checkers compared with factcheck in `factcheck eval`: seed-naive and fuzzy."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rapidfuzz import fuzz, utils

from factcheck.report import Claim, Evidence, Report, Verdict

SEED_STATES: tuple[str, ...] = ("成功", "失败", "已退款", "未退款", "已找到", "无结果")
"""The fixed status words of seed 003's `ground()`."""
_DIGIT_RUN = re.compile(r"\d+")
_SEED_SPLIT = re.compile(r"[。\n]")
# sentence ends: CJK and ASCII terminators, newlines; a '.' only when not inside a number
_SENTENCE_SPLIT = re.compile(r"[。！？；!?;\n]|\.(?!\d)")


def _output_text(output: Any) -> str:
    if output is None:
        return ""
    if isinstance(output, str):
        return output
    return json.dumps(output, ensure_ascii=False)


def _evidence_texts(
    tool_calls: Sequence[Mapping[str, Any]], context: Sequence[str]
) -> list[tuple[Evidence, str]]:
    items = []
    for i, tc in enumerate(tool_calls):
        text = _output_text(tc.get("output"))
        status = "error" if tc.get("status") == "error" else "ok"
        ev = Evidence(index=i, tool_name=tc.get("name"), tool_status=status, text=text[:200])
        items.append((ev, text))
    for i, text in enumerate(context):
        items.append((Evidence(source="context", index=i, text=text[:200]), text))
    return items


def split_claims(answer: str, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    """Split an answer on a separator pattern and trim each piece.

    Args:
        answer: The text to split.
        pattern: Separators; they belong to no claim.

    Returns:
        `(start, end)` of each non-blank, whitespace-trimmed piece, in order.
    """
    spans = []
    cursor = 0
    for sep in [*pattern.finditer(answer), None]:
        end = sep.start() if sep else len(answer)
        piece = answer[cursor:end]
        stripped = piece.strip()
        if stripped:
            start = cursor + (len(piece) - len(piece.lstrip()))
            spans.append((start, start + len(stripped)))
        if sep:
            cursor = sep.end()
    return spans


def seed_ground(claim: str, evidence: str) -> bool:
    """Seed 003's `ground()`: shares a status word with the evidence and every digit run is in it.

    Args:
        claim: One claim of the answer.
        evidence: One tool output as text.

    Returns:
        True when the claim passes.
    """
    has_state = any(s in claim and s in evidence for s in SEED_STATES)
    nums_ok = all(n in evidence for n in _DIGIT_RUN.findall(claim))
    return has_state and nums_ok


class SeedNaive:
    """Port of seed 003's checker: claims split on 。 and newlines, each grounded by `seed_ground`.

    Every tool output (and, as for factcheck, the question and context) is one piece of
    evidence; a claim passes when some single piece grounds it.
    """

    name = "seed-naive"

    def check(
        self, answer: str, tool_calls: Sequence[Mapping[str, Any]], context: Sequence[str] = ()
    ) -> Report:
        """Check an answer.

        Args:
            answer: The agent's answer.
            tool_calls: Case-format tool call mappings.
            context: Other text the answer may rely on.

        Returns:
            A report whose claims are `supported` or `unsupported`.
        """
        evidence = _evidence_texts(tool_calls, context)
        claims = []
        for start, end in split_claims(answer, _SEED_SPLIT):
            text = answer[start:end]
            hit = next((ev for ev, ev_text in evidence if seed_ground(text, ev_text)), None)
            if hit is not None:
                claims.append(
                    Claim(text=text, start=start, end=end, verdict=Verdict.SUPPORTED,
                          evidence=[hit], reason="status word and digits found in evidence")
                )
            else:
                claims.append(
                    Claim(text=text, start=start, end=end, verdict=Verdict.UNSUPPORTED,
                          reason=_seed_reason(text, [t for _, t in evidence]))
                )
        from factcheck.extractors.segment import detect_lang  # spaCy: not for the CLI's --help

        return Report(answer=answer, lang=detect_lang(answer), claims=claims,
                      tool_call_count=len(tool_calls))


def _seed_reason(claim: str, evidence: list[str]) -> str:
    states = [s for s in SEED_STATES if s in claim]
    if not states:
        return "no status word from the fixed list in the claim"
    if not any(s in e for s in states for e in evidence):
        return f"status word {states[0]!r} found in no evidence"
    return "no single evidence holds both the status word and every digit run"


class Fuzzy:
    """rapidfuzz `partial_ratio` of each sentence against each evidence text, over a cutoff."""

    name = "fuzzy"

    def __init__(
        self,
        score_cutoff: float = 75.0,
        processor: Callable[[str], str] = utils.default_process,
    ) -> None:
        """Set the cutoff and text processor.

        Args:
            score_cutoff: Minimum score (0-100) for a sentence to count as backed.
            processor: Normalisation applied to both strings before scoring
                (default: lower-case, non-alphanumerics to spaces, trimmed).
        """
        self.score_cutoff = score_cutoff
        self.processor = processor

    def check(
        self, answer: str, tool_calls: Sequence[Mapping[str, Any]], context: Sequence[str] = ()
    ) -> Report:
        """Check an answer.

        Args:
            answer: The agent's answer.
            tool_calls: Case-format tool call mappings.
            context: Other text the answer may rely on.

        Returns:
            A report whose sentences are `supported`, `unsupported`, or `unverifiable`
            when nothing alphanumeric is left after processing.
        """
        evidence = _evidence_texts(tool_calls, context)
        claims = []
        for start, end in split_claims(answer, _SENTENCE_SPLIT):
            text = answer[start:end]
            if not self.processor(text):
                claims.append(Claim(text=text, start=start, end=end, reason="nothing to match"))
                continue
            best, best_ev = 0.0, None
            for ev, ev_text in evidence:
                score = fuzz.partial_ratio(
                    text, ev_text, processor=self.processor, score_cutoff=self.score_cutoff
                )
                if score > best:
                    best, best_ev = score, ev
            verdict = Verdict.SUPPORTED if best_ev is not None else Verdict.UNSUPPORTED
            reason = (
                f"partial_ratio {best:.0f} >= {self.score_cutoff:g}"
                if best_ev is not None
                else f"no evidence scores >= {self.score_cutoff:g}"
            )
            claims.append(
                Claim(text=text, start=start, end=end, verdict=verdict,
                      evidence=[best_ev] if best_ev else [], reason=reason)
            )
        from factcheck.extractors.segment import detect_lang  # spaCy: not for the CLI's --help

        return Report(answer=answer, lang=detect_lang(answer), claims=claims,
                      tool_call_count=len(tool_calls))


BASELINES: dict[str, Callable[[], SeedNaive | Fuzzy]] = {"seed-naive": SeedNaive, "fuzzy": Fuzzy}
"""Baseline name -> constructor with default settings."""


def make_baseline(name: str) -> SeedNaive | Fuzzy:
    """Build a baseline by name.

    Args:
        name: `seed-naive` or `fuzzy`.

    Returns:
        The baseline checker.

    Raises:
        ValueError: for an unknown name.
    """
    try:
        return BASELINES[name]()
    except KeyError:
        raise ValueError(f"unknown baseline {name!r}; choose from {', '.join(BASELINES)}") from None
