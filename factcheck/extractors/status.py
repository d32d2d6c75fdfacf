"""Status and completed-action mentions: a concept, a polarity and negation."""

from __future__ import annotations

import re
from dataclasses import dataclass

from factcheck.lexicon import DONE_CONCEPT, Lexicon, Term
from factcheck.phrases import Hit, said_alone, window_before

# Clause boundaries: a status word pairs with a concept word only inside one clause. A full stop
# counts before white space or the end only; the pattern opens with a class the regex engine skips to.
_CLAUSE_SEP = re.compile(r"[，,；;。！？!?\n.](?!(?<=\.)\S)")
_WINDOW = 80
_ALTERNATIVE = re.compile(r"\s*(?:或者|或是|或|[Oo]r\b)")
"""A clause that opens with "or" (或): an alternative to the clause before it, under the same hedge."""
_FAR_WINDOW = 16  # "已于 9月20日 晚上签收": a dated completion marker reaches further
_PREPOSITION = re.compile(r"\b(?:for|of|on|in|under|from|to|with|at)\b", re.IGNORECASE)
_OR = re.compile(r"\b(?:or|nor)\b|或|也没", re.IGNORECASE)
"""What joins a negated status word to the next one it carries the negation to."""
_SPACES = re.compile(r" *")
_NOTHING_OPENS = re.compile(r"(?i)^[\s*_-]*(?:(?:so|and|but|yet)\s+)?(?:nothing|nobody|no one)\b[^—–:：]*$")
"""A clause opened by a negative subject ("so nothing on order #W5120988 has changed"): its verb is negated however
many words stand between. Not "none of your orders", which a count or a coverage check reads whole."""
_FLIP = {"positive": "negative", "negative": "positive", "pending": "negative"}


@dataclass(frozen=True)
class StatusMention:
    """What a clause says about a concept: done, not done, or in progress."""

    start: int
    end: int
    concept: str | None
    polarity: str
    action: bool = False


