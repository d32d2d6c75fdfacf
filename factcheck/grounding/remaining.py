"""What is left, said beside the whole and the part used: the whole less the part."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.verdicts import set_verdict
from factcheck.report import Claim, FactKind, Verdict

_SPENT = re.compile(r"(?:已经?|(?i:\b(?:used|paid|spent|taken|consumed|completed)\b))[^\d，,。；;:：]{0,4}$")
"""Right before the part: a word that it was used, paid or taken (已用, 已还, 已上, "used", "paid")."""
_WHOLE = re.compile(r"(?:共|总|合计|每月|每期|额度|(?i:\b(?:total|of|out of|allowance|quota|plan)\b))"
                    r"[^\d，,。；;:：]{0,6}$")
"""Right before the whole: a word of a whole or an allowance (共, 总价, 每月, "a total of", "of your")."""
_WHOLE_AFTER = re.compile(r"\s*[^\d\s，,。；;]{0,3}中")
"""Right after the whole: 中 ("36 期中已还 14 期")."""
_LEFT = "balance"
"""The lexicon's field of what is left (剩余, "remaining")."""


def left_after_used(claims: list[Claim], index: EvidenceIndex) -> None:
    """Contradict what a claim says is left ("共 30GB，已用 24.6GB，剩余 6.4GB"; "36 期中已还 14 期，剩余 24 期") when
    the claim gives the whole and the part used, both backed, just before it in the same unit, and the whole less
    the part is another number: the answer's own working, one step, shown in the reason.

    Args:
        claims: The answer's claims, grounded.
        index: The run's evidence (unused: the working is the answer's own; the post-pass signature).
    """
    del index
    for claim in claims:
        numbers = [f for f in claim.facts if f.kind == FactKind.NUMBER and f.value]
        for i, left in enumerate(numbers):
            if i < 2 or left.concept != _LEFT or left.verdict == Verdict.SUPPORTED and left.code == "match":
                continue
            whole, used = numbers[i - 2], numbers[i - 1]
            gap = claim.text[whole.end - claim.start : used.start - claim.start]
            said = claim.text[: whole.start - claim.start]
            if not _SPENT.search(gap) or whole.concept not in (None, "total") \
                    or not (_WHOLE.search(said[-12:]) or _WHOLE_AFTER.match(gap)) \
                    or any(f.verdict != Verdict.SUPPORTED for f in (whole, used)) \
                    or len({f.unit or "" for f in (whole, used, left)}) > 1:
                continue
            try:
                a, b, c = Decimal(whole.value or ""), Decimal(used.value or ""), Decimal(left.value or "")
            except InvalidOperation:
                continue
            if a <= b or a - b == c:
                continue
            set_verdict(left, Verdict.CONTRADICTED, "recomputed",
                        f"{whole.text} less {used.text} leaves {a - b}, not {left.text}", [])
