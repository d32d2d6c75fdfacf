"""Confidence of a flag: a logistic model over the checker's own features, fitted on labelled suites."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from factcheck.phrases import AGENT_DOER, marked_done
from factcheck.report import OPAQUE_KINDS, Claim, Fact, FactKind, Verdict

FORMAT_VERSION = 1
"""Version of the calibration file format; `Calibration.load` refuses other versions."""
SHIPPED_FILE = "calibration.json"
"""The calibration table shipped in `factcheck/data`, fitted by `factcheck calibrate`."""

_MONEY_UNITS = re.compile(r"^[A-Z]{3}$")
_LIST_LINE = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)、])\s")
_HEADING = re.compile(r"^\s*#{1,6}\s|^\s*\*\*[^*]+\*\*\s*[:：]?\s*$")
_TITLE_WORD = re.compile(r"^[A-Z][a-z]+$")


class AnswerStats(BaseModel):
    """What a flag's features need to know of the answer beyond the fact: its language and the user's words.

    No count of the run or the answer (tool calls, other flags) is a feature: a flag's confidence follows
    its own evidence, so more tool calls or a second false claim never make a contradiction look safer.
    """

    lang: str
    """The answer's language."""
    context: str = ""
    """The context strings, joined and lower-cased (to see whether a flagged value is the user's own)."""


def answer_stats(lang: str, context: Sequence[Any]) -> AnswerStats:
    """The answer-wide inputs of `flag_features`.

    Args:
        lang: The answer's language.
        context: The context strings given to the checker.

    Returns:
        The stats.
    """
    return AnswerStats(lang=lang, context=" ".join(c for c in context if isinstance(c, str)).lower())


def _specificity(fact: Fact) -> str:
    """How specific the flagged value is: a long ID or link is rarely matched by chance."""
    value = fact.value or fact.text
    if fact.kind in OPAQUE_KINDS:
        return "long" if len(value) >= 12 else "mid" if len(value) >= 8 else "short"
    if fact.kind == FactKind.NUMBER:
        digits = sum(ch.isdigit() for ch in value.split(".")[0])
        size = "1" if digits <= 1 else "2" if digits == 2 else "3-4" if digits <= 4 else "5+"
        unit = fact.unit or ""
        kind = "money" if _MONEY_UNITS.match(unit) else "pct" if unit == "%" else "unit" if unit else "bare"
        return f"{kind}{size}"
    if fact.kind == FactKind.NAME:
        words = fact.text.split()
        if len(words) > 1 and all(_TITLE_WORD.match(w) for w in words):
            return "title-case"
        return "one-word" if len(words) <= 1 else "words"
    return "-"


def _backed_beside(fact: Fact, claim: Claim) -> bool:
    """Whether another fact of the claim is backed. Another flag beside it changes nothing: a second false
    claim never makes the first look safer (an unbacked sibling and none at all read the same)."""
    return any(f is not fact and f.verdict == Verdict.SUPPORTED for f in claim.facts)


def _completed(fact: Fact, claim: Claim) -> bool:
    """Whether a completed-action marker stands in the claim just before the fact, or inside it; a status
    said to have failed ("the refund failed", 未能创建) states an outcome as definitely as one said done."""
    if fact.kind in (FactKind.STATUS, FactKind.ACTION) and fact.polarity == "negative":
        return True
    return marked_done(claim.text, max(0, fact.start - claim.start), len(fact.text))


def agent_doer(fact: Fact, claim: Claim) -> bool:
    """Whether the claim says the agent did it ("I've sent the confirmation", 已为您), before the fact.

    Args:
        fact: A fact of the claim.
        claim: The claim.

    Returns:
        True when an agent marker stands in the claim before the fact's end.
    """
    return AGENT_DOER.search(claim.text, 0, max(0, fact.start - claim.start) + 1) is not None


def _layout(claim: Claim) -> str:
    """Where the claim stands: a markdown heading or label line, a list item, or running text."""
    if _HEADING.match(claim.text):
        return "heading"
    return "list" if _LIST_LINE.match(claim.text) else "text"


