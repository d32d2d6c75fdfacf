"""Mistake classes over the values of an answer: digits, records, totals, counts, selections, statuses."""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable, Sequence
from decimal import Decimal
from itertools import combinations

from factcheck.mutate.edit import Edit, format_note, splice, unique_span
from factcheck.mutate.values import (
    Leaf,
    Token,
    Transcript,
    conditional,
    find_words,
    keep_case,
    lexicon,
    number_backed,
    paragraph_end,
    parse_number,
    render_like,
    sentence_bounds,
)

_AMOUNT_KEYS = ("price", "amount", "total", "cost", "fee", "balance", "payment", "fare", "refund", "subtotal")


def _replace(t: Transcript, start: int, end: int, new: str, cls: str, kinds: list[str],
             extra: str = "") -> Edit | None:
    """The answer with one value replaced; None when no short span around it is unique."""
    if new == t.answer[start:end]:
        return None
    answer = splice(t.answer, start, end, new)
    span = unique_span(answer, start, start + len(new))
    if span is None:
        return None
    return Edit(answer, [span], kinds, format_note(cls, t.answer[start:end], new, extra), wrong=[new])


def first(options: Sequence[object], rng: random.Random, build: Callable[..., Edit | None]) -> Edit | None:
    """The first option, in seeded order, that `build(*option)` turns into an edit."""
    order = list(dict.fromkeys(options))
    rng.shuffle(order)
    for option in order:
        edit = build(*option) if isinstance(option, tuple) else build(option)
        if edit is not None:
            return edit
    return None


_CLOCK = re.compile(r"\s?(?:[AaPp]\.?[Mm]\b|:\d|点|时)")
_UNIT_NOUNS = {"hours", "minutes", "seconds", "days", "weeks", "months", "years", "degrees", "times", "points",
               "percent", "stars", "miles", "kilometers", "meters", "pounds", "kilograms", "dollars", "euros",
               "terms", "digits", "characters", "calories", "grams", "cups", "units", "inches", "feet"}
_STATUS_PLACE = re.compile(r"(\b(is|are|was|were|been|now|currently|still|as)|status\W*|\bstatus:?|[(\-:,])\s*\W*$",
                           re.IGNORECASE)
"""What comes right before a status word that states a record's status ("is delivered", "Status: pending")."""
_COUNT_KEYS = ("count", "quantity", "qty", "num", "number", "total")


def _year(tok: Token) -> bool:
    return not tok.amount and tok.value is not None and 1900 <= tok.value <= 2100 and len(tok.text) == 4


def _backed_tokens(t: Transcript, kinds: tuple[str, ...]) -> list[Token]:
    out = []
    for tok in t.tokens:
        if tok.kind not in kinds:
            continue
        if tok.kind == "number":
            if tok.value is not None and number_backed(t, tok.value) and (tok.amount or tok.value >= 10) \
                    and not _year(tok) and not _CLOCK.match(t.answer, tok.end):
                out.append(tok)
        elif tok.text.lstrip("#").lower() in t.blob:
            out.append(tok)
    return out


def _change_digit(text: str, rng: random.Random, first_ok: bool) -> str:
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    if not first_ok and len(digits) > 1:
        digits = digits[1:]
    adjacent = [(i, j) for i, j in zip(digits, digits[1:], strict=False) if j == i + 1 and text[i] != text[j]]
    if adjacent and rng.random() < 0.35:
        i, j = rng.choice(adjacent)
        return text[:i] + text[j] + text[i] + text[j + 1:]
    i = rng.choice(digits)
    new = rng.choice([d for d in string.digits if d != text[i]])
    return text[:i] + new + text[i + 1:]


def digit_change(t: Transcript, rng: random.Random) -> Edit | None:
    """A digit changed or two adjacent digits transposed in an id or an amount the outputs back."""
    def build(tok: Token) -> Edit | None:
        new = _change_digit(tok.text, rng, first_ok=tok.kind == "identifier")
        kind = "identifier" if tok.kind == "identifier" else "number"
        return _replace(t, tok.start, tok.end, new, "digit_change", [kind])

    return first(_backed_tokens(t, ("identifier", "number")), rng, build)


def fabricated_reference(t: Transcript, rng: random.Random) -> Edit | None:
    """A link or reference number the outputs back, replaced by an invented one in the same format."""
    return first(_backed_tokens(t, ("identifier", "url")), rng, lambda tok: _fabricate(t, tok, rng))


