"""Items said under a group they do not belong to (an order's item listed under the other package's tracking number)."""

from __future__ import annotations

from typing import Any

from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.flat import value_in
from factcheck.grounding.naming import WORD_NAMED_RECORDS, distinct_words
from factcheck.grounding.roles import PATH_STEP, ClaimText, join_path
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.report import Fact, FactKind, Verdict

_CJK_NAME = 4
"""Fewest characters of a Chinese run that names an item on its own (美的电热水壶; not 包裹)."""


def members_of_other_groups(claim: ClaimText, index: EvidenceIndex) -> None:
    """Contradict the items a claim lists under the one group it names by key when their own record refers to
    another group of the same output (an order's `items[].package_no` PKG-2 against `packages[]`, the claim naming
    PKG-1's tracking number).

    The group is an entry of a list of records the claim names by an identifier; the items are entries of another
    list of the same output, each with a field whose value is one group's own value (its `package_no`), named in the
    claim by a backed identifier or name of theirs, or by words no other item has. A named item added to the claim's
    facts when words name it.

    Args:
        claim: The claim, its facts grounded.
        index: The run's evidence.
    """
    entries = {e for f in claim.facts if f.kind == FactKind.IDENTIFIER and f.verdict == Verdict.SUPPORTED
               and (e := _entry(f)) is not None}
    found = []  # (call, group list, the named group, items list, each item's group)
    for call, group_list, own in entries:
        output = index.flats[call].value
        records = value_in(output, group_list) if isinstance(output, dict) else None
        if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
            continue
        for items_path, items in _lists(output):
            if items_path != group_list and len(items) <= WORD_NAMED_RECORDS \
                    and (belongs := _groups_of(items, records)) is not None:
                found.append((call, group_list, own, items_path, belongs))
    if len({(call, group_list, own) for call, group_list, own, _, _ in found}) != 1:
        return  # no group named, or several: "SF… 和 ZT… 两个包裹"
    for call, group_list, own, items_path, belongs in found:
        items = value_in(index.flats[call].value, items_path)
        for j, named in _named_items(claim, index, call, items_path, items):
            if belongs[j] == own:
                continue
            where = f"{items_path}[{j}]"
            group = value_in(index.flats[call].value, group_list)[belongs[j]]
            ref = index.leaf_at(call, f"{where}.{_ref_field(items[j], group)}")
            fact = named if isinstance(named, Fact) else _name_fact(claim, index, *named)
            set_verdict(fact, Verdict.CONTRADICTED, "wrong_record",
                        f"{where} belongs to {group_list}[{belongs[j]}], not to {group_list}[{own}], the one the claim "
                        "names", [evidence_of(ref, index)] if ref is not None else [])


def _entry(fact: Fact) -> tuple[int, str, int] | None:
    """(call, list path, index) of the list entry an identifier's evidence is a field of (`packages[0].tracking`)."""
    ev = fact.evidence[0] if fact.evidence else None
    if ev is None or ev.source != "tool" or ev.index is None or not ev.path:
        return None
    steps = PATH_STEP.findall(ev.path)
    if len(steps) < 3 or not steps[-2].startswith("[") or steps[-1].startswith("["):
        return None
    return ev.index, join_path(steps[:-2]), int(steps[-2][1:-1])


def _lists(output: Any) -> list[tuple[str, list[dict]]]:
    """The top-level lists of records of an output, by field name."""
    if not isinstance(output, dict):
        return []
    return [(str(k), v) for k, v in output.items()
            if isinstance(v, list) and len(v) >= 2 and all(isinstance(r, dict) for r in v)]


def _groups_of(items: list[dict], groups: list[dict]) -> list[int] | None:
    """For each item, the one group whose own value one of its fields holds; None unless every item has one."""
    found = []
    for item in items:
        hits = {g for g, group in enumerate(groups) if _ref_field(item, group)}
        if len(hits) != 1:
            return None
        found.append(hits.pop())
    return found if len(set(found)) >= 2 else None


def _ref_field(item: dict, group: dict) -> str:
    """The item's field whose string value is a value of the group's own (`package_no: PKG-2`), or ""."""
    own = {v for v in group.values() if isinstance(v, str) and len(v) >= 2}
    return next((str(k) for k, v in item.items() if isinstance(v, str) and v in own), "")


def _named_items(claim: ClaimText, index: EvidenceIndex, call: int, path: str, items: list[dict]
                 ) -> list[tuple[int, Fact | tuple[int, str, str]]]:
    """The items the claim names: (item, its backed fact) for a fact whose evidence is in one, else (item, (where
    the word stands in the claim's text, the word, the item's field that holds it)) for a word only it has."""
    named: list[tuple[int, Fact | tuple[int, str, str]]] = []
    for f in claim.facts:
        ev = f.evidence[0] if f.evidence and f.verdict == Verdict.SUPPORTED else None
        if f.kind in (FactKind.NAME, FactKind.IDENTIFIER) and ev is not None and ev.source == "tool" \
                and ev.index == call and ev.path.startswith(path + "["):
            named.append((int(ev.path[len(path) + 1 : ev.path.index("]", len(path))]), f))
    taken = {j for j, _ in named}
    lower = claim.text.lower()
    for j, words in enumerate(distinct_words(items)):
        said = sorted((w for w in words if w in lower and len(w) >= 3), key=lower.find)
        if not said or not (len(said) >= 2 or not said[0].isascii() and len(said[0]) >= _CJK_NAME):
            continue  # one short Latin word ("hub", "pack") names no item: two of its words, or a long CJK run
        field = next((str(k) for k, v in items[j].items() if isinstance(v, str) and said[0] in v.lower()), None)
        if j not in taken and field is not None:
            named.append((j, (lower.find(said[0]), said[0], field)))
    return named


def _name_fact(claim: ClaimText, index: EvidenceIndex, at: int, word: str, field: str) -> Fact:
    """A name fact for the word that names an item, added to the claim (its evidence is found again by the caller)."""
    fact = Fact(kind=FactKind.NAME, text=claim.text[at : at + len(word)], start=claim.start + at,
                end=claim.start + at + len(word), value=word, verdict=Verdict.SUPPORTED, code="match",
                reason=f"names an item by words no other item has ({field})")
    claim.facts.append(fact)
    return fact
