"""Mistake classes that change the run or the question: a completed action without its call, a collection
read only in part, the user's word repeated over the record."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from factcheck.mutate.edit import Edit
from factcheck.mutate.mistakes import digit_change, first, status_flip
from factcheck.mutate.values import Transcript, conditional, lexicon, mask, numbers_in, sentence_bounds


def _write_stem(name: str) -> str | None:
    lex = lexicon()
    low = name.lower()
    if any(low.startswith(p) for p in lex["read_only_prefixes"]):
        return None
    return next((stem for stem in lex["action_stems"] if stem in low), None)


def unbacked_action(t: Transcript, rng: random.Random) -> Edit | None:
    """A completed action the answer reports, with the successful call that did it removed from the run."""
    calls = t.case.get("tool_calls") or []
    options = []
    for i, call in enumerate(calls):
        stem = _write_stem(call.get("name", ""))
        if stem is not None and call.get("status") == "ok":
            options += [(i, a, b) for a, b in _reports(t, [stem])]
    return first(options, rng, lambda i, a, b: _without_call(t, calls, i, a, b))


def _reports(t: Transcript, stems: list[str]) -> list[tuple[int, int]]:
    """The sentences that report an action of these stems as done: (start, end) in the answer, in order."""
    lex = lexicon()
    masked = mask(t.answer).lower()
    found: list[tuple[int, int]] = []
    for stem in stems:
        for verb in lex["action_stems"][stem][t.lang]:
            pattern = re.escape(verb.lower()) if t.lang == "zh" else r"(?<![a-z])" + re.escape(verb.lower())
            for m in re.finditer(pattern, masked):  # en: the verb starts a word ("chang" is not in "exchange")
                a, b = sentence_bounds(t.answer, m.start(), m.end())
                sentence = masked[a:b]
                if any(k in sentence for k in lex["completion_markers"][t.lang]) and "?" not in sentence \
                        and "？" not in sentence and b - a <= 300 and not conditional(sentence) \
                        and (a, b) not in found:
                    found.append((a, b))
    return sorted(found)


def _without_call(t: Transcript, calls: list[dict[str, Any]], i: int, a: int, b: int) -> Edit | None:
    span = t.answer[a:b]
    if t.answer.count(span) != 1 or not span.strip():
        return None
    kept = [c for j, c in enumerate(calls) if j != i]
    if any(c.get("name") == calls[i].get("name") and c.get("status") == "ok" for c in kept):
        return None  # another call of the same tool would still back it
    # every sentence reporting an action done is now unbacked when no write is left ("modified …; a refund
    # of $17.99 has been processed" both came from the one call removed); else those of the call's own stem
    writes_left = any(_write_stem(c.get("name", "")) and c.get("status") == "ok" for c in kept)
    stems = [_write_stem(calls[i].get("name", ""))] if writes_left else list(lexicon()["action_stems"])
    spans = [t.answer[x:y] for x, y in _reports(t, [s for s in stems if s])]
    spans = [s for s in dict.fromkeys([span, *spans]) if s.strip() and t.answer.count(s) == 1]
    name = calls[i].get("name")
    note = f"mutate unbacked_action: removed the call {name!r} (call {i}) that did what {span!r} reports"
    if len(spans) > 1:
        note += f"; {len(spans) - 1} more sentence(s) reporting what no call left in the run did"
    return Edit(t.answer, spans, ["unbacked_action"], note, wrong=[], tool_calls=kept)


def _collections(t: Transcript) -> list[tuple[int, list[str]]]:
    """Lists of ids in an output (two or more strings of at least 5 characters): `(call, members)`."""
    found = []
    for i, call in enumerate(t.case.get("tool_calls") or []):
        out = call.get("output")
        if isinstance(out, str):
            try:
                out = json.loads(out)
            except ValueError:
                continue
        stack = [out]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                stack.extend(node.values())
            elif isinstance(node, list):
                if len(node) >= 2 and all(isinstance(x, str) and 5 <= len(x) <= 40 for x in node):
                    found.append((i, list(node)))
                else:
                    stack.extend(node)
    return found


def _text(call: dict[str, Any]) -> str:
    out = call.get("output")
    return out if isinstance(out, str) else json.dumps(out, ensure_ascii=False)


def incomplete_coverage(t: Transcript, rng: random.Random) -> Edit | None:
    """A claim over a collection's members kept while the later reads of its members are dropped from the run.

    The answer is unchanged; the facts in it that only the dropped reads gave are the spans.
    """
    calls = t.case.get("tool_calls") or []
    options = []
    for listed_at, members in _collections(t):
        reads: list[int] = []
        for j in range(listed_at + 1, len(calls)):
            if _write_stem(calls[j].get("name", "")) is not None:
                continue
            text = _text(calls[j]) + json.dumps(calls[j].get("args") or {}, ensure_ascii=False)
            if any(m in text for m in members):
                reads.append(j)
        if len(reads) >= 2:
            options.append(reads)
    rng.shuffle(options)
    for reads in options:
        dropped = set(reads[1:])
        kept = [c for j, c in enumerate(calls) if j not in dropped]
        spans = _only_in(t, [calls[j] for j in sorted(dropped)], kept)
        if spans:
            names = ", ".join(sorted({calls[j].get("name", "?") for j in dropped}))
            note = (f"mutate incomplete_coverage: dropped {len(dropped)} later read(s) of the collection's members "
                    f"({names}); the answer still states what only they gave")
            return Edit(t.answer, spans, ["other"], note, wrong=spans, tool_calls=kept)
    return None


def _only_in(t: Transcript, dropped: list[dict[str, Any]], kept: list[dict[str, Any]]) -> list[str]:
    """Values of the answer that the dropped outputs hold and the kept ones, the question and context do not."""
    kept_text = "\n".join([_text(c) for c in kept] + [t.case.get("question", ""), *t.case.get("context", [])]).lower()
    dropped_text = "\n".join(_text(c) for c in dropped).lower()
    dropped_numbers, kept_numbers = numbers_in(dropped_text), numbers_in(kept_text)
    spans = []
    for tok in t.tokens:
        if tok.kind == "number":
            only = tok.amount and tok.value in dropped_numbers and tok.value not in kept_numbers
        else:
            low = tok.text.lower().lstrip("#")
            only = low in dropped_text and low not in kept_text
        if only and t.answer.count(tok.text) == 1:
            spans.append(tok.text)
    return list(dict.fromkeys(spans))


def user_claim_over_record(t: Transcript, rng: random.Random) -> Edit | None:
    """The user states a wrong value (a status, an amount, an id) and the answer repeats it over the record."""
    make = [status_flip, digit_change]
    rng.shuffle(make)
    for cls in make:
        edit = cls(t, rng)
        if edit is None or not edit.wrong:
            continue
        value = edit.wrong[0]
        claim = lexicon()["user_claim"][t.lang].format(value=value)
        question = t.case.get("question", "")
        sep = "" if t.lang == "zh" or not question or question.endswith(" ") else " "
        note = edit.note.replace(f"mutate {cls.__name__}", "mutate user_claim_over_record") + (
            f"; the user's message now says {claim!r}")
        return Edit(edit.answer, edit.spans, edit.kinds, note, wrong=edit.wrong, question=question + sep + claim)
    return None