def _fabricate(t: Transcript, tok: Token, rng: random.Random) -> Edit | None:
    if tok.kind == "url":
        head, _, tail = tok.text.rstrip("/").rpartition("/")
        if "//" not in head or not tail:
            return None
        new = head + "/" + "".join(_random_like(c, rng) for c in tail)
        kind = "url"
    else:
        new = "".join(_random_like(c, rng) if c.isdigit() else c for c in tok.text)
        kind = "identifier"
    if new == tok.text or t.backed(new):
        return None
    return _replace(t, tok.start, tok.end, new, "fabricated_reference", [kind])


def _random_like(c: str, rng: random.Random) -> str:
    if c.isdigit():
        return rng.choice(string.digits)
    if c.isascii() and c.isalpha():
        return rng.choice(string.ascii_uppercase if c.isupper() else string.ascii_lowercase)
    return c


def _leaves_of(t: Transcript, tok: Token) -> list[Leaf]:
    """Output leaves whose value is the token (same number, or the same string)."""
    out = []
    for leaf in t.leaves:
        v = leaf.value
        if isinstance(v, bool):
            continue
        if tok.value is not None and isinstance(v, (int, float)) and Decimal(str(v)) == tok.value:
            out.append(leaf)
        elif isinstance(v, str) and (v == tok.text or v == tok.text.lstrip("#") or parse_number(v) == tok.value
                                     and tok.value is not None):
            out.append(leaf)
    return out


def _string_values(t: Transcript) -> list[tuple[int, int, Leaf]]:
    """Answer occurrences of output string values (names, titles, cities) at least 4 characters long."""
    seen: dict[str, Leaf] = {}
    for leaf in t.leaves:
        v = leaf.value
        if isinstance(v, str) and 4 <= len(v) <= 60 and not v.isdigit() and v not in seen and "\n" not in v:
            seen[v] = leaf
    found = []
    for v, leaf in seen.items():
        at = t.answer.find(v)
        if at >= 0:
            found.append((at, at + len(v), leaf))
    return found


def wrong_record(t: Transcript, rng: random.Random) -> Edit | None:
    """A value replaced by the same field of another record of the same kind (another item's price, order's id)."""
    options: list[tuple[int, int, str, str, str]] = []
    for tok in _backed_tokens(t, ("identifier", "number")):
        for leaf in _leaves_of(t, tok):
            for other in t.siblings(leaf):
                v = other.value
                if isinstance(v, bool) or v == leaf.value:
                    continue
                if tok.kind == "number" and isinstance(v, (int, float, str)) and (n := parse_number(str(v))):
                    if n != tok.value:
                        options.append((tok.start, tok.end, render_like(n, tok.text), "number", leaf.key or ""))
                elif tok.kind == "identifier" and isinstance(v, str) and len(v) > 3:
                    new = ("#" if tok.text.startswith("#") and not v.startswith("#") else "") + v
                    options.append((tok.start, tok.end, new, "identifier", leaf.key or ""))
    for start, end, leaf in _string_values(t):
        for other in t.siblings(leaf):
            v = other.value
            if isinstance(v, str) and 4 <= len(v) <= 60 and v != leaf.value and v not in t.answer:
                options.append((start, end, v, "entity", leaf.key or ""))
    return first(options, rng, lambda start, end, new, kind, key: _replace(
        t, start, end, new, "wrong_record", [kind], f"the value of field {key!r} of another record"))


def amount_groups(t: Transcript) -> list[list[Leaf]]:
    """Amounts of the members of one list in an output (same field, same list), two or more.

    Args:
        t: The transcript.

    Returns:
        One list of leaves per group.
    """
    groups: dict[tuple, list[Leaf]] = {}
    for leaf in t.leaves:
        key = (leaf.key or "").lower()
        if not any(k in key for k in _AMOUNT_KEYS) or isinstance(leaf.value, bool):
            continue
        if parse_number(str(leaf.value)) is None:
            continue
        ints = [i for i, p in enumerate(leaf.path) if isinstance(p, int)]
        if not ints:
            continue
        cut = ints[-1]
        group = (leaf.call, leaf.path[:cut], tuple(leaf.path[cut + 1:]))
        groups.setdefault(group, []).append(leaf)
    return [g for g in groups.values() if len(g) >= 2]


