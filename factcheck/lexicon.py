"""Lexicons (status words, negators, units, number words) loaded from data files."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

SHIPPED = ("zh", "en")
_MERGED_DICTS = (
    "concepts", "status_terms", "action_tools", "currencies", "number_words", "numerals",
    "numeral_units", "fields", "months",
)
_MERGED_LISTS = (
    "negators", "count_nouns", "id_keywords", "abbreviations", "hedges", "hedges_after",
    "completion_markers", "completion_markers_far", "minor_unit_fields",
)


@dataclass(frozen=True)
class Term:
    """A lexicon word with what it says about a status."""

    text: str
    concept: str | None
    polarity: str | None
    action: bool = False
    evidence_only: bool = False


@dataclass
class Lexicon:
    """All lexicon data merged across languages, with the regexes compiled from it."""

    data: dict[str, Any]
    terms: dict[str, Term] = field(init=False)
    term_re: re.Pattern[str] = field(init=False)
    negator_re: re.Pattern[str] = field(init=False)
    hedge_re: re.Pattern[str] = field(init=False)
    hedge_after_re: re.Pattern[str] = field(init=False)
    completion_re: re.Pattern[str] = field(init=False)
    completion_far_re: re.Pattern[str] = field(init=False)
    minor_re: re.Pattern[str] = field(init=False)
    field_re: re.Pattern[str] = field(init=False)
    field_of: dict[str, str] = field(init=False)
    concept_of_word: dict[str, str] = field(init=False)
    action_tools: dict[str, tuple[str, ...]] = field(init=False)
    path_cache: dict[str, tuple[frozenset[str], str | None, bool]] = field(init=False, default_factory=dict)
    """Labels and concept of each tool-output path shape seen so far (paths repeat across runs)."""

    def __post_init__(self) -> None:
        terms: dict[str, Term] = {}
        for concept, words in self.data["concepts"].items():
            for word in words:
                terms[term_key(word)] = Term(term_key(word), concept, None)
        for word, spec in self.data["status_terms"].items():
            terms[term_key(word)] = Term(
                term_key(word),
                spec.get("concept"),
                spec.get("polarity"),
                bool(spec.get("action", False)),
                bool(spec.get("evidence_only", False)),
            )
        self.terms = terms
        self.concept_of_word = {t.text: t.concept for t in terms.values() if t.concept}
        self.term_re = _alternation(terms)
        self.negator_re = _alternation(self.data["negators"])
        self.hedge_re = _alternation(self.data["hedges"])
        self.hedge_after_re = _alternation(self.data["hedges_after"])
        self.completion_re = _alternation(self.data["completion_markers"])
        self.completion_far_re = _alternation(self.data["completion_markers_far"])
        self.minor_re = _alternation(self.data["minor_unit_fields"])
        self.field_of = {term_key(w): name for name, ws in self.data["fields"].items() for w in ws}
        self.field_re = _alternation(self.field_of)
        self.action_tools = {k: tuple(v) for k, v in self.data["action_tools"].items()}

    def term(self, matched: str) -> Term | None:
        """The lexicon term a regex match stands for (plural `s`/`es` folded)."""
        key = term_key(matched)
        found = self.terms.get(key)
        if found is None and key.endswith("s"):
            found = self.terms.get(key[:-1]) or self.terms.get(key[:-2])
        return found

    def field(self, matched: str) -> str | None:
        """The field label a regex match stands for (plural `s`/`es` folded)."""
        key = term_key(matched)
        found = self.field_of.get(key)
        if found is None and key.endswith("s"):
            found = self.field_of.get(key[:-1]) or self.field_of.get(key[:-2])
        return found

    def list(self, key: str) -> list[Any]:
        """A merged list entry (e.g. `count_nouns`)."""
        return self.data[key]

    def map(self, key: str) -> dict[str, Any]:
        """A merged mapping entry (e.g. `currencies`)."""
        return self.data[key]


def term_key(text: str) -> str:
    """Lookup key of a lexicon word or a matched span: lower case, `_` and runs of space as one space."""
    return _SPACES.sub(" ", text.lower()).strip()


_SPACES = re.compile(r"[\s_]+")


def _alternation(words: Iterable[str]) -> re.Pattern[str]:
    """Compile words into one case-insensitive regex, longest first.

    Latin words get letter boundaries so `ship` does not match inside `shipping`;
    a space in a word matches any run of white space or underscores.
    """
    parts = []
    for word in sorted({term_key(w) for w in words}, key=lambda w: (-len(w), w)):
        escaped = re.escape(word).replace(r"\ ", r"[\s_]+")
        if word[:1].isascii() and word[:1].isalnum():
            escaped = r"(?<![A-Za-z])" + escaped
        if word[-1:].isascii() and word[-1:].isalpha():
            escaped += r"(?:e?s)?(?![A-Za-z])"  # plurals: invoices, refunds
        elif word[-1:].isascii() and word[-1:].isalnum():
            escaped += r"(?![A-Za-z])"
        parts.append(escaped)
    body = "|".join(parts) or r"(?!)"
    return re.compile(f"(?:{body})", re.IGNORECASE)


def _merge(into: dict[str, Any], extra: dict[str, Any]) -> None:
    for key in _MERGED_DICTS:
        target = into.setdefault(key, {})
        for name, value in extra.get(key, {}).items():
            if isinstance(value, list) and isinstance(target.get(name), list):
                target[name] = target[name] + [v for v in value if v not in target[name]]
            else:
                target[name] = value
    for key in _MERGED_LISTS:
        if key in extra:
            seen = into.setdefault(key, [])
            seen.extend(w for w in extra[key] if w not in seen)
    for key in ("negation_window",):
        if key in extra:
            into.setdefault("windows", {})[extra.get("_lang", "user")] = extra[key]


def load_lexicon(extra_paths: Iterable[Path | str] = ()) -> Lexicon:
    """Load the shipped zh and en lexicons and merge user files over them.

    Args:
        extra_paths: JSON files with any of the shipped keys; their entries are
            added to (and for mappings, override) the shipped ones.

    Returns:
        The merged, compiled lexicon.

    Raises:
        ValueError: when a user file is not valid JSON or not an object.
    """
    data: dict[str, Any] = {}
    for lang in SHIPPED:
        text = resources.files("factcheck.data").joinpath(f"{lang}.json").read_text("utf-8")
        _merge(data, json.loads(text))
    for path in extra_paths:
        try:
            extra = json.loads(Path(path).read_text("utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"cannot read lexicon file {path}: {exc}") from exc
        if not isinstance(extra, dict):
            raise ValueError(f"lexicon file {path} must hold a JSON object")
        _merge(data, extra)
    return Lexicon(data)
