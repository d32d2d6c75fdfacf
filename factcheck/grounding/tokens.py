"""Ground identifiers, links and names: exact tokens, and names with rapidfuzz's spelling tolerance."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.locate import locate
from factcheck.grounding.user_word import MAX_DIGITS
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.report import Fact, FactKind, Verdict

if TYPE_CHECKING:
    from factcheck.grounding.flat import Leaf

# An identifier that may be one part of a longer name: letters and digits both, no joiner of its own.
_SEGMENT = re.compile(r"(?=[a-z]*\d)(?=\d*[a-z])[a-z\d]{3,}")
_CODE = re.compile(r"\w[!%&?@^~]\w")
"""A symbol between letters or digits: the identifier is a code whose letters' case is part of it."""
_DIMENSIONS = re.compile(r"\d+(?:x\d+){1,2}")
"""An identifier's value that is dimensions (1024x1024, 91x61x66)."""
_LABEL_WORD = re.compile(r"[a-z]+|\d{1,2}[a-z]{0,2}")
"""A part of a label written like a field's name: a word, or a short number and its unit (`23`, `90d`, `4k`)."""
_KEYLIKE = re.compile(r"\d{3}|[a-z]\d|\d[a-z]{3}")
"""A part that may be a record's key: three digits in a row, or letters and digits joined (`rf-89051`, `vy3308`)."""
_CARRIER = re.compile(r"[a-z]{2}|[a-z]\d|\d[a-z]")
"""An airline's two-character code (TP, B6, 3U) before a flight's number."""
_FLIGHT_DIGITS = 4
"""How many digits a flight number is padded to (TP0432)."""
_NAME_COVER = 0.8
"""Share of a name a fuzzy match must cover ("CA" inside "Latin America" is no match)."""
_NAME_NEAR = 60.0
"""Score at which a tool's string is like a name the answer gives: a name unlike every string is not compared."""


def ground_token(fact: Fact, index: EvidenceIndex) -> None:
    """Set the verdict of an identifier, link or e-mail address: exact, after trivial normalisation.

    Found as a whole token of a tool output (or, for an identifier, spaced as written, as
    one part of a longer name, as dimensions given side by side, or as a field's name), else
    of the context.
    """
    value = fact.value or ""
    url = fact.kind == FactKind.URL
    if fact.kind == FactKind.IDENTIFIER and _CODE.search(fact.text) and _ground_code(fact, index):
        return
    leaf = index.find_token(value, url=url)
    if leaf is None and " " in fact.text and fact.kind == FactKind.IDENTIFIER:
        leaf = index.find_token(fact.text.lower())  # a tool writing it spaced too (BA 2491)
        code, _, digits = fact.text.lower().partition(" ")
        if leaf is None and digits.isdigit() and index.find_token(code) is not None:
            leaf = index.find_token(digits)  # or in two fields: {"carrier": "UA", "flight_number": "1482"}
        if leaf is None and _CARRIER.fullmatch(code) and digits.isdigit() and len(digits) <= _FLIGHT_DIGITS:
            # "TP 432" of TP0432: a flight number's digits padded to four, or written without the padding
            leaf = index.find_token(code + digits.zfill(_FLIGHT_DIGITS)) or index.find_token(code + digits.lstrip("0"))
    if leaf is None and fact.kind == FactKind.IDENTIFIER and value.isdigit() and not fact.text.isdigit():
        leaf = index.find_grouped_digits(value)  # "0421 338 910" of "+61 421 338 910"
    if leaf is None and fact.kind == FactKind.IDENTIFIER and _SEGMENT.fullmatch(value):
        # a name's distinct part (the pod 9kx2p, the p99 latency); never part of another ID (CT-20260922)
        leaf = index.find_token(value, segment=True)
    if leaf is None and fact.kind == FactKind.IDENTIFIER and _DIMENSIONS.fullmatch(value):
        # dimensions a tool writes with their unit ("20×40×55cm"), or gives one by one: {"length": 91, "width": 61}
        leaf = _dimensions_written(value, index)
        sides = [index.find_token(side) for side in value.split("x")] if leaf is None else []
        if sides and all(sides):
            set_verdict(fact, Verdict.SUPPORTED, "match", "dimensions found one by one in a tool output",
                        [evidence_of(side, index) for side in sides])
            return
    if leaf is None and fact.kind == FactKind.IDENTIFIER:
        leaf = index.find_key(value)  # a field's name: {"byService": {"EC2": 1890000}}
    if leaf is None and fact.kind == FactKind.IDENTIFIER and "_" in value:
        # "gift card_8541487" of gift_card_8541487: the words before it written apart
        found = index.string_ending_with(value)
        leaf = found if found is not None and value in found.text.lower().replace("-", "_") else None
    if leaf is not None:
        set_verdict(fact, Verdict.SUPPORTED, "match", f"{fact.kind.value} found in a tool output",
                    [evidence_of(leaf, index)])
        return
    if fact.kind == FactKind.IDENTIFIER and "_" in value and _label(fact, index):
        return
    what = {"url": "link", "email": "e-mail address", "identifier": "identifier"}[fact.kind.value]
    near = index.other_forms.near_token(value) if fact.kind == FactKind.IDENTIFIER else None
    leaf = index.context.find_token(value, url=url)
    if leaf is not None and near is not None and not (value.isdigit() and len(value) > MAX_DIGITS):
        # "I'm pretty sure it's #W7449608" of the tool's #W7449508 (a card's 16 digits are compared exactly)
        token, tool_leaf = near
        set_verdict(fact, Verdict.CONTRADICTED, "user_over_record",
                    f"{fact.text} is the user's own {what}; the tool gives {token!r}, one edit from it",
                    [evidence_of(tool_leaf, index, f"{token!r} is one edit from the claimed {what}"),
                     evidence_of(leaf, index)])
        return
    if leaf is not None:
        set_verdict(fact, Verdict.SUPPORTED, "context", f"{fact.kind.value} found in the context, not a tool",
                    [evidence_of(leaf, index)])
        return
    if near is not None:  # RMA-730181 where the tool gave RMA-730118: most likely mistyped, not another record
        token, leaf = near
        set_verdict(fact, Verdict.UNSUPPORTED, "not_found",
                    f"no tool output holds the {what} {fact.text!r}; one gives {token!r}, one edit from it",
                    [evidence_of(leaf, index, f"{token!r} is one edit from the claimed identifier")])
        return
    set_verdict(fact, Verdict.UNSUPPORTED, "not_found",
                f"no tool output holds the {what} {fact.text!r}", [])