class StatusExtractor:
    """Find status and action mentions with the lexicon's terms, negators and hedges."""

    def __init__(self, lex: Lexicon) -> None:
        self.lex = lex
        self.zh_window = lex.negation_window.get("zh", 3)
        self.en_window = lex.negation_window.get("en", 4)

    def extract(
        self,
        text: str,
        default_concept: str | None = None,
        claims: bool = True,
        skip: list[tuple[int, int]] | None = None,
    ) -> list[StatusMention]:
        """Status mentions in `text`, in order.

        Args:
            text: An answer sentence, or a tool output's text.
            default_concept: Concept for a bare polarity word ("失败", "FAILED")
                when its clause names none (a field name or tool name).
            claims: Reading an answer: skip evidence-only words and statuses
                under a hedge (if, please, 如果, 请, 通过后).
            skip: Spans (links, identifiers) whose words are not status words.

        Returns:
            One mention per (concept, polarity) in each clause.
        """
        by_clause: dict[int, list[tuple[Hit, Term]]] = {}
        for m, term in self.lex.term_hits(text):
            if claims and term.evidence_only and not self._of_everything(text, m):
                continue
            if skip and m.overlaps(skip):
                continue
            if term.polarity is None and _in_compound(text, m, "-_" if claims else "-"):
                # a word inside a name: "payments-api", an answer's "extract_orders" (not a tool's REFUND_FAILED)
                continue
            by_clause.setdefault(clause_start(text, m.start), []).append((m, term))
        out: list[StatusMention] = []
        consequence = self._consequence(text) if claims and by_clause else -1
        for start, hits in by_clause.items():
            if start != consequence:  # "If it stays there, each missing night is charged": no claim
                out.extend(self._clause(text, start, hits, default_concept, claims))
        return out

    def done(self, text: str, skip: list[tuple[int, int]] | None = None) -> list[StatusMention]:
        """The first action of a sentence the agent says it did for the user ("I've redeemed 1,000 points", 已为您解冻,
        挂好了, 提交成功), of the concept `DONE_CONCEPT`; none said of a look-up ("I've checked", 已为您查到), denied,
        hedged, asked or under a condition.

        Args:
            text: An answer sentence.
            skip: Spans (links, identifiers) whose words are no such action.

        Returns:
            At most one mention.
        """
        lex = self.lex
        hits = sorted([(m, True) for m in lex.done_openers.finditer(text)]
                      + [(m, False) for m in lex.done_words.finditer(text)], key=lambda hit: hit[0].start)
        consequence = self._consequence(text) if hits else -1
        for m, opener in hits:
            end = m.end
            if opener:
                verb = _DONE_VERB.match(text, m.end)
                if verb is None or lex.done_read_verbs.match_at(text, verb.start(1)):
                    continue  # "I've checked", 已为您查到: a look-up; "I have two options": no action
                if verb.group(1).isascii() and not _PAST_FORM.fullmatch(verb.group(1)):
                    continue
                end = verb.end()
            if skip and m.overlaps(skip):
                continue
            begin = clause_start(text, m.start)
            if begin == consequence or self._negated(text[begin : m.start]) or lex.hedged(text, begin, m.start):
                continue
            rest = _CLAUSE_SEP.search(text, end)
            if _ASKED.search(text, end, rest.end() if rest else len(text)):
                continue  # "订上了吗？": a question
            return [StatusMention(m.start, end, DONE_CONCEPT, "positive", True)]
        return []

    def _consequence(self, text: str) -> int:
        """Start of the clause right after an opening condition ("If A, B": B's), or -1."""
        opening = len(text) - len(text.lstrip())
        if not self.lex.conditional_openers.match_at(text, opening):
            return -1
        end = _CLAUSE_SEP.search(text, opening)
        return clause_start(text, end.end()) if end and end.end() < len(text) else -1

    def _of_everything(self, text: str, m: Hit) -> bool:
        """Whether a word only tools are read for ("done") speaks of all the run did: "All done.", "Done!"."""
        if self.lex.all_words.search(window_before(text[: m.start], self.en_window, self.zh_window)):
            return True
        return said_alone(text, m.start, m.end)

    def _hedged(self, text: str, begin: int, m: Hit) -> bool:
        after = _SPACES.match(text, m.end).end()  # "changed since": past the space
        if begin > 0 and _ALTERNATIVE.match(text, begin):
            # "可以在派送时联系快递员协商，或申请改为驿站自提": an alternative keeps the hedge of the clause it adds to
            begin = clause_start(text, begin - 1)
        return self.lex.hedged(text, begin, m.start) or self.lex.hedges_after.match_at(text, after)

    def _clause(self, text, begin, hits, default_concept, claims) -> list[StatusMention]:
        concepts = [(m, t) for m, t in hits if t.polarity is None]
        if claims:  # "no pending orders", "one more pending order (#W548…)": it says which records, no status
            hits = [(m, t) for m, t in hits if t.polarity is None or not _attributive(text, m, t, concepts)]
        found: dict[tuple[str | None, str], StatusMention] = {}
        used_concepts: set[int] = set()
        previous_end, previous_negated = begin, False
        for m, term in hits:
            if term.polarity is None:
                continue  # a concept word: a negator before it still governs its status word
            # a negator governs the next status word only, never one further on, unless joined
            # by "or" ("I haven't cancelled it or issued a refund")
            scope, previous_end = max(begin, previous_end), m.end
            if self._hedged(text, begin, m) or not claims and self.lex.evidence_hedges.search(text, begin, m.start):
                continue  # a tool's "重置密码需用户…完成二次验证": a condition of the act, no state of it
            concept, start, end = term.concept, m.start, m.end
            if claims and concept is None and _modifies(text, m, hits):
                continue  # "successfully cancelled": the adverb is the cancel's, it states no status of its own
            if claims and term.action and self._users_own(text[begin : m.start]):
                continue  # "the amount you paid": the user's past act, not an action of this turn
            negated = self._negated(text[scope : m.start], narrow=term.polarity == "negative") or (
                previous_negated and _OR.search(text, scope, m.start) is not None
            )
            previous_negated = negated
            if concept is None and m.key in self.lex.presenting:
                concept = default_concept  # "Here are your other order IDs": it presents what was read, not orders
            elif concept is None:
                nearest = _nearest(m, concepts, text)
                if nearest is not None:
                    concept = nearest[1].concept
                    used_concepts.add(nearest[0].start)
                    start, end = min(start, nearest[0].start), max(end, nearest[0].end)
                    if not negated and nearest[0].end <= m.start and not text[nearest[0].end : m.start].strip():
                        # "没有派送成功": the negator stands before the concept word right before the status word
                        negated = self._negated(text[scope : nearest[0].start])
                elif not (claims and term.action and default_concept == "search"):
                    # "查到了。…我已经帮您提交了补偿申请": what the run looked up is no action's concept
                    concept = default_concept
            polarity = _FLIP[term.polarity] if negated else term.polarity
            key = (concept, polarity)
            if any(c == concept for c, _ in found):
                continue  # "no matching cases were found": the first word decides
            if key not in found:
                found[key] = StatusMention(start, end, concept, polarity, term.action and not negated)
            field = default_concept
            if not claims and term.field_polarity and not negated and field not in (None, concept):
                # a tool's `booking_status: cancelled` also says the booking is off
                if not any(c == field for c, _ in found):
                    found[(field, term.field_polarity)] = StatusMention(start, end, field, term.field_polarity)
        # A bare concept word says nothing, unless it is negated ("没有退款", "no refund") or
        # marked done ("已经发货", "已为您退款"); only the first such word of a clause counts.
        if claims and found:
            return sorted(found.values(), key=lambda s: s.start)
        for m, term in concepts:
            if m.start in used_concepts or claims and self._hedged(text, begin, m):
                continue
            prefix = text[begin : m.start]
            if self._negated(prefix):
                polarity, action = "negative", False
            elif self._completed(prefix) and not text.startswith(self.lex.noun_heads, m.end):
                polarity, action = "positive", True  # "已为您退款"; not "已为您提交退款申请": 退款 there names the 申请
            else:
                continue
            found.setdefault(
                (term.concept, polarity), StatusMention(m.start, m.end, term.concept, polarity, action)
            )
            break
        return sorted(found.values(), key=lambda s: s.start)

    def _users_own(self, prefix: str) -> bool:
        """Whether the user is the doer of the action word after `prefix` ("you paid", 您购买的)."""
        window = window_before(prefix, 2, 3)
        if not window.strip() or not self.lex.user_doers.search(window):
            return False
        return not self.lex.user_beneficiaries.search(window)

    def _completed(self, prefix: str) -> bool:
        """Whether a completion marker (已, 已经) stands just before a concept word.

        A concept word after an agent marker does another action ("已被订单预留": reserved by orders); one after a
        beneficiary marker is what the action is for ("已为订单 88231 退款": the action is the refund); one after a
        place marker is where it took something from ("已经把收纳袋从订单里去掉了").
        """
        if not prefix or prefix.rstrip().endswith((*self.lex.agent_markers, *self.lex.beneficiary_markers,
                                                   *self.lex.place_markers)):
            return False
        near = self.lex.completion.search(prefix[-self.zh_window :])
        return near or self.lex.completion_far.search(prefix[-_FAR_WINDOW:])

    def _negated(self, prefix: str, narrow: bool = False) -> bool:
        """Whether a negator stands just before a term (a few characters or words), or the number 0 right before it.

        Args:
            prefix: The text before the term.
            narrow: The term is itself negative (被拒, "rejected"): only a negator right before it turns it round
                ("wasn't rejected", 未被拒), not one of the verb before it (因合约未结清被拒).
        """
        if not prefix:
            return False
        reach = (_NARROW_WORDS, _NARROW_CHARS) if narrow else (self.en_window, self.zh_window)
        window = window_before(prefix, *reach)
        window = window[_part_start(window) :]  # "not possible (seat unavailable", "| 婴儿（不占座） | ❌ 未成功"
        if prefix[-1:].isascii() and window.split()[-1:] == ["0"]:  # "0 in stock"
            return True
        return bool(self.lex.negators.search(window)) \
            or _NOTHING_OPENS.search(prefix, clause_start(prefix, len(prefix))) is not None


