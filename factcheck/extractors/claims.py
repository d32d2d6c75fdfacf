"""Split an answer into claims and pull out each claim's checkable facts."""

from __future__ import annotations

from factcheck.extractors.mentions import Mention, MentionExtractor
from factcheck.extractors.segment import Segmenter
from factcheck.extractors.status import StatusExtractor
from factcheck.report import Claim, Fact, FactKind


class ClaimExtractor:
    """Sentences from spaCy, facts from the lexicon-driven extractors."""

    def __init__(
        self, segmenter: Segmenter, mentions: MentionExtractor, statuses: StatusExtractor
    ) -> None:
        self.segmenter = segmenter
        self.mentions = mentions
        self.statuses = statuses

    def extract(self, answer: str) -> list[Claim]:
        """Claims in answer order, with offsets into `answer` and unchecked facts.

        Args:
            answer: The agent's final answer.

        Returns:
            One claim per sentence; `answer[c.start:c.end] == c.text` for each.
        """
        claims = []
        last_concept: str | None = None
        for start, end in self.segmenter.sentences(answer):
            text = answer[start:end]
            facts = [self._fact(text, m, start) for m in self.mentions.extract(text)]
            for s in self.statuses.extract(text, default_concept=last_concept):
                facts.append(
                    Fact(
                        kind=FactKind.ACTION if s.action else FactKind.STATUS,
                        text=text[s.start : s.end],
                        start=start + s.start,
                        end=start + s.end,
                        concept=s.concept,
                        polarity=s.polarity,  # type: ignore[arg-type]
                    )
                )
                last_concept = s.concept or last_concept
            facts.sort(key=lambda f: f.start)
            claims.append(Claim(text=text, start=start, end=end, facts=facts))
        return claims

    def _fact(self, text: str, m: Mention, offset: int) -> Fact:
        labels = self.mentions.labels_before(text, m) if m.kind == FactKind.NUMBER else frozenset()
        return Fact(
            kind=m.kind,
            text=text[m.start : m.end],
            start=offset + m.start,
            end=offset + m.end,
            value=m.value,
            unit=m.unit,
            precision=-m.exponent if m.kind == FactKind.NUMBER else None,
            concept="+".join(sorted(labels)) or None,
        )
