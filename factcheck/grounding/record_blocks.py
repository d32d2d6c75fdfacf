"""A record's key said over what only another record of its kind holds: "Order ID: #W7181492" over #W5565470's items."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from factcheck.grounding.calls import said_whole
from factcheck.grounding.evidence import EvidenceIndex, record_key
from factcheck.grounding.flat import Leaf, scalars_of
from factcheck.grounding.states import ends_block
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.report import Claim, Evidence, Fact, FactKind, Verdict

_DIGITS = re.compile(r"\d")
_NAMING = (FactKind.IDENTIFIER, FactKind.NAME)
_NAME_FIELD = re.compile(r"(?i)name|title")
"""The fields of an item that name it (`name`, `product_name`, `title`)."""
_NAME_WORD = re.compile(r"(?=[a-z0-9]*[a-z])[a-z0-9]{3,}|[\u3400-\u9fff]{2,}")
"""A word of a name: Latin letters and digits with a letter, three or more; a CJK run of two or more."""
_APART = re.compile(r"(?i)\b(?:except|excluding|without|other than|besides|instead of|another)\b|除了|除外|以外|另一")
"""Words that set a named thing apart from the record ("all items except your boots", "in another order")."""
_SHORTEST = 3
"""Shortest name or identifier that binds a block to a record (two characters name nothing)."""


def _kind(key: str) -> str:
    """A key's kind: its digits folded ("w5199551" -> "w9999999"), its letters kept, so "LI-77812" is no key of the
    kind of "RD-20581" (`states._shape` folds letters too: a looser likeness for another use)."""
    return _DIGITS.sub("9", key)


def claim_blocks(claims: list[Claim], source: str, ends: Callable[[str], bool] = ends_block) -> list[list[Claim]]:
    """The claims grouped by block: a blank line or a heading ends one (or whatever gap `ends` says ends one)."""
    blocks: list[list[Claim]] = []
    end = 0
    for claim in claims:
        if not blocks or ends(source[end : claim.start]):
            blocks.append([])
        blocks[-1].append(claim)
        end = claim.end
    return blocks


class _Records:
    """The run's records keyed at the top of a call's output, and the text each call's output holds."""

    def __init__(self, index: EvidenceIndex) -> None:
        self.index = index
        self.keys = {c.index: index.record_keys(c.index) for c in index.calls if c.status != "error"}
        """Successful call -> the keys of the record its output is."""
        self._texts: dict[int, str] = {}
        self._words: dict[str, list[tuple[str, str, Leaf]]] = {}

    def key_fields(self) -> dict[str, set[str]]:
        """Each kind of key a call's output is keyed by (`_kind`), with the fields that hold it (`order_id`)."""
        fields: dict[str, set[str]] = {}
        for call in self.keys:
            output = self.index.flats[call].value
            if isinstance(output, dict):
                for field, value in output.items():
                    if isinstance(value, str | int) and not isinstance(value, bool) \
                            and record_key(str(value)) in self.keys[call]:
                        fields.setdefault(_kind(record_key(str(value))), set()).add(str(field))
        return fields

    def item_words(self, kind: str) -> list[tuple[str, str, Leaf]]:
        """(word, record key, where) of each word of an item's name in the records keyed by `kind` that one
        record alone has and no output of another kind holds ("tablet" of #W2692684's `items[0].name`)."""
        found = self._words.get(kind)
        if found is not None:
            return found
        by_key: dict[str, dict[str, Leaf]] = {}
        for call, keys in self.keys.items():
            own = [k for k in keys if _kind(k) == kind]
            if len(own) != 1:
                continue
            words = by_key.setdefault(own[0], {})
            for path, name in _item_names(self.index.flats[call].value):
                leaf = self.index.leaf_at(call, path)
                for word in _NAME_WORD.findall(name.lower()):
                    if leaf is not None and word not in self.index.lex.status_words:
                        words.setdefault(word, leaf)
        counts = Counter(w for words in by_key.values() for w in words)
        others = [call for call, keys in self.keys.items() if not any(_kind(k) == kind for k in keys)]
        found = self._words[kind] = [
            (word, key, leaf) for key, words in by_key.items() for word, leaf in words.items()
            if counts[word] == 1 and not any(word in self.text(call) for call in others)
        ]
        return found

    def text(self, call: int) -> str:
        """The strings and numbers of a call's output, lower case, NUL between them (read once per call)."""
        found = self._texts.get(call)
        if found is None:
            found = self._texts[call] = "\x00".join(
                str(v).lower() for v in scalars_of(self.index.flats[call].value) if v is not None)
        return found

    def holders(self, value: str) -> set[int]:
        """The successful calls whose output holds `value` (lower case) as a whole word."""
        return {call for call in self.keys if said_whole(self.text(call), value)}


