"""Split an answer into claims and pull out each claim's checkable facts."""

from __future__ import annotations

from factcheck.extractors.mentions import Mention, MentionExtractor
from factcheck.extractors.segment import Segmenter
from factcheck.extractors.status import StatusExtractor
from factcheck.report import Claim, Fact, FactKind

_OPAQUE = (FactKind.URL, FactKind.EMAIL, FactKind.IDENTIFIER)


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
            mentions = self.mentions.extract(text)
            facts = [self._fact(text, m, start, mentions) for m in mentions]
            skip = [(m.start, m.end) for m in mentions if m.kind in _OPAQUE]
            for s in self.statuses.extract(text, default_concept=last_concept, skip=skip):
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

    def _fact(self, text: str, m: Mention, offset: int, mentions: list[Mention]) -> Fact:
        labels: frozenset[str] = frozenset()
        if m.kind == FactKind.NUMBER:
            # a number's field words stand after the previous number, if any
            previous = [n.end for n in mentions if n.kind == FactKind.NUMBER and n.end <= m.start]
            floor = previous[-1] if previous else 0
            unit = self.mentions.noun_after(text, floor) if previous else None
            floor = unit.end() if unit else floor
            labels = self.mentions.labels_before(text, m, floor=floor)
            if not labels and not previous:
                labels = self.mentions.labels_before(text, m, window=len(text), nearest=True)
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
