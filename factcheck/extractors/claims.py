"""Split an answer into claims and pull out each claim's checkable facts."""

from __future__ import annotations

import re
from collections.abc import Mapping

from factcheck.extractors.categories import CategoryExtractor
from factcheck.extractors.mentions import Mention, MentionExtractor
from factcheck.extractors.methods import MethodExtractor
from factcheck.extractors.segment import Segmenter
from factcheck.extractors.status import StatusExtractor
from factcheck.phrases import term_key
from factcheck.placeholders import placeholder_spans
from factcheck.report import OPAQUE_KINDS, Claim, Fact, FactKind

# A quoted title: CJK corner or book-title brackets, curly or straight double quotes, one line.
# It opens with the class of the opening marks, which the regex engine skips ahead to.
_QUOTED = re.compile(
    r"(?=[「『《“\"])(?:「[^」\n]{1,80}」|『[^』\n]{1,80}』|《[^》\n]{1,80}》|“[^”\n]{1,80}”|\"[^\"\n]{1,80}\")"
)

_QUOTE_OPENERS = "「『《“\""
"""The marks `_QUOTED` opens with."""

_QUALIFIED = re.compile(r"^(.+?)\s*[(（][^()（）]{1,40}[)）]$")
"""A state with its qualifier in brackets ("delivered (item modified)")."""

_CLAUSE_MARK = re.compile(r"[，,;；：:\n]")
_LAST_LATIN_WORD = re.compile(r"[A-Za-z]+$")
_LEAD = re.compile(r"[\s\-*#>•]*")


class ClaimExtractor:
    """Sentences from spaCy, facts from the lexicon-driven extractors."""

    def __init__(
        self,
        segmenter: Segmenter,
        mentions: MentionExtractor,
        statuses: StatusExtractor,
        methods: MethodExtractor,
        categories: CategoryExtractor,
    ) -> None:
        self.segmenter = segmenter
        self.mentions = mentions
        self.statuses = statuses
        self.methods = methods
        self.categories = categories
        lex = statuses.lex
        self.advice = lex.advice_markers
        self.approximators = lex.approximators
        self.currency_codes = lex.currency_codes

    def extract(self, answer: str) -> list[Claim]:
        """Claims in answer order, with offsets into `answer` and unchecked facts.

        Args:
            answer: The agent's final answer.

        Returns:
            One claim per sentence; `answer[c.start:c.end] == c.text` for each.
        """
        claims = []
        last_concept: str | None = None
        previous_end = 0
        for start, end in self.segmenter.sentences(answer):
            text = answer[start:end]
            if "\n" in answer[previous_end:start]:
                last_concept = None  # a new line (a list item) names its own concept
            previous_end = end
            titles = self._titles(text)
            mentions = self.mentions.extract(text)
            if titles:  # a title's numbers name it (《远程办公的五个误区》), they count nothing
                mentions = [m for m in mentions if m.kind != FactKind.NUMBER or not _in_title(text, m, titles)]
            if self.advice.search(text):
                mentions = [m for m in mentions if not self._advice(text, m)]
            held = placeholder_spans(text)  # `audit --fix` wrote these: no claim of the agent's
            if held:
                mentions = [m for m in mentions if not any(s <= m.start < e for s, e in held)]
            facts = [self._fact(text, m, start, mentions) for m in mentions]
            skip = [(m.start, m.end) for m in mentions if m.kind in OPAQUE_KINDS] + titles + held
            facts += [self._fact(text, m, start, mentions) for m in self.methods.extract(text, skip)]
            facts += [self._fact(text, m, start, mentions) for m in self.categories.extract(text, skip)]
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
            facts += [
                Fact(kind=FactKind.ACTION, text=text[s.start : s.end], start=start + s.start, end=start + s.end,
                     concept=s.concept, polarity="positive")
                for s in self.statuses.done(text, skip)
            ]
            facts.sort(key=lambda f: f.start)
            claims.append(Claim(text=text, start=start, end=end, facts=facts))
        return claims

    def _exponent(self, text: str, m: Mention) -> int:
        """A number's written precision; an approximate round one ("约 1860") at its last non-zero digit.

        At most two significant digits are read loosely: "about 2,000" is 1,950 to 2,049, not 1,600.
        """
        if m.exponent != 0 or not (places := _round_places(m.value or "")):
            return m.exponent
        before = text[: m.start].rstrip()
        word = _LAST_LATIN_WORD.search(before)
        starts = {len(before) - 1, len(before) - 2, word.start() if word else -1} - {-1, -2}
        if any(self.approximators.match_at(before, at) for at in starts):
            return places
        return m.exponent

    def _advice(self, text: str, m: Mention) -> bool:
        """Whether a number other than money stands in a clause of advice ("Please arrive about 10 minutes early")."""
        if m.kind != FactKind.NUMBER or m.unit in self.currency_codes:
            return False
        clause_start = max((c.end() for c in _CLAUSE_MARK.finditer(text, 0, m.start)), default=0)
        opening = _LEAD.match(text, clause_start).end()
        return self.advice.match_at(text, opening)

    def _titles(self, text: str) -> list[tuple[int, int]]:
        """Quoted titles (「打印机无法连接 Wi-Fi」): their words name a thing, they state no status.

        A quote holding one status word alone (状态为「已发货」) still states it.
        """
        if not any(map(text.__contains__, _QUOTE_OPENERS)):  # the regex would try every place of the text
            return []
        terms = self.statuses.lex.terms
        return [m.span() for m in _QUOTED.finditer(text) if not _said_state(m.group()[1:-1], terms)]

    def _fact(self, text: str, m: Mention, offset: int, mentions: list[Mention]) -> Fact:
        labels: frozenset[str] = frozenset()
        if m.kind == FactKind.NUMBER:
            # a number's field words stand after the previous number, date or time, if any ("due on
            # October 22 for $214.20": due is the date's)
            previous = [n for n in mentions if n.kind in _LABEL_FLOORS and n.end <= m.start]
            floor = previous[-1].end if previous else 0
            unit = self.mentions.noun_after(text, floor) if previous and previous[-1].kind == FactKind.NUMBER else None
            floor = unit.end() if unit else floor
            if previous and previous[-1].kind == FactKind.NUMBER and unit is None:
                floor = self._own_noun_end(text, floor, m.start)
            if previous and (mark := _TRAILING_END.search(text, floor, m.start)):
                floor = mark.end()  # "£41.00 in total: £33.00 VAT": words up to a mark are the previous number's
            elif previous and (ops := list(_OPERATOR.finditer(text, floor, m.start))):
                floor = ops[-1].end()  # "$0.78 tax = $17.27", "$408.00 room balance plus $21.00": an operand's words
            if _OPERAND.match(text, m.end):  # "金额：¥680 × 3 + ¥30 × 3 = ¥2,130": the label is the working's
                floor = max(floor, text.rfind(":", floor, m.start) + 1, text.rfind("：", floor, m.start) + 1)
            labels = self.mentions.labels_before(text, m, floor=floor)
            if not labels and not previous and _LINKED.search(text, 0, m.start):
                # "The average of the numbers you provided is 11": the subject's field word, linked to the number
                labels = self.mentions.labels_before(text, m, window=len(text), nearest=True)
            labels |= self.mentions.labels_after(text, m)
        return Fact(
            kind=m.kind,
            text=text[m.start : m.end],
            start=offset + m.start,
            end=offset + m.end,
            value=m.value,
            unit=m.unit,
            precision=-self._exponent(text, m) if m.kind == FactKind.NUMBER else None,
            concept="+".join(sorted(labels)) or None,
        )


    def _own_noun_end(self, text: str, floor: int, start: int) -> int:
        """Past a field word that heads the previous number's own phrase ("the $25 airport fee comes to $241": the
        fee is the $25), where words other than a link stand between it and the next number; else `floor`."""
        hits = self.mentions.lex.field_phrases.finditer(text, floor, start)
        hit = hits[0] if hits else None
        if hit is None or not _MODIFIERS.fullmatch(text, floor, hit.start) \
                or _LINKS.search(text, floor, hit.start):  # "$11.01 and the subtotal drops to $62.39": a new phrase
            return floor
        return hit.end if _WORD.search(text, hit.end, start) else floor


