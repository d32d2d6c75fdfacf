"""The options a superlative's scope keeps: what the words around "the cheapest" narrow the pick to."""

from __future__ import annotations

import functools
import re
from decimal import Decimal
from typing import Any

from factcheck.grounding.eligible import AVAILABLE
from factcheck.grounding.flat import scalars_of
from factcheck.lexicon import Lexicon, field_name
from factcheck.phrases import Hit


def scope_text(text: str, word: Hit) -> str:
    """The words that scope a superlative: those before it, and after it up to what introduces the pick ("在可预订的
    SUV 里，最便宜的是", "the cheapest SUV you can book is")."""
    after = text[word.end :]
    cut = _PICK_OPENS.search(after)
    return (text[: word.start] + " " + after[: cut.start() if cut else len(after)]).lower()


def scope_end(text: str, word: Hit) -> int:
    """Where the words that scope a superlative end in its claim: where the pick is introduced."""
    cut = _PICK_OPENS.search(text, word.end)
    return cut.start() if cut else len(text)


def asked_text(leaves: list[Any]) -> str:
    """The user's own words among the context strings (the short ones: a message, not a policy), lower case, with a
    space before them: what the user asked for narrows the options a superlative ranks ("black 的话，最便宜的是").
    Dates and numbers are left out: "by Friday (2025-09-19)" is a bound, not a value an option must equal."""
    return "".join(" " + _DIGITS.sub(" ", leaf.text.lower()) for leaf in leaves if len(leaf.text) <= _ASKED)


def in_scope(options: list[tuple[Decimal, str, Any]], scope: str, lex: Lexicon) -> list[tuple[Decimal, str, Any]]:
    """The options that hold every value the scope names which only some options hold (an option's category,
    "SUV"; a variant's option, "leather"), and the true-or-false fields it names (`refundable`, 可免费取消 with
    the lexicon's `flag_words`): the superlative ranks those only."""
    options = _flag_scope(options, scope, lex)
    held = [{v.lower() for v in scalars_of(o[2]) if isinstance(v, str)} for o in options]
    scope = _HYPHEN.sub(" ", scope)  # "warm-white" names the value "warm white"
    named = {v for values in held for v in values if len(v) > 1 and scope_word(v).search(scope)}
    named = {v for v in named if not all(v in values for values in held) and _said_alone(v, named, scope)}
    if not named:
        return options
    return [o for o, values in zip(options, held, strict=True) if named <= values]


def day_part_scope(options: list[tuple[Decimal, str, Any]], scope: str, lex: Lexicon,
                    ) -> list[tuple[Decimal, str, Any]]:
    """The options that start in the one part of the day the claim's scope names ("早上最便宜的是", "the cheapest
    morning slot": lexicon `day_parts`; not the user's question, which may name two to compare), by the first time of
    day each holds (its departure or start); all of them when the scope names none or several, or when an option
    holds no time or none starts then."""
    parts = {lex.day_parts[hit.key] for hit in lex.day_part_words.finditer(scope)}
    if len(parts) != 1:
        return options
    begin, end = parts.pop()
    kept = []
    for option in options:
        first = next((m for v in scalars_of(option[2]) if isinstance(v, str) and (m := _TIME_OF_DAY.search(v))), None)
        if first is None:
            return options
        if begin <= int(first.group(1)) + int(first.group(2)) / 60 < end:
            kept.append(option)
    return kept or options


_TIME_OF_DAY = re.compile(r"(?:^|[T\s])([01]?\d|2[0-3]):([0-5]\d)(?!\d)")
"""A time of day in an option's value ("08:30", "2025-11-02T18:45:00-06:00", "10:00-11:00")."""


def _said_alone(value: str, named: set[str], scope: str) -> bool:
    """Whether the scope names a value other than inside a longer value it names ("white" only inside "warm white"
    names no colour)."""
    longer = [w for w in named if w != value and scope_word(value).search(w)]
    alone = len(scope_word(value).findall(scope)) - sum(
        len(scope_word(value).findall(w)) * len(scope_word(w).findall(scope)) for w in longer)
    return alone > 0