def flag_features(fact: Fact, claim: Claim, stats: AnswerStats) -> list[str]:
    """The features of one flagged fact, as `name:value` strings.

    Args:
        fact: A contradicted or unsupported fact.
        claim: Its claim (its speech act and other facts are read).
        stats: The answer and run it belongs to.

    Returns:
        The features, in a fixed order.
    """
    kind, code, act = fact.kind.value, fact.code or "-", claim.act.value
    own = bool(stats.context) and len(fact.text) >= 3 and fact.text.lower() in stats.context
    return [
        f"kind:{kind}",
        f"code:{code}",
        f"kind_code:{kind}/{code}",
        f"act:{act}",
        f"act_kind:{act}/{kind}",
        f"spec:{kind}/{_specificity(fact)}",
        f"backed_beside:{fact.kind.value}/{_backed_beside(fact, claim)}",
        f"layout:{_layout(claim)}",
        f"strength:{fact.strength or '-'}",
        f"doer:{kind}/{'agent' if agent_doer(fact, claim) else '-'}",
        f"completed:{kind}/{_completed(fact, claim)}",
        f"kind_strength:{kind}/{fact.strength or '-'}",
        f"lang:{stats.lang}",
        f"in_context:{own}",
        f"evidence:{bool(fact.evidence)}",
    ]


class Calibration(BaseModel):
    """A logistic model from a flag's features to the probability that the flag is right."""

    version: int = FORMAT_VERSION
    """File format version."""
    bias: float = 0.0
    """Log-odds of a flag with no feature weight."""
    weights: dict[str, float] = Field(default_factory=dict)
    """Feature (`kind:number`, `act:offer`, ...) -> its weight in log-odds; unknown features weigh 0."""
    l2: float = 1.0
    """The ridge penalty the weights were fitted with."""
    fitted_on: list[str] = Field(default_factory=list)
    """The suites the table was fitted on."""
    samples: int = 0
    """Flagged facts it was fitted on."""
    positives: int = 0
    """Of those, the flags that were right."""

    def confidence(self, features: Iterable[str]) -> float:
        """The probability that a flag with these features is right.

        Args:
            features: From `flag_features`.

        Returns:
            A probability in (0, 1), rounded to 4 places so reports are stable.
        """
        z = self.bias + sum(self.weights.get(f, 0.0) for f in features)
        return round(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))), 4)

    @classmethod
    def load(cls, path: Path | str | None = None) -> Calibration:
        """Read a calibration file written by `factcheck calibrate`.

        Args:
            path: The file; the shipped table when None.

        Returns:
            The calibration.

        Raises:
            ValueError: when the file cannot be read, is not a calibration table, or has another version.
        """
        try:
            if path is None:
                text = resources.files("factcheck.data").joinpath(SHIPPED_FILE).read_text("utf-8")
            else:
                text = Path(path).read_text("utf-8")
            table = cls.model_validate_json(text)
        except (OSError, ValueError) as exc:
            raise ValueError(f"cannot read calibration file {path or SHIPPED_FILE}: {exc}") from exc
        if table.version != FORMAT_VERSION:
            raise ValueError(f"calibration file {path} has version {table.version}, expected {FORMAT_VERSION}")
        return table

    def save(self, path: Path | str) -> None:
        """Write the table as JSON, features sorted, so a refit diffs cleanly."""
        data = self.model_dump()
        data["weights"] = dict(sorted(data["weights"].items()))
        Path(path).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def fit(samples: Sequence[tuple[list[str], bool]], l2: float = 1.0, iterations: int = 50) -> Calibration:
    """Fit the logistic model by Newton's method with a ridge penalty (deterministic).

    Args:
        samples: `(features, right)` for every flagged fact of the labelled suites.
        l2: Ridge penalty on the weights (not on the bias); larger keeps rare features near 0.
        iterations: Most Newton steps; it stops earlier once the weights settle.

    Returns:
        The fitted table (`fitted_on` is left for the caller to fill).

    Raises:
        ValueError: when there are no samples.
    """
    import numpy as np

    if not samples:
        raise ValueError("no flagged facts to fit a calibration on")
    names = sorted({f for features, _ in samples for f in features})
    column = {name: i + 1 for i, name in enumerate(names)}
    x = np.zeros((len(samples), len(names) + 1))
    x[:, 0] = 1.0
    for row, (features, _) in enumerate(samples):
        for f in features:
            x[row, column[f]] = 1.0
    y = np.array([1.0 if right else 0.0 for _, right in samples])
    penalty = np.full(len(names) + 1, float(l2))
    penalty[0] = 0.0
    w = np.zeros(len(names) + 1)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (p - y) + penalty * w
        hessian = (x.T * (p * (1 - p))) @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return Calibration(
        bias=round(float(w[0]), 6),
        weights={name: round(float(w[column[name]]), 6) for name in names if abs(w[column[name]]) >= 1e-6},
        l2=l2,
        samples=len(samples),
        positives=int(y.sum()),
    )