_LINKED = re.compile(r"(?i)(?:\b(?:is|are|was|were|be|becomes?|comes?\s+to|amounts?\s+to|totals?|equals?)|[:：=为是—–])"
                     r"\s*(?:about|approximately|around|roughly|only|just|now|\*\*)?\s*(?:[A-Z]{3}|[$¥€£])?\s*$")
"""A link word right before a number (is, comes to, 为, a colon or a dash): the claim's subject names its field."""
_MODIFIERS = re.compile(r"\s*(?:[A-Za-z-]+\s+){0,2}|[\u4e00-\u9fff]{0,4}")
_LINKS = re.compile(r"(?i)\b(?:and|or|plus|but|so|then|with|the|a|an|of|to|for|in|on|at|is|are|was|were|by|from)\b"
                    r"|[和及与并而且或加再]")
_WORD = re.compile(r"[A-Za-z\u4e00-\u9fff]")
_TRAILING_END = re.compile(r"[,，:：;；)）|]")
"""Where the words after a number stop being its own ("in total:", "declared value)", a table's cell: "| €39 airport
fee | €263.50 |")."""
_OPERATOR = re.compile(r"(?i)[=＝+＋]|\bplus\b|\bminus\b|加上|减去")
"""An operator between two numbers: the words before it are the operand's, not the next number's."""
_OPERAND = re.compile(r"\s*(?:[^\W\d_]{1,3}\s*)?(?:/[^\W\d_]{1,5}\s*)?[×xX*÷/+＋−-]\s*[$¥€£]?\s*\d")
"""Right after a number: an operator and the next operand ("¥680 × 3", "158 元 × 25%", "278.10 − 30"): it is an
operand of a working, and a label before its line's last colon names what the working comes to."""
_LABEL_FLOORS = (FactKind.NUMBER, FactKind.DATE, FactKind.TIME)
"""Mentions whose field words a number after them does not share."""


def _round_places(value: str) -> int:
    """The trailing zeros of a whole number an approximator may loosen, two significant digits kept.

    1860 -> 1, 2000 -> 2, 300 -> 1, 45 -> 0.
    """
    whole = value.split(".")[0].lstrip("-")
    zeros = len(whole) - len(whole.rstrip("0")) if whole.strip("0") else 0
    return min(zeros, max(1, len(whole) - 2))


def _said_state(quoted: str, terms: Mapping[str, object]) -> bool:
    """Whether a quote holds one status word alone, maybe with its qualifier in brackets or the sentence's
    own mark inside ("pending.", "delivered (item modified),"): it states that status, it names no thing."""
    inner = quoted.strip().rstrip(".,;!?。，；！？").strip()
    qualified = _QUALIFIED.match(inner)
    return term_key(inner) in terms or (qualified is not None and term_key(qualified.group(1)) in terms)


def _in_title(text: str, m: Mention, titles: list[tuple[int, int]]) -> bool:
    """Whether a mention stands in a quoted title with words besides it (not in a quoted "$45")."""
    return any(
        a <= m.start and m.end <= b and any(ch.isalpha() for ch in text[a + 1 : m.start] + text[m.end : b - 1])
        for a, b in titles
    )