def record_of_block(claims: list[Claim], source: str, index: EvidenceIndex) -> None:
    """Contradict a record's key said in a block whose other names and identifiers only another record holds.

    In "- **Order ID:** #W7181492 / - **Items:** Hiking Boots (item 3613716226)", #W7181492 is one of the user's
    orders, but the boots and the item id are only in the output of `get_order_details("#W5565470")`: the block
    describes #W5565470 and gives it another order's key. The key is the block's only key of its kind (same
    kind as a record key a call returned: `#W` and seven digits), the answer never says the other record's key,
    and every name, identifier or word of an item's name in the block that one keyed record alone holds is that
    other record's. A block that also names the key's own record's things, says "except", "another" or a negation,
    or holds an item id the other record lacks, is left alone.

    Args:
        claims: The answer's claims, grounded.
        source: The text the claims' offsets are in.
        index: The run's evidence.
    """
    if not any(f.kind == FactKind.IDENTIFIER and f.verdict == Verdict.SUPPORTED and f.evidence
               and _keyed_at(f.evidence[0].path) for c in claims for f in c.facts):
        return  # no key said where keys stand (most answers): nothing to read
    records = _Records(index)
    fields = records.key_fields()
    if not fields:
        return
    lowered = source.lower()
    for block in claim_blocks(claims, source):
        facts = [f for claim in block for f in claim.facts if f.kind in _NAMING]
        keys = [f for f in facts if _kind(record_key(f.value or f.text)) in fields]
        said = {record_key(f.value or f.text) for f in keys}
        if len(said) != 1 or any(f.verdict != Verdict.SUPPORTED or not _of_key_field(f, fields, index) for f in keys):
            continue
        key = next(iter(said))
        kind = _kind(key)
        text = lowered[block[0].start : block[-1].end]
        if index.lex.other_record_words.search(text):
            continue  # "the tablet is in your other order": the block speaks of another record too
        # what a claim says a record lacks binds the block to no record ("does not contain a garden hose", "all
        # items except your boots")
        affirmed = [c for c in block if c.act is None or c.act.asserts
                    if not index.lex.negators.search(c.text) and not _APART.search(c.text)]
        owners = _owners(block, kind, records)
        if key in owners or len(owners) != 1:
            continue  # the block names its own record's things too ("The Phone Case (#W1180038) hasn't shipped")
        owners = _owners(affirmed, kind, records)
        if len(owners) != 1:
            continue  # nothing binds the block, or its words are of several records
        other, bound = next(iter(owners.items()))
        if said_whole(lowered, other):
            continue  # a record the answer names too (an earlier paragraph's order)
        if any(_unheld(f, other, kind, records) for f in facts if f.kind == FactKind.IDENTIFIER and f not in keys):
            continue  # an item id the other record lacks: the block knows the record from elsewhere
        key_leaf = index.find_token(other)
        cite = [ev for _, ev in bound[:2]] + ([evidence_of(key_leaf, index)] if key_leaf is not None else [])
        names = ", ".join(dict.fromkeys(name for name, _ in bound[:3]))
        call = bound[0][1].index
        for fact in keys:
            set_verdict(fact, Verdict.CONTRADICTED, "wrong_record",
                        f"{names} {'is' if len(bound) == 1 else 'are'} only in call {call + 1}'s output, "
                        f"the record {other}, not {fact.text}", cite)


