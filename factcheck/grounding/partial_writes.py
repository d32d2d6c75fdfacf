"""A write whose own output says it went through only in part, reported as done for all with no word of what failed."""

from __future__ import annotations

import re
from typing import Any

from factcheck.grounding.coverage import EN_ALL, ZH_ALL
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.flat import Leaf
from factcheck.grounding.multiplicity import small_number
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.lexicon import Lexicon, field_name
from factcheck.report import Claim, Fact, FactKind, Verdict

_FAILED_LISTS = re.compile(r"(?i)^(?:failed|failures|rejected|declined|errors|not_[a-z]+|unprocessed|skipped|"
                           r"waitlisted)$")
"""The names of an output's lists of the members a write did not get through (`failed`, `rejected`)."""
_MEMBER_NAME = re.compile(r"[^\W\d_]{2,}|\w*\d\w*")
"""A member's name or id worth looking for in the answer (two letters or more, or a code with a digit)."""
_NOT_DONE = re.compile(r"\b(?:could|can|was|were|did|does|do|is|are|has|have)(?:n't|n’t| not)\b|\bcannot\b|"
                       r"\bnot (?:yet )?\w+ed\b|"
                       r"\bunable\b|未能|没能|无法|未[\u4e00-\u9fff]|没有[\u4e00-\u9fff]|不能")
"""A verb said not done ("couldn't", "doesn't have", "not paused", 未能, 未开具): the answer tells of what did not go
through."""
_CLAUSE = re.compile(r"[^,;:，；：。.!?！？\n]+")
"""A clause of the answer."""
_COUNT = re.compile(r"(?<![\d.:/-])(\d{1,2}|[一两二三四五六七八九十])\s*(?=[张项件位个笔条单人名台门间份])")
"""A small count of things in Chinese (4 项, 两张): a smaller one after a larger in a clause says a part was done."""
_OF = re.compile(r"\b(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten) of (?:the |your |all |these )?"
                 r"(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\b")
"""A part of a whole in English ("2 of the 3", "three of your four")."""
_BOTH = re.compile(r"(?i)\bboth\b|\beach of\b|\beveryone\b|\ball of you\b")
"""Words that speak of every member, beside those coverage reads ("all four of you", 全部, 均已)."""


def partial_reported_whole(claims: list[Claim], source: str, index: EvidenceIndex) -> None:
    """Flag an answer that reports a partly failed write as done for all, saying nothing of what failed.

    A write of the run (a successful call of a tool not declared a read) whose output's own status field says it
    went through only in part (`result: partial`, 部分成功) has members it did not get through (its `failed` or
    `rejected` list, or list entries whose status is negative). An answer that holds no failure word, no word of
    a part, and no failed member said with a negator reports it as done for all: the first claim that speaks of all
    of them ("All four of you are now confirmed", 5 个订单已全部预约好; each such claim), else the first that says an
    action done, gets a status fact contradicted by the write's status; a claim that says a failed member done ("Tom
    Mendes: confirmed as well") has its state contradicted. A write whose status says no such thing but whose own
    members went both ways (`results` refunded and failed; a `failed` list beside a `cancelled` one) is read the same
    way, for the claims of all only, and not when the answer says a part ("三张里退成功了两张", "2 of the 3").

    Args:
        claims: The answer's claims, grounded.
        source: The answer's text the claims are offsets into.
        index: The run's evidence.
    """
    lex = index.lex
    writes = [call for call in index.calls if call.status == "ok" and not lex.read_only_tools.match(call.name or "")]
    # a status that says so; else (`mixed`) members that went both ways, and only a claim of all is read
    partial = [(call, leaf, False) for call in writes if (leaf := _partial_status(index, call.index)) is not None] \
        or [(call, leaf, True) for call in writes if (leaf := _mixed_outcome(index, call.index)) is not None]
    if not partial:
        return
    call, leaf, mixed = partial[-1]
    failed = _failed_members(index.flats[call.index].value, lex)
    if _acknowledged(claims, source, failed, index) or mixed and _part_said(source, lex):
        return
    spots = _whole_claims(claims, source)
    if not spots and not mixed:
        spots = [(c, c.start + _lead(source[c.start : c.end]), c.end) for c in claims if any(
            f.kind in (FactKind.ACTION, FactKind.STATUS) and f.polarity == "positive"
            and f.verdict == Verdict.SUPPORTED for f in c.facts)][:1]
    shown = f"; not {', '.join(failed[:3])}" if failed else ""
    for target, at, end in spots:
        fact = Fact(kind=FactKind.STATUS, text=source[at:end], start=at, end=end, polarity="positive")
        set_verdict(fact, Verdict.CONTRADICTED, "record_state",
                    f"tool {call.name} says {leaf.path} {leaf.text!r}{shown}; the answer says nothing failed",
                    [evidence_of(leaf, index)])
        target.facts.append(fact)
        target.facts.sort(key=lambda f: f.start)
    for claim in claims:  # "Tom Mendes: confirmed as well", of a passenger the write waitlisted
        named = next((name for name in failed if name.lower() in source[claim.start : claim.end].lower()), None)
        said = [f for f in claim.facts if f.kind in (FactKind.ACTION, FactKind.STATUS) and f.polarity == "positive"
                and f.verdict == Verdict.SUPPORTED] if named else []
        if said:
            set_verdict(said[0], Verdict.CONTRADICTED, "record_state", f"tool {call.name} says {leaf.path} "
                        f"{leaf.text!r} and did not get {named} through; the answer says it did",
                        [evidence_of(leaf, index)])