def money(leaf: Leaf) -> Decimal:
    return Decimal(str(leaf.value).replace(",", ""))


def _totals(t: Transcript) -> list[tuple[Token, list[Leaf], list[Leaf]]]:
    """Answer amounts that are the sum of a list's members: (token, members summed, the whole list)."""
    found = []
    groups = amount_groups(t)
    for tok in t.tokens:
        if tok.kind != "number" or not tok.amount or tok.value is None:
            continue
        for group in groups:
            if len(group) > 12:
                continue
            for size in range(2, len(group) + 1):
                hit = next((c for c in combinations(group, size) if sum(money(x) for x in c) == tok.value), None)
                if hit:
                    found.append((tok, list(hit), group))
                    break
    return found


def per_unit_as_total(t: Transcript, rng: random.Random) -> Edit | None:
    """A total over a record's members (travellers, items, nights) given as one member's amount."""
    options = []
    for tok, members, _ in _totals(t):
        for m in members:
            options.append((tok, money(m), f"the total of {len(members)} members given as one member's "
                            f"{m.key}"))
    for leaf in t.leaves:  # a quantity field beside a unit amount: the total is quantity x unit
        key = (leaf.key or "").lower()
        if key not in ("quantity", "qty", "nights", "passengers", "count", "number_of_items", "tickets"):
            continue
        if not isinstance(leaf.value, int) or isinstance(leaf.value, bool) or leaf.value < 2:
            continue
        for unit in t.leaves:
            if unit.call == leaf.call and unit.path[:-1] == leaf.path[:-1] and (unit.key or "").lower() in (
                    "price", "unit_price", "price_per_night", "fare", "cost"):
                u = parse_number(str(unit.value))
                for tok in t.tokens:
                    if u is not None and tok.kind == "number" and tok.value == u * leaf.value:
                        options.append((tok, u, f"{leaf.value} x {unit.key} given as the total"))
    return first(options, rng, lambda tok, value, extra: _replace(
        t, tok.start, tok.end, render_like(value, tok.text), "per_unit_as_total", ["number"], extra))


def wrong_subset_total(t: Transcript, rng: random.Random) -> Edit | None:
    """A total over a list summed over the wrong members: one dropped, or one from outside added."""
    options = []
    for tok, members, group in _totals(t):
        if len(members) >= 3:
            for m in members:
                options.append((tok, tok.value - money(m), f"{m.key} of one member left out of the sum"))
        for other in group:
            if other not in members:
                options.append((tok, tok.value + money(other), f"{other.key} of a member outside the subset added"))
    options = [(tok, value, extra) for tok, value, extra in options if value != tok.value and value > 0]
    return first(options, rng, lambda tok, value, extra: _replace(
        t, tok.start, tok.end, render_like(value, tok.text), "wrong_subset_total", ["number"], extra))


_NOT_PLURAL = {"is", "was", "has", "does", "this", "its", "as", "us", "yes", "thus", "plus", "less", "always",
               "minus", "across", "process", "address", "success", "express", "business", "status", "bus", "miss"}


def _list_lengths(t: Transcript) -> set[int]:
    """Lengths of the lists in the outputs that hold two or more members."""
    longest: dict[tuple, int] = {}
    for leaf in t.leaves:
        for k, p in enumerate(leaf.path):
            if isinstance(p, int):
                key = (leaf.call, leaf.path[:k])
                longest[key] = max(longest.get(key, 0), p + 1)
    return {n for n in longest.values() if n >= 2}


