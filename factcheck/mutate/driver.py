"""Mutate faithful cases: for each answer, a few mistake classes and rewrites, chosen so classes stay balanced."""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from factcheck.mutate import mistakes, rewrites, runs
from factcheck.mutate.edit import Edit
from factcheck.mutate.names import CLASSES, MISTAKE_NAMES, REWRITE_NAMES
from factcheck.mutate.values import Transcript, read_transcript

Mutator = Callable[[Transcript, random.Random], Edit | None]

MISTAKES: dict[str, Mutator] = {
    "status_flip": mistakes.status_flip,
    "digit_change": mistakes.digit_change,
    "per_unit_as_total": mistakes.per_unit_as_total,
    "wrong_subset_total": mistakes.wrong_subset_total,
    "wrong_direction": mistakes.wrong_direction,
    "wrong_record": mistakes.wrong_record,
    "wrong_selection": mistakes.wrong_selection,
    "wrong_count": mistakes.wrong_count,
    "incomplete_coverage": runs.incomplete_coverage,
    "unbacked_action": runs.unbacked_action,
    "fabricated_reference": mistakes.fabricated_reference,
    "user_claim_over_record": runs.user_claim_over_record,
}
"""Mistake classes by name (the `error` of the mutated case)."""

REWRITES: dict[str, Mutator] = {
    "reorder": rewrites.reorder,
    "number_format": rewrites.number_format,
    "date_format": rewrites.date_format,
    "status_synonym": rewrites.status_synonym,
    "derived_value": rewrites.derived_value,
    "hedge": rewrites.hedge,
    "numerals": rewrites.numerals,
    "typography": rewrites.typography,
}
"""Meaning-preserving rewrite classes by name (the `error` of the rewritten, faithful case)."""

if tuple(MISTAKES) != MISTAKE_NAMES or tuple(REWRITES) != REWRITE_NAMES:  # pragma: no cover - a wiring error
    raise ImportError("factcheck.mutate.names and factcheck.mutate.driver name different classes")


def _pick(t: Transcript, pool: dict[str, Mutator], counts: Counter[str], n: int,
          rng: random.Random) -> list[tuple[str, Edit]]:
    """Up to `n` edits of distinct classes, the classes used least so far tried first (ties in seeded order)."""
    names = list(pool)
    rng.shuffle(names)
    names.sort(key=lambda name: counts[name])
    out = []
    for name in names:
        if len(out) >= n:
            break
        edit = pool[name](t, random.Random(rng.random()))
        if edit is None or (edit.answer == t.answer and edit.tool_calls is None):
            continue
        if edit.spans and not all(s in edit.answer and s.strip() for s in edit.spans):
            continue
        counts[name] += 1
        out.append((name, edit))
    return out


def _case_of(source: Mapping[str, Any], name: str, edit: Edit, t: Transcript) -> dict[str, Any]:
    case = copy.deepcopy(dict(source))
    for key in ("retry_answer", "retry_hallucinated_spans", "kinds", "error", "in_outputs"):
        case.pop(key, None)
    case["id"] = f"{source['id']}~{name}"
    case["answer"] = edit.answer
    case["hallucinated_spans"] = list(edit.spans)
    if edit.tool_calls is not None:
        case["tool_calls"] = copy.deepcopy(edit.tool_calls)
    if edit.question is not None:
        case["question"] = edit.question
    if edit.spans:
        case["kinds"] = list(dict.fromkeys(edit.kinds))
        case["in_outputs"] = bool(edit.wrong) and all(t.backed(w) for w in edit.wrong)
    case["error"] = name
    case["note"] = edit.note
    return case


def mutate_cases(
    cases: Iterable[Mapping[str, Any]],
    classes: Sequence[str] | None = None,
    per_answer: int = 2,
    seed: int = 0,
    lang: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Inject realistic mistakes into faithful answers, and rewrite them without changing their meaning.

    Each answer gets up to `per_answer` mistakes and up to `per_answer` rewrites, each of another class,
    only of the classes its run supports; the classes used least so far are tried first, so that every class
    gets its share. Answers with gold spans (already wrong) and answers after no tool call are left out.

    Args:
        cases: Faithful case-format mappings (a suite, or `read_inputs` of stored histories).
        classes: Class names to use (see `CLASSES`); `None` uses all.
        per_answer: At most this many mistakes, and this many rewrites, per answer.
        seed: The seed; the same cases, classes and seed give the same output.
        lang: Only answers in this language (`zh`, `en` or `mixed`).
        progress: Called with `(done, total)` after each answer.

    Returns:
        The mutated cases (`hallucinated_spans`, `kinds`, `error`, `note`, `in_outputs`) and the rewrites
        (`hallucinated_spans: []`, `error`, `note`), in input order; `source`/`license` carried over.

    Raises:
        ValueError: for an unknown class name or a negative `per_answer`.
    """
    chosen = list(CLASSES) if classes is None else list(classes)
    unknown = [c for c in chosen if c not in CLASSES]
    if unknown:
        raise ValueError(f"unknown class {unknown[0]!r}; known: {', '.join(CLASSES)}")
    if per_answer < 0:
        raise ValueError(f"per_answer must be 0 or more, not {per_answer}")
    mistake_pool = {k: v for k, v in MISTAKES.items() if k in chosen}
    rewrite_pool = {k: v for k, v in REWRITES.items() if k in chosen}
    items = [c for c in cases if (lang is None or c.get("lang") == lang) and c.get("tool_calls")
             and not c.get("hallucinated_spans")]
    counts: Counter[str] = Counter()
    out: list[dict[str, Any]] = []
    for i, source in enumerate(items, start=1):
        rng = random.Random(f"{seed}:{source['id']}")
        t = read_transcript(dict(source))
        for pool in (mistake_pool, rewrite_pool):
            for name, edit in _pick(t, pool, counts, per_answer, rng):
                out.append(_case_of(source, name, edit, t))
        if progress:
            progress(i, len(items))
    return out