_NARROW_WORDS, _NARROW_CHARS = 2, 2
"""How far before a negative term a negator turns it round: words ("was not rejected"), CJK characters (未被拒)."""


def _part_start(window: str) -> int:
    """Where the part of a claim a term stands in starts within the window before it: after a table cell's bar or an
    open parenthesis, which a negator before them does not reach ("not (yet) shipped" is one part)."""
    opened = max(window.rfind("("), window.rfind("（"))
    if opened < max(window.rfind(")"), window.rfind("）")):
        opened = -1
    return max(opened, window.rfind("|")) + 1


def _modifies(text: str, m: Hit, hits: list[tuple[Hit, Term]]) -> bool:
    """Whether a bare polarity word stands right beside a status word of its own concept ("successfully
    cancelled", "cancelled successfully", 成功取消): it qualifies that word."""
    for other, term in hits:
        if other is m or term.polarity is None or term.concept is None:
            continue
        gap = text[m.end : other.start] if other.start >= m.end else text[other.end : m.start]
        if len(gap) <= 2 and not gap.strip(" "):
            return True
    return False


def clause_start(text: str, pos: int) -> int:
    """Start of the clause holding `pos` (searches back at most a short window)."""
    lo = max(0, pos - _WINDOW)
    last = lo
    for m in _CLAUSE_SEP.finditer(text, lo, pos):
        last = m.end()
    return last