def wrong_count(t: Transcript, rng: random.Random) -> Edit | None:
    """A count of things off by one, written the way the answer writes it (digits, words, Chinese numerals).

    Only a count the run gives: the length of a list in the outputs, or a number the outputs hold.
    """
    lex = lexicon()
    words = lex["number_words_en"]
    options = []
    if t.lang == "zh":
        pattern = r"(?<![\d.第])([0-9]{1,2}|[二两三四五六七八九十]{1,2})\s?([" + lex["count_nouns_zh"] + "])"
        for m in re.finditer(pattern, t.answer):
            n = _zh_value(m.group(1))
            if n is not None and 1 <= n <= 30 and m.group(2) not in "天晚次":
                options.append((m.start(1), m.end(1), n, m.group(1)))
    else:
        pattern = r"(?<![\w.$#,-])(\d{1,2}|" + "|".join(words[1:]) + r")\s+(?:[a-z-]+\s+)?([a-z]{3,}s)\b"
        for m in re.finditer(pattern, t.answer, flags=re.IGNORECASE):
            word = m.group(1)
            n = int(word) if word.isdigit() else words.index(word.lower())
            noun = m.group(2).lower()
            if 1 <= n <= 30 and noun not in _NOT_PLURAL and noun not in _UNIT_NOUNS:
                options.append((m.start(1), m.end(1), n, word))
    lengths = _list_lengths(t)
    counted = {Decimal(str(leaf.value)) for leaf in t.leaves if isinstance(leaf.value, int)
               and not isinstance(leaf.value, bool) and any(k in (leaf.key or "").lower() for k in _COUNT_KEYS)}
    options = [o for o in options if o[2] in lengths or Decimal(o[2]) in counted]

    def build(start: int, end: int, n: int, word: str) -> Edit | None:
        new_n = n + 1 if n <= 2 or rng.random() < 0.5 else n - 1  # never 1: "one orders" reads as no agent writes
        if word.isdigit():
            new = str(new_n)
        elif t.lang == "zh":
            new = zh_numeral(new_n, two="两" in word)
        else:
            new = keep_case(words[new_n] if new_n < len(words) else str(new_n), word)
        return _replace(t, start, end, new, "wrong_count", ["number"])

    return first(options, rng, build)


_ZH_DIGITS = "零一二三四五六七八九"