def _owners(claims: list[Claim], kind: str, records: _Records) -> dict[str, list[tuple[str, Evidence]]]:
    """The records of the block's kind the claims' names, identifiers and item words bind to, with what binds
    and where."""
    owners: dict[str, list[tuple[str, Evidence]]] = {}
    for fact in (f for c in claims for f in c.facts if f.kind in _NAMING):
        owner = _owner(fact, kind, records)
        if owner is not None:
            owners.setdefault(owner[0], []).append((fact.text, owner[1]))
    words = records.item_words(kind)
    for claim in claims if words else ():
        said = claim.text.lower()
        for word, owner, leaf in words:
            if said_whole(said, word):
                owners.setdefault(owner, []).append((word, evidence_of(leaf, records.index)))
    return owners


def _unheld(fact: Fact, other: str, kind: str, records: _Records) -> bool:
    """Whether an identifier of the block is in no output, or only in records of the kind other than `other`."""
    value = (fact.value or fact.text).lower()
    holders = records.holders(value)
    return not holders or all(
        any(_kind(k) == kind and k != other for k in records.keys[c]) for c in holders)


def _keyed_at(path: str) -> bool:
    """Whether a path can hold a record's key: a top-level field (`order_id`) or an element of a list (`orders[2]`)."""
    return "." not in path and "[" not in path or path.endswith("]")


def _item_names(output: object) -> list[tuple[str, str]]:
    """(path, text) of the name of each item of the lists at the top of a record (`items[0].name`)."""
    if not isinstance(output, dict):
        return []
    return [
        (f"{field}[{i}].{k}", v) for field, items in output.items() if isinstance(items, list)
        for i, item in enumerate(items) if isinstance(item, dict)
        for k, v in item.items() if isinstance(v, str) and _NAME_FIELD.search(str(k))
    ]


def _of_key_field(fact: Fact, fields: dict[str, set[str]], index: EvidenceIndex) -> bool:
    """Whether a key the answer says is found as a record's key: in a field that keys records of its kind
    (`order_id`), or in a list of such keys (the user's `orders`), not as some other field of the same kind (an
    item's `item_id` beside a product's `product_id`)."""
    ev = fact.evidence[0] if fact.evidence else None
    if ev is None or ev.source != "tool" or not ev.path:
        return False
    kind = _kind(record_key(fact.value or fact.text))
    if ev.path.endswith("]"):  # an element of a list of keys: `orders[2]`
        listed = index.value_at(ev.index, ev.path[: ev.path.rfind("[")])
        return isinstance(listed, list) and all(isinstance(v, str) and _kind(record_key(v)) == kind for v in listed)
    return ev.path.rsplit(".", 1)[-1] in fields.get(kind, set())


def _owner(fact: Fact, kind: str, records: _Records) -> tuple[str, Evidence] | None:
    """The key of the one record of the block's kind that holds a backed name or identifier, and where.

    None for the block's keys themselves, a value several records hold (the user's id in every order), a record
    key of another kind (`user_id`), or a value no keyed record of that kind holds.
    """
    if fact.verdict != Verdict.SUPPORTED or not fact.evidence or fact.evidence[0].source != "tool":
        return None
    value = (fact.value or fact.text).lower()
    if len(value) < _SHORTEST or _kind(record_key(value)) == kind:
        return None
    ev = fact.evidence[0]
    if "[" not in ev.path:
        return None  # a top-level field (the user's id, the shipping address): the same for the user's orders, or a
        # value asked for ("update #W4219264 to 144 Lakeview Drive", another order's address)
    holders = records.holders(value)
    owners = {k for call in holders for k in records.keys[call] if _kind(k) == kind}
    if len(owners) != 1 or any(not any(_kind(k) == kind for k in records.keys[c]) for c in holders):
        return None  # several records hold it, or a record of another kind does too (a product's page)
    return next(iter(owners)), ev