def _flag_scope(options: list[tuple[Decimal, str, Any]], scope: str, lex: Lexicon) -> list[tuple[Decimal, str, Any]]:
    """The options a true-or-false field the scope names keeps ("the cheapest refundable option" of `refundable`:
    the true ones; "non-refundable", 无烟 of `smoking`: the false ones), when the options differ in it; a field
    of a part of the option counts (`features.sso_saml`). Whether an option can be had at all (`available`) is
    the selection's own business, not the scope's."""
    kept = [(o, _flags_of(o[2]) if isinstance(o[2], dict) else None) for o in options]
    records = [flags for _, flags in kept if flags is not None]
    for key in sorted({k for r in records for k in r if k.rpartition(".")[2] not in AVAILABLE}):
        if len({r.get(key) for r in records}) < 2:
            continue
        said = _flag_said(key.rpartition(".")[2], scope, lex)
        if said is None:
            continue
        wanted = not _NOT_FLAG.search(scope[:said])
        kept = [(o, flags) for o, flags in kept if flags is not None and flags.get(key) is wanted]
    return [o for o, _ in kept]


def _flags_of(record: dict[str, Any]) -> dict[str, bool]:
    """A record's true-or-false fields, and those of its parts one level down (`features.sso_saml`)."""
    out = {k: v for k, v in record.items() if isinstance(v, bool)}
    out |= {f"{k}.{kk}": vv for k, v in record.items() if isinstance(v, dict)
            for kk, vv in v.items() if isinstance(vv, bool)}
    return out


def _flag_said(key: str, scope: str, lex: Lexicon) -> int | None:
    """Where the scope names a true-or-false field: its words together ("refundable"), in any order ("SAML SSO"
    of `sso_saml`), its long first word alone ("with breakfast" of `breakfast_included`), or a word the lexicon's
    `flag_words` gives for one of its words (可免费取消 of `refundable`, 包邮 of `free_shipping`, 烟 of
    `smoking`); None when it does not."""
    words = [w for w in field_name(key).split() if w not in ("is", "has", "can", "be")]
    if not words:
        return None
    said = scope_word(" ".join(words)).search(scope)
    if said is None and len(words) > 1 and all(scope_word(w).search(scope) for w in words):
        said = scope_word(words[0]).search(scope)
    if said is None and len(words) > 1 and len(words[0]) >= _FLAG_WORD:
        said = scope_word(words[0]).search(scope)
    if said is not None:
        return said.start()
    for phrase in (p for w in words for p in lex.flag_words.get(w, ())):
        if (found := scope_word(phrase).search(scope)) is not None:
            return found.start()
    return None


_DIGITS = re.compile(r"\S*\d\S*")
_HYPHEN = re.compile(r"(?<=[a-z])-(?=[a-z])")
"""A hyphen between two letters of a scope."""
_ASKED = 400
"""Longest context string read as the user's words."""
_FLAG_WORD = 5
"""Fewest letters of a true-or-false field's first word that names it alone ("breakfast" of `breakfast_included`)."""
_NOT_FLAG = re.compile(r"(?:\bnon[- ]?|\bnot |\bwithout |不可?|无)$")
"""A negation right before a true-or-false field's words in a scope ("non-refundable", "not refundable", "without
breakfast", 不可退)."""


@functools.lru_cache(maxsize=1024)
def scope_word(value: str) -> re.Pattern[str]:
    """A value (lower case) as a word of a claim's lower-cased text: a Latin value not inside a longer word or number
    ("suv", not "suvx"); a Chinese one anywhere.

    Args:
        value: The value, lower case.

    Returns:
        The compiled pattern (held: values repeat from claim to claim).
    """
    return re.compile(r"(?<![a-z0-9])" + re.escape(value) + r"(?![a-z0-9])" if value.isascii() else re.escape(value))


_PICK_OPENS = re.compile(r"(?i)\s(?:is|are|was|would be|will be)\s|是|为|[:：—,，(（]")
"""What introduces the pick after a superlative: a copula, a colon, a dash, a comma or a bracket."""
