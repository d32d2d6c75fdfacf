"""A date said in a role (arriving, expires, check-in) that the run's fields of that role give otherwise."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from factcheck.grounding.date_moves import same_date
from factcheck.grounding.moments import NAMED_DATE, bounded
from factcheck.grounding.verdicts import Backing, evidence_of
from factcheck.lexicon import field_name
from factcheck.report import Fact, FactKind

if TYPE_CHECKING:
    from factcheck.grounding.evidence import EvidenceIndex, Leaf

_DATE_VALUE = re.compile(r"(\d{4}-\d{2}-\d{2})(?:$|[T ])")
"""A field's value that is a date or a moment (`2025-03-14`, `2025-03-14T18:00:00Z`): its date."""
_CLAUSE_END = re.compile(r"[,，;；。!?！？()（）\n]|\.(?:\s|$)")
"""What ends the clause after a date."""
_REACH = 24
"""How far (characters) from the date its role word may stand, within its clause."""
WORKED = re.compile(r"(?i)\b(?:by|until|till|before|after|no later than|at the latest|latest)\b|最晚|最迟|之前|以前|"
                     r"[至到]\s*$|^\s*[前后止]|也就是|即|\bnext\b|下次|下一|下个")
"""Words that make a date a limit or worked out from another ("by Nov 29", "可退至", "也就是 3 月 15 日", "the next
premium is due")."""
_RELATIVE = re.compile(r"\s*(?:前|后|之前|之后|\s+before|\s+after)")
"""Right after a role's word: a date counted from it ("入住前一天", "出发前21天"), not the role's own."""
_ATTACHED = 3
"""How near after another date (characters) a role's word is that date's ("6 月 20 日就签收了")."""
_MOST_DATES = 3
"""Most distinct dates the role's fields may give (several parcels' ETAs): more, and none is the claim's."""


def role_date_disagrees(fact: Fact, facts: list[Fact], claim: str, start: int, index: EvidenceIndex
                        ) -> Backing | None:
    """A date no tool output gives, said in one role (lexicon `date_roles`: "expected to arrive Friday, March 14",
    "Trial 结束：12 月 13 日", "新的还车时间是 10 月 1 日"), where the run's fields of that role (`date_role_fields`:
    `estimated_delivery`, `trial_end`, `new_return`) give other dates, at most a few of them: the date of the role is
    the tool's. A date with a bound word beside it ("until", 之前) is a range's end, often worked out, and is not read.

    Args:
        fact: A date no tool output gives.
        facts: The claim's facts (a role's word nearer another date is that date's).
        claim: The claim's text.
        start: Where the claim's text starts in the answer.
        index: The run's evidence.

    Returns:
        A `value_mismatch` backing with the role's field as evidence, or None.
    """
    lex = index.lex
    if fact.kind != FactKind.DATE or not fact.value or not NAMED_DATE.search(fact.text):
        return None  # "6/12" may be a fraction
    if bounded(fact, claim, start, lex):
        return None  # "since Nov 3", "11月3日以来": a range's bound
    at, end = fact.start - start, fact.end - start
    begin = max([max(0, at - _REACH)] + [m.end() for m in _CLAUSE_END.finditer(claim, max(0, at - _REACH), at)
                                          if m[0] not in ",，"])  # "arrive Friday, March 14": a comma stays
    stop = next((m.start() for m in _CLAUSE_END.finditer(claim, end)), len(claim))
    before, after = claim[begin:at].lower(), claim[end : min(stop, end + _REACH)].lower()
    if lex.deadline_words.search(before) or WORKED.search(before) or WORKED.search(after[:4]):
        return None  # "退货期到 12 月 20 日", "最晚 6 月 19 日前", "by Nov 29": a limit, often worked out
    # the role's word, nearest the date on either side, with no other date of the claim between them
    dates = [(f.start - start, f.end - start) for f in facts if f.kind == FactKind.DATE and f is not fact]
    role_of = lex.date_role_of
    said = [(at - (begin + h.end), role_of[h.key]) for h in lex.date_role_words.finditer(before)
            if not any(begin + h.end <= d < at for d, _ in dates)
            and not any(0 <= begin + h.start - e <= _ATTACHED for _, e in dates)
            and not _RELATIVE.match(before, h.end)]
    said += [(h.start, role_of[h.key]) for h in lex.date_role_words.finditer(after)
             if not any(end <= d < end + h.start for d, _ in dates)]
    roles = {role for gap, role in said if gap == min(gap for gap, _ in said)} if said else set()
    if len(roles) != 1:
        return None
    fields = lex.date_role_fields.get(roles.pop(), [])
    found: dict[str, Leaf] = {}
    for flat in index.flats[: len(index.calls)]:
        if index.calls[flat.call].status == "error":
            continue
        for shape, bucket in flat.strings.items():
            if field_name(shape) not in fields:
                continue
            for text, (node, key) in bucket.items():
                m = _DATE_VALUE.match(text)
                if m and m[1] not in found:
                    found[m[1]] = index.leaf(flat.call, flat.path(node, key), shape, text)
    if not found or len(found) > _MOST_DATES or any(same_date(fact.value, date) for date in found):
        return None
    leaf = next(iter(found.values()))
    shown = ", ".join(sorted(found))
    return "value_mismatch", f"tool gives {shown} for {field_name(leaf.path)}, not {fact.text}", \
        [evidence_of(leaf, index)]