def _dimensions_written(value: str, index: EvidenceIndex) -> Leaf | None:
    """The tool string that writes dimensions `value` ("20x40x55") with a multiplication sign or an x between its
    sides, and letters (a unit) or nothing after them ("20×40×55cm")."""
    sides = value.split("x")
    pattern = re.compile(r"(?<![\d.])" + r"\s?[x×*]\s?".join(sides) + r"(?![\d.])")
    found = next((i for i in index.strings.hits([sides[0]]) if pattern.search(index.strings.texts[i].lower())), None)
    return None if found is None else index.string_leaf(found)


def _label(fact: Fact, index: EvidenceIndex) -> bool:
    """A name written like a field's (`week_of_23_feb`, `net_if_RF-89051_approved`, `gift_card_2210984_remaining`), as
    an answer labels its own lines: backed by the identifier it holds when a tool gives that part, and no claim of
    its own when every part is a word or a short number (a day, `charge_1`). A part that looks like a key and no tool
    gives (`visa_ending_0912` where the card ends in 0913) leaves it unsupported.

    Returns:
        Whether a verdict or a reason was set.
    """
    parts = (fact.value or "").split("_")
    for size in range(len(parts) - 1, 0, -1):  # the longest run of parts a tool gives as a token
        for first in range(len(parts) - size + 1):
            held = "_".join(parts[first : first + size])
            rest = parts[:first] + parts[first + size :]
            if _KEYLIKE.search(held) and all(_LABEL_WORD.fullmatch(p) for p in rest) \
                    and (leaf := index.find_token(held)) is not None:
                set_verdict(fact, Verdict.SUPPORTED, "match", f"a label around {held!r}, found in a tool output",
                            [evidence_of(leaf, index)])
                return True
    if all(_LABEL_WORD.fullmatch(p) for p in parts):
        fact.reason = f"{fact.text!r} is a label written like a field's name; it names no record"
        return True
    return False


def _ground_code(fact: Fact, index: EvidenceIndex) -> bool:
    """A code with symbols between its letters (a password) is the tool's only with the same case of each letter.

    Returns:
        Whether a verdict was set: found exactly, or found with another case (contradicted).
    """
    for code in dict.fromkeys((fact.text, fact.text.rstrip("!?"))):
        leaf = index.find_token(code.lower())
        if leaf is None:
            continue
        exact = next((entry for entry, text in enumerate(index.strings.texts) if code in text), None)
        if exact is not None:
            set_verdict(fact, Verdict.SUPPORTED, "match", "code found in a tool output, letter case and all",
                        [evidence_of(index.string_leaf(exact), index)])
        else:
            at = leaf.text.lower().find(code.lower())
            given = leaf.text[at : at + len(code)] if at >= 0 else leaf.text
            set_verdict(fact, Verdict.CONTRADICTED, "value_mismatch",
                        f"tool gives the code {given!r}, not {code!r}: its letters differ in case",
                        [evidence_of(leaf, index, f"{given!r} differs from the claimed code in letter case")])
        return True
    return False


def ground_name(fact: Fact, index: EvidenceIndex, name_cutoff: float) -> None:
    """A name must appear in a tool output; rapidfuzz tolerates spelling (Lumière, Mugs).

    A name close to a tool's string but not close enough (Emily Carson for Emily Carter) is
    unsupported; one like no string at all is left unverifiable when tools gave text.
    """
    value = fact.value or ""
    found = index.find_text(value)
    if found is not None:
        evidence = [evidence_of(found, index)]
        set_verdict(fact, Verdict.SUPPORTED, "match", "name found in a tool output", evidence)
        return
    pos = index.context.lower.find(value)
    if pos >= 0:
        evidence = [evidence_of(index.context.leaf_at(pos), index)]
        set_verdict(fact, Verdict.SUPPORTED, "context", "name found in the context, not a tool", evidence)
        return
    close = locate(fact.text, index.text_leaves + index.context.leaves, name_cutoff, _NAME_COVER)
    if close is not None:
        leaf, start, end, score = close
        ev = evidence_of(leaf, index, f"spelled {leaf.text[start:end]!r}, score {score:.0f}")
        set_verdict(fact, Verdict.SUPPORTED, "match", "name found with a different spelling", [ev])
        return
    nearest = locate(fact.text, index.text_leaves, _NAME_NEAR, _NAME_COVER)
    if nearest is None and index.text_leaves:
        # nothing like it: a translation ("Shenzhen Bao'an" of 深圳宝安) or an expansion ("London Heathrow" of LHR)
        fact.reason = f"no tool output names anything like {fact.text!r}; not compared"
        return
    shown = f" (closest: {nearest[0].text[nearest[1]:nearest[2]]!r})" if nearest else ""
    set_verdict(fact, Verdict.UNSUPPORTED, "not_found", f"no tool output names {fact.text!r}{shown}", [])