_DONE_VERB = re.compile(r"(?:\s+(?:also|now|just|already|successfully|then|since))*\s*"
                        r"([A-Za-z][A-Za-z-]*|[^\x00-\x7f]{1,2})")
"""The verb after an opener of an action done ("I've also cancelled", 已为您解冻), past the adverbs before it."""
_PAST_FORM = re.compile(r"(?i)[a-z-]+ed|sent|made|set|put|taken|done|paid|given|held|built|sold|won|brought|bought|"
                        r"told|rebooked|reset|upgraded|split|cut|shut|run|begun|written|withdrawn|frozen|unfrozen|"
                        r"chosen|spoken|driven")
"""An English verb form an action done takes after "I've" ("cancelled", "sent"); "I've two options" is none."""
_ASKED = re.compile(r"[?？吗]")
"""A question mark, or 吗: the clause asks, it says nothing done."""
_KEY_AFTER = re.compile(r"s?[ \t]*[:：]?[ \t*]*#?[A-Za-z]{0,4}[-_]?\d")
"""A record's key right after a concept word ("order #W3561391", "orders: #W1"), its plural's s included."""
_WORD_BEFORE = re.compile(r"(\w+)\s*$")
_DETERMINERS = frozenset("no any the your a an other more some its their our my these those this that".split())
"""Words before a status word that make it the adjective of the concept word after it ("no pending orders");
a count ("two unpaid invoices") keeps it: the count is of the records of that status."""


def _attributive(text: str, m: Hit, term: Term, concepts: list[tuple[Hit, Term]]) -> bool:
    """Whether an English status word stands right before a concept word, as its adjective ("pending orders");
    a phrase ("found no issues") is no adjective."""
    if " " in term.text or not text[m.start : m.end].isascii():
        return False
    after = _SPACES.match(text, m.end).end()
    noun = next((c for c, _ in concepts if c.start == after), None)
    if after == m.end or noun is None:
        return False
    if _KEY_AFTER.match(text, noun.end):
        return False  # "Delivered order #W3561391", "Pending orders: #W1 and #W2": the state of those records
    before = _WORD_BEFORE.search(text, 0, m.start)  # "I've redirected parcel …": a verb and its object
    return before is None or before[1].lower() in _DETERMINERS


def _nearest(m: Hit, concepts: list[tuple[Hit, Term]], text: str) -> tuple[Hit, Term] | None:
    """The concept word a status word speaks of: in Chinese one right after it (成功取消), else the nearest before it,
    else the nearest after.

    A concept joined to an earlier one by a preposition is its complement, not the subject:
    in "your refund for order 88231 succeeded" the status speaks of the refund. A concept word
    inside brackets closed before the status word is an aside ("(CaixaBank, account ending 7781)
    completed").
    """
    right = next((c for c in concepts if c[0].start == m.end), None)
    if right is not None and not text[m.start : m.end].isascii():
        return right  # "订单已于今日成功取消": the verb right after 成功 is what succeeded, not the order
    before = [c for c in concepts if c[0].start < m.start and not _in_aside(text, c[0].end, m.start)]
    if before:
        i = len(before) - 1
        while i > 0 and _PREPOSITION.search(text, before[i - 1][0].end, before[i][0].start):
            i -= 1
        return before[i]
    after = [c for c in concepts if c[0].start > m.start]
    return after[0] if after else None


def _in_aside(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` closes a bracket it did not open: what stands before is inside an aside."""
    depth = 0
    for ch in text[start:end]:
        if ch in "(（":
            depth += 1
        elif ch in ")）":
            depth -= 1
            if depth < 0:
                return True
    return False


def _in_compound(text: str, m: Hit, joiners: str) -> bool:
    """Whether one of `joiners` joins the word at `m` to a word before or after it ("payments-api",
    "extract_orders")."""
    before = m.start >= 2 and text[m.start - 1] in joiners and text[m.start - 2].isalnum()
    after = m.end + 1 < len(text) and text[m.end] in joiners and text[m.end + 1].isalnum()
    return before or after