def _zh_value(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    text = text.replace("两", "二")
    if text == "十":
        return 10
    if len(text) == 1:
        return _ZH_DIGITS.find(text) if text in _ZH_DIGITS else None
    if text.startswith("十"):
        return 10 + _ZH_DIGITS.find(text[1])
    if text.endswith("十"):
        return 10 * _ZH_DIGITS.find(text[0])
    return None


def zh_numeral(n: int, two: bool = False) -> str:
    """A small count (1-99) in Chinese numerals; `two` writes 2 as 两 (before a measure word)."""
    if n == 2 and two:
        return "两"
    if n < 10:
        return _ZH_DIGITS[n]
    tens, ones = divmod(n, 10)
    head = "" if tens == 1 else _ZH_DIGITS[tens]
    return head + "十" + (_ZH_DIGITS[ones] if ones else "")


def wrong_direction(t: Transcript, rng: random.Random) -> Edit | None:
    """A difference or movement given the wrong way round (refunded <-> charged, higher <-> lower)."""
    options = []
    for old, new in lexicon()["directions"][t.lang]:
        for start, end in find_words(t.answer, old, t.lang):
            a, b = sentence_bounds(t.answer, start, end)
            if any(tok.kind == "number" and tok.amount and a <= tok.start < b for tok in t.tokens):
                options.append((start, end, keep_case(new, t.answer[start:end])))
    return first(options, rng, lambda start, end, new: _replace(t, start, end, new, "wrong_direction", ["other"]))


def status_flip(t: Transcript, rng: random.Random) -> Edit | None:
    """A status the outputs back turned to its opposite (failed <-> succeeded, pending <-> delivered)."""
    lex = lexicon()
    options = []
    for old, new in lex["status_flips"][t.lang]:
        evidence = lex["status_evidence"].get(old, [old])
        if not any(e in t.blob for e in evidence):
            continue
        for start, end in find_words(t.answer, old, t.lang):
            if t.lang == "zh" and t.answer[max(0, start - 1):start] in ("不", "未", "没"):
                continue
            a, b = sentence_bounds(t.answer, start, end)
            if conditional(t.answer[a:start] + " " + t.answer[end:b]) or t.answer.startswith('":', end) \
                    or (t.lang == "en" and not _STATUS_PLACE.search(t.answer[max(0, start - 30):start])):
                continue
            options.append((start, end, keep_case(new, t.answer[start:end])))
    options = [o for o in options if not any(o[0] < p[1] and p[0] < o[1] and len(p[2]) > len(o[2]) for p in options)]
    return first(options, rng, lambda start, end, new: _replace(t, start, end, new, "status_flip", ["status_flip"]))


def wrong_selection(t: Transcript, rng: random.Random) -> Edit | None:
    """The superlative ("the cheapest") moved to another option of a list the outputs returned."""
    options = []
    values = [(s, e, leaf) for s, e, leaf in _string_values(t)]
    for tok in t.tokens:
        if tok.kind == "number" and tok.amount:
            values += [(tok.start, tok.end, leaf) for leaf in _leaves_of(t, tok)]
    for word in lexicon()["superlatives"][t.lang]:
        for ws, we in find_words(t.answer, word, t.lang):
            a, b = sentence_bounds(t.answer, ws, we)
            for start, end, leaf in values:
                if not a <= start < b or not any(isinstance(p, int) for p in leaf.path):
                    continue
                for other in t.siblings(leaf):
                    if other.call != leaf.call or other.value == leaf.value or isinstance(other.value, bool):
                        continue
                    if isinstance(leaf.value, str) and isinstance(other.value, str) \
                            and parse_number(leaf.value) is None:
                        options.append((start, end, other.value, word, "entity"))
                    elif (n := parse_number(str(other.value))) is not None:
                        options.append((start, end, render_like(n, t.answer[start:end]), word, "number"))
    edit = first(options, rng, lambda start, end, new, word, kind: _replace(
        t, start, end, new, "wrong_selection", [kind], f"another option of the list called {word!r}"))
    return edit or _added_superlative(t, rng)


def _added_superlative(t: Transcript, rng: random.Random) -> Edit | None:
    """A sentence calling an option the cheapest (or the most expensive) when another option the answer lists is."""
    options = []
    for group in amount_groups(t):
        labels = {id(leaf): _label_in_answer(t, leaf) for leaf in group}
        named = [leaf for leaf in group if labels[id(leaf)]]
        if len(named) < 2 or len({labels[id(x)] for x in named}) < len(named):
            continue
        values = {money(x) for x in named}
        if len(values) < 2:
            continue
        for leaf in named:
            names = tuple(labels[id(x)] for x in named)
            if money(leaf) != min(values):
                options.append((leaf, labels[id(leaf)], "cheapest", names))
            if money(leaf) != max(values):
                options.append((leaf, labels[id(leaf)], "most_expensive", names))

    def build(leaf: Leaf, label: str, which: str, names: tuple[str, ...]) -> Edit | None:
        sentence = lexicon()["added_superlative"][t.lang][which].format(label=label)
        if t.json_answer and '"' in sentence:
            return None
        at = paragraph_end(t.answer, t.answer.find(label))
        start = max(t.answer.rfind("\n\n", 0, at), t.answer.rfind("\\n\\n", 0, at), 0)
        paragraph = t.answer[start:at]
        if sum(x in paragraph for x in names) < 2 or (t.json_answer and len(paragraph) < 80):
            return None  # "of these" needs the options listed right before it, in prose
        line_start = max(t.answer.rfind("\n", 0, at), t.answer.rfind("\\n", 0, at) + 1)
        if re.match(r"\s*([-*•]|\d{1,2}[.)])\s", t.answer[line_start + 1:at]):
            sentence = ("\\n" if t.json_answer else "\n") + sentence.strip()
        answer = t.answer[:at] + sentence + t.answer[at:]
        span = sentence.strip().removeprefix("\\n")
        if answer.count(span) != 1:
            return None
        note = f"mutate wrong_selection: added {span!r}; another option of the list ({leaf.key}) is the {which}"
        return Edit(answer, [span], ["entity"], note, wrong=[label])

    return first(options, rng, build)


def _label_in_answer(t: Transcript, leaf: Leaf) -> str | None:
    """How the answer names a list member: a name field of it (letters and spaces) that the answer holds once."""
    parent = leaf.path[:-1]
    for other in t.leaves:
        v = other.value
        if other.call == leaf.call and other.path[:-1] == parent and isinstance(v, str) and 3 <= len(v) <= 40 \
                and re.fullmatch(r"[A-Za-z\u4e00-\u9fff][\w\u4e00-\u9fff .'&()-]*", v) and "_" not in v \
                and not any(c.isdigit() for c in v) and t.answer.count(v) == 1:
            return v
    return None


def amount_tokens(t: Transcript) -> list[Token]:
    """Amounts the outputs back (for rewrites and derived values)."""
    return [tok for tok in t.tokens if tok.kind == "number" and tok.amount and tok.value is not None
            and number_backed(t, tok.value)]
