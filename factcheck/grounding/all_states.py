"""A state said of all the records of a list ("All 5 rooms are confirmed") against each record's own status."""

from __future__ import annotations

import re
from collections import defaultdict

from factcheck.grounding.counting import AGREES
from factcheck.grounding.evidence import EvidenceIndex, StatusEvidence
from factcheck.lexicon import field_name
from factcheck.report import Fact, FactKind

_ENTRY_STATUS = re.compile(r"^(.*)\[\d+\]\.([^.\[\]]+)$")
"""A field of a list entry (`rooms[3].status`): the list's path and the field."""
_NAMING = (FactKind.IDENTIFIER, FactKind.NAME, FactKind.DATE, FactKind.EMAIL)
"""Facts that name records: said before the state, they are the records "all" speaks of."""
_BEFORE = 24
"""How far before the state word (characters) the word for all of them stands ("All 5 rooms are", 5 间房都)."""


def not_all_in_state(
    fact: Fact, polarity: str, pool: list[StatusEvidence], claim: str, at: int, claim_facts: list[Fact],
    index: EvidenceIndex,
) -> StatusEvidence | None:
    """The status of a record that is not in the state the claim says all the records of a list are in.

    The claim says the state of all of them (lexicon `all_words` shortly before the state word: "All 5 rooms are
    confirmed", 全部已确认); the records are the entries of the one list of one call whose status fields state
    the state's concept, some in it and some not (`status: CANCELLED` among `CONFIRMED`). Nothing is said when
    the claim counts just the records in the state ("all 4 confirmed rooms" of five), or the list is not one.

    Args:
        fact: A status or action said done (positive).
        polarity: Its polarity.
        pool: The statuses that state its concept.
        claim: The claim's text.
        at: Where the fact starts in it.
        claim_facts: The claim's facts (its counts).
        index: The run's evidence.

    Returns:
        The first status that disagrees, or None.
    """
    if polarity != "positive" or not index.lex.all_words.search(claim[max(0, at - _BEFORE) : at + 2]):
        return None
    fields = index.lex.status_fields
    lists: dict[tuple[int, str, str], list[StatusEvidence]] = defaultdict(list)
    for s in pool:
        entry = _ENTRY_STATUS.match(s.leaf.path) if s.leaf.source == "tool" and not s.leaf.count else None
        if entry and fields.lookup(field_name(entry[2]).rsplit(" ", 1)[-1]) is not None:
            lists[(s.call, entry[1], entry[2])].append(s)
    stated = [(key, statuses) for key, statuses in lists.items() if len(statuses) >= 2]
    if len(stated) != 1 or any(f.kind in _NAMING and f.start < fact.start for f in claim_facts):
        return None  # "W47 和 W48 的 box 都已送达": all of the records it names
    (call, path, field), statuses = stated[0]
    words = [hit.key for hit, term in index.lex.term_hits(fact.text.lower()) if term.polarity == polarity]
    agree = [s for s in statuses if s.polarity in AGREES[polarity] and (  # a state word of no concept: its own
        s.concept == fact.concept if fact.concept else s.concept is None  # word, or a state of no concept either
        or any(w in s.leaf.text.lower() for w in words))]
    states = {s.leaf.text.lower() for s in agree}
    other = [s for s in statuses if s not in agree and s.leaf.text.lower() not in states]
    # a string is indexed at its first place only: the entries in the state are counted in the list itself
    entries = index.value_at(call, path)
    in_state = sum(isinstance(e, dict) and str(e.get(field)).lower() in states for e in entries) \
        if isinstance(entries, list) else len(agree)
    counts = {int(f.value) for f in claim_facts if f.kind == FactKind.NUMBER and f.value and f.value.isdigit()}
    if not agree or not other or in_state in counts:
        return None
    return other[0]