def _partial_status(index: EvidenceIndex, call: int) -> Leaf | None:
    """The leaf of the output's top-level status field when its value says the write went through in part."""
    output = index.flats[call].value
    if not isinstance(output, dict):
        return None
    lex = index.lex
    for field, value in output.items():
        if isinstance(value, str) and lex.status_fields.lookup(field_name(str(field))) is not None \
                and lex.partial_outcomes.search(value.lower().replace("_", " ")):
            return index.leaf_at(call, str(field))
    return None


def _mixed_outcome(index: EvidenceIndex, call: int) -> Leaf | None:
    """A leaf of the first member a write did not get through, when its output lists members it got through too:
    entries of one list whose own statuses are negative and positive (`results: [{status: refunded}, {status:
    failed}]`), or a failed list beside another list of members (`cancelled: [...]`, `failed: [...]`)."""
    output = index.flats[call].value
    if not isinstance(output, dict):
        return None
    lists = {str(k): v for k, v in output.items() if isinstance(v, list) and v and all(isinstance(e, dict) for e in v)}
    for field, entries in lists.items():
        if _FAILED_LISTS.match(field) and any(not _FAILED_LISTS.match(other) for other in lists):
            first = next(iter(entries[0]), None)
            return index.leaf_at(call, f"{field}[0].{first}") if first is not None else None
        said = [_statuses(e, index.lex) for e in entries]
        failed = [(i, key) for i, pairs in enumerate(said) for key, polarity in pairs if polarity == "negative"]
        if failed and any(polarity == "positive" for pairs in said for _, polarity in pairs):
            i, key = failed[0]
            return index.leaf_at(call, f"{field}[{i}].{key}")
    return None


def _statuses(entry: Any, lex: Lexicon) -> list[tuple[str, str]]:
    """The polarities a list entry's own status fields give it, each with its field (`status: refunded` ->
    ("status", "positive"))."""
    if not isinstance(entry, dict):
        return []
    return [(str(k), t.polarity) for k, v in entry.items() if isinstance(v, str)
            and lex.status_fields.lookup(field_name(str(k))) is not None for _, t in lex.term_hits(v.lower())]


def _failed_members(output: dict[str, Any], lex: Lexicon) -> list[str]:
    """The names and ids of the members the write did not get through: entries of its failed lists, and list entries
    whose own status is negative."""
    entries: list[Any] = []
    for field, value in output.items():
        if isinstance(value, list) and _FAILED_LISTS.match(str(field)):
            entries += value
        elif isinstance(value, list):
            entries += [v for v in value if any(polarity == "negative" for _, polarity in _statuses(v, lex))]
    names = []
    for entry in entries:
        values = entry.values() if isinstance(entry, dict) else [entry]
        names += [str(v) for v in values if isinstance(v, str | int) and not isinstance(v, bool)
                  and 3 <= len(str(v)) <= 40 and _MEMBER_NAME.fullmatch(str(v).split()[0])
                  and not lex.term_hits(str(v).lower())]  # "Ana Ruiz", seat "25D"; not "rejected", nor "P3"
    return list(dict.fromkeys(names))


def _acknowledged(claims: list[Claim], source: str, failed: list[str], index: EvidenceIndex) -> bool:
    """Whether the answer says something did not go through: a failure or pending word, a status said not done, a
    word of a part, a verb said not done ("Couldn't remove the ice cream", 未开具, "Ada doesn't have a seat"), or a
    failed member said in a clause with a negator."""
    lex = index.lex
    lower = source.lower()
    if any(t.polarity in ("negative", "pending") for _, t in lex.term_hits(lower)) or any(
            f.kind in (FactKind.STATUS, FactKind.ACTION) and f.polarity in ("negative", "pending")
            for claim in claims for f in claim.facts):
        return True
    if lex.partial_outcomes.search(lower) or _NOT_DONE.search(lower):
        return True
    for m in _CLAUSE.finditer(lower):
        clause = m.group()
        if lex.negators.search(clause) and any(name.lower() in clause for name in failed):
            return True
    return False


def _part_said(source: str, lex: Lexicon) -> bool:
    """Whether a clause of the answer says a smaller count after a larger one ("4 项增值业务退掉了 3 项",
    "三张里退成功了两张", "2 of the 3 lines"): a part of the whole was done."""
    for m in _CLAUSE.finditer(source.lower()):
        counts = [n for w in _COUNT.findall(m.group()) if (n := small_number(lex, w)) is not None]
        if any(later < earlier for earlier, later in zip(counts, counts[1:], strict=False)):
            return True
        for part, whole in _OF.findall(m.group()):
            if (p := small_number(lex, part)) is not None and (w := small_number(lex, whole)) is not None and p < w:
                return True  # "2 of the 3 lines"
    return False


def _whole_claims(claims: list[Claim], source: str) -> list[tuple[Claim, int, int]]:
    """The claims that speak of every member ("all four of you", "both items", 全部, 均已), each with where its first
    words of all stand in the answer."""
    found = []
    for claim in claims:
        text = source[claim.start : claim.end]
        hit = next((m for pattern in (EN_ALL, _BOTH, ZH_ALL) if (m := pattern.search(text))), None)
        if hit is not None:
            found.append((claim, claim.start + hit.start(), claim.start + hit.end()))
    return found


def _lead(text: str) -> int:
    """Where a claim's words start after its list markers."""
    return len(text) - len(text.lstrip("-*•# \t"))
