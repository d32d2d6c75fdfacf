"""Meaning-preserving rewrites of an answer: every exact fact stays, only the wording or order changes."""

from __future__ import annotations

import random
import re
from decimal import Decimal

from factcheck.mutate.edit import Edit, splice
from factcheck.mutate.mistakes import amount_groups, amount_tokens, money, zh_numeral
from factcheck.mutate.values import Token, Transcript, find_words, keep_case, lexicon, mask, render_like
from factcheck.typography import APOSTROPHES, HYPHENS

_ZH_UNITS = ("元", "美元", "欧元", "英镑", "日元")
_RANGE_BEFORE = re.compile(r"\d\s*(?:to|-|–|~|至|到)\s*$")
_ITEM = re.compile(r"^(?P<indent>[ \t]*)(?P<mark>[-*•]|\d{1,2}[.)])\s+\S")


def _note(cls: str, old: str, new: str) -> str:
    return f"rewrite {cls}: {old!r} -> {new!r}"


def list_runs(t: Transcript) -> tuple[str, list[str], list[list[int]]]:
    """The bullet or numbered lists of an answer: its line separator, its lines, and each list's line indexes."""
    sep = "\\n" if t.json_answer else "\n"
    lines = t.answer.split(sep)
    runs: list[list[int]] = []
    current: list[int] = []
    indent = None
    for i, line in enumerate(lines):
        m = _ITEM.match(line)
        if m and (indent is None or m.group("indent") == indent) and not (current and i != current[-1] + 1):
            current.append(i)
            indent = m.group("indent")
            continue
        if len(current) >= 2:
            runs.append(current)
        current, indent = ([i], m.group("indent")) if m else ([], None)
    if len(current) >= 2:
        runs.append(current)
    return sep, lines, [r for r in runs if len({lines[i] for i in r}) == len(r)]


def reorder(t: Transcript, rng: random.Random) -> Edit | None:
    """The items of a bullet or numbered list in another order (numbers stay where they were)."""
    sep, lines, runs = list_runs(t)
    if not runs:
        return None
    run = rng.choice(runs)
    bodies = [_ITEM.match(lines[i]) for i in run]
    heads = [lines[i][: m.end() - 1] for i, m in zip(run, bodies, strict=True)]
    texts = [lines[i][m.end() - 1:] for i, m in zip(run, bodies, strict=True)]
    order = list(range(len(run)))
    while order == sorted(order):
        rng.shuffle(order)
    new_lines = list(lines)
    for k, i in enumerate(run):
        new_lines[i] = heads[k] + texts[order[k]]
    answer = sep.join(new_lines)
    return Edit(answer, [], [], f"rewrite reorder: list items {len(run)} in the order {order}")


def number_format(t: Transcript, rng: random.Random) -> Edit | None:
    """An amount written another way: separators, trailing zeros, or thousands as `k` where exact."""
    options = []
    for tok in amount_tokens(t):
        value, text = tok.value, tok.text
        if t.json_answer and t.answer[:tok.start].rstrip().endswith(":"):
            continue  # a JSON number: another format would not be JSON
        sign = text[0] if text[0] in "$€£¥￥" else ""
        digits = text[len(sign):]
        if not sign and "." not in digits and not t.answer.startswith(_ZH_UNITS, tok.end):
            continue  # 500,000 followers is a count, not an amount to write as 500,000.00
        if "," in digits:
            options.append((tok, sign + digits.replace(",", "")))
        elif value >= 1000:
            options.append((tok, sign + f"{value:,}"))
        if "." in digits and value == value.to_integral_value():
            options.append((tok, sign + digits.split(".")[0]))
        elif "." not in digits:
            options.append((tok, sign + digits + ".00"))
        if value >= 1000 and (value / 1000) == (value / 1000).quantize(Decimal("0.01")) and sign:
            k = (value / 1000).normalize()
            options.append((tok, f"{sign}{k:f}k"))
    if not options:
        return None
    tok, new = rng.choice(options)
    return Edit(splice(t.answer, tok.start, tok.end, new), [], [], _note("number_format", tok.text, new))


_LONG_DATE = re.compile(r"\b(January|February|March|April|May|June|July|August|September|October|November|December)"
                        r" (\d{1,2})(?:st|nd|rd|th)?, (\d{4})\b")
_DAY_FIRST = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)? (January|February|March|April|May|June|July|August|September|"
                        r"October|November|December),? (\d{4})\b")
_ISO = re.compile(r"(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?![\d-])")
_TIME24 = re.compile(r"(?<![\d:])([01]?\d|2[0-3]):([0-5]\d)(?![\d:]| ?[AaPp]\.?[Mm])")
_ZH_DATE = re.compile(r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})日")
_DAY_OF = re.compile(r"\b(?:the )?(\d{1,2})(?:st|nd|rd|th) of (January|February|March|April|May|June|July|August|"
                     r"September|October|November|December)\b")
_HOUR12 = re.compile(r"(?<![\d:])(1[0-2]|[1-9]) ?([AaPp][Mm])\b")
_TIME12 = re.compile(r"(?<![\d:])(1[0-2]|0?[1-9]):([0-5]\d) ?([AaPp])\.?[Mm]\.?")


def date_format(t: Transcript, rng: random.Random) -> Edit | None:
    """A date or time written in another format (2024-05-17 / May 17, 2024 / 2024年5月17日; 3月15日 / 3月15号;
    15th of March / March 15; 14:30 / 2:30 PM; 10 AM / 10:00 AM)."""
    months = lexicon()["months_en"]
    text = mask(t.answer)
    options = []
    for m in _ISO.finditer(text):
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if 1 <= mo <= 12 and 1 <= d <= 31:
            new = f"{y}年{mo}月{d}日" if t.lang == "zh" else f"{months[mo - 1]} {d}, {y}"
            options.append((m.start(), m.end(), new))
    for m in _LONG_DATE.finditer(text):
        mo = months.index(m.group(1)) + 1
        options.append((m.start(), m.end(), f"{m.group(3)}-{mo:02d}-{int(m.group(2)):02d}"))
    for m in _DAY_FIRST.finditer(text):
        options.append((m.start(), m.end(), f"{m.group(2)} {int(m.group(1))}, {m.group(3)}"))
    for m in _TIME24.finditer(text):
        h, mi = int(m.group(1)), m.group(2)
        if h >= 13:
            options.append((m.start(), m.end(), f"{h - 12}:{mi} PM"))
    for m in _ZH_DATE.finditer(text):  # 2022年3月15日 -> 2022-03-15; 3月15日 -> 3月15号
        y, mo, d = m.group(1), int(m.group(2)), int(m.group(3))
        if 1 <= mo <= 12 and 1 <= d <= 31:
            gap = " " if text[m.end():m.end() + 1].isdigit() else ""  # 2022-05-15 10点, not 2022-05-1510点
            options.append((m.start(), m.end(), f"{y}-{mo:02d}-{d:02d}{gap}" if y else f"{mo}月{d}号"))
    for m in _DAY_OF.finditer(text):
        options.append((m.start(), m.end(), f"{m.group(2)} {int(m.group(1))}"))
    for m in _HOUR12.finditer(text):
        options.append((m.start(), m.end(), f"{m.group(1)}:00 {m.group(2).upper()}"))
    for m in _TIME12.finditer(text):
        h, mi, half = int(m.group(1)), m.group(2), m.group(3).lower()
        h24 = (h % 12) + (12 if half == "p" else 0)
        options.append((m.start(), m.end(), f"{h24:02d}:{mi}"))
    if not options:
        return None
    start, end, new = rng.choice(options)
    return Edit(splice(t.answer, start, end, new), [], [], _note("date_format", t.answer[start:end], new))


def status_synonym(t: Transcript, rng: random.Random) -> Edit | None:
    """A status word replaced by a synonym (cancelled / canceled, 已送达 / 已签收)."""
    options = []
    for old, new in lexicon()["status_synonyms"][t.lang]:
        for start, end in find_words(t.answer, old.strip(), t.lang):
            if old.endswith(" ") and t.answer[end:end + 1] == " ":
                end += 1
            options.append((start, end, keep_case(new, t.answer[start:end]) if new else ""))
    if not options:
        return None
    pair = rng.choice(sorted({(t.answer[s:e].lower(), new) for s, e, new in options}))
    start, end, new = rng.choice([o for o in options if (t.answer[o[0]:o[1]].lower(), o[2]) == pair])
    return Edit(splice(t.answer, start, end, new), [], [], _note("status_synonym", t.answer[start:end], new))


def derived_value(t: Transcript, rng: random.Random) -> Edit | None:
    """The correct total of a list whose items each carry one amount, written as a new line after the list."""
    sep = "\\n" if t.json_answer else "\n"
    lines = t.answer.split(sep)
    amounts = [tok for tok in amount_tokens(t) if tok.text[0] in "$€£¥￥"]
    runs: list[list[Token]] = []
    current: list[Token] = []
    offset = 0
    for line in lines:
        inside = [tok for tok in amounts if offset <= tok.start < offset + len(line)]
        if _ITEM.match(line) and len(inside) == 1 and '"' not in line:
            current.append(inside[0])
        else:
            if len(current) >= 2:
                runs.append(current)
            current = []
        offset += len(line) + len(sep)
    if len(current) >= 2:
        runs.append(current)
    groups = [{money(x) for x in group} for group in amount_groups(t)]
    runs = [r for r in runs if len({tok.text[0] for tok in r}) == 1 and len({tok.value for tok in r}) >= 2
            and any(all(tok.value in g for tok in r) for g in groups)]  # the members of one record's list
    if not runs:
        return _list_count(t, rng)
    run = rng.choice(runs)
    total = sum((tok.value for tok in run), Decimal(0))
    value = render_like(total, max((tok.text for tok in run), key=lambda s: ("," in s, len(s))))
    sentence = lexicon()["derived_total"][t.lang].format(value=value).strip()
    end = t.answer.find(sep, run[-1].end)
    end = len(t.answer.rstrip()) if end < 0 else end
    answer = t.answer[:end] + sep + sentence + t.answer[end:]
    parts = " + ".join(tok.text for tok in run)
    return Edit(answer, [], [], f"rewrite derived_value: added {sentence!r} after the list ({parts})")


def _list_count(t: Transcript, rng: random.Random) -> Edit | None:
    """The number of items of a list, written as a new line after it."""
    sep, lines, runs = list_runs(t)
    def countable(run: list[int]) -> bool:  # items, not "Label: value" lines, with no sub-list after the last
        items = [lines[i] for i in run]
        after = lines[run[-1] + 1] if run[-1] + 1 < len(lines) else ""
        return not any(":" in x or "：" in x or (t.json_answer and '"' in x) or len(x) > 80
                       or x.rstrip().endswith((".", "。", "?", "？", "!")) for x in items) and not (
            _ITEM.match(after) and len(after) - len(after.lstrip()) > len(items[-1]) - len(items[-1].lstrip()))

    runs = [r for r in runs if countable(r)]
    if not runs:
        return None
    run = rng.choice(runs)
    sentence = lexicon()["derived_count"][t.lang].format(value=len(run))
    end = sum(len(line) + len(sep) for line in lines[: run[-1] + 1]) - len(sep)
    answer = t.answer[:end] + sep + sentence + t.answer[end:]
    return Edit(answer, [], [], f"rewrite derived_value: added {sentence!r} after a list of {len(run)} items")


_FACT_OPENER = re.compile(r"(The|Your|Based|It|There|This|According|Order|Here|I found|I've found|You have)\b")


def hedge(t: Transcript, rng: random.Random) -> Edit | None:
    """A hedge before the answer, or a question after it."""
    words = lexicon()["hedges"][t.lang]
    body_start = 0
    if t.json_answer:
        m = re.search(r'"(?:message|response|content|text)"\s*:\s*"', t.answer)
        if not m:
            return None
        body_start = m.end()
    if rng.random() < 0.5:
        prefix = rng.choice(words["prefix"])
        first = t.answer[body_start:body_start + 2]
        if _ITEM.match(t.answer[body_start:]) or first[:1] in "#*-|":
            return None
        if t.lang == "en" and not _FACT_OPENER.match(t.answer, body_start):
            return None  # "From what I can see, thanks, Mei." reads as no agent writes
        rest = t.answer[body_start:]
        if t.lang == "en" and not re.match(r"(I\b|I'|[A-Z]{2})", rest):
            rest = rest[0].lower() + rest[1:]
        answer = t.answer[:body_start] + prefix + rest
        return Edit(answer, [], [], f"rewrite hedge: {prefix.strip()!r} added before the answer")
    suffix = rng.choice(words["suffix"])
    if t.json_answer:
        m = re.search(r'"(?:message|response|content|text)"\s*:\s*"(?:[^"\\]|\\.)*', t.answer)
        if not m:
            return None
        end = m.end()
    else:
        end = len(t.answer.rstrip())
    answer = t.answer[:end] + suffix + t.answer[end:]
    return Edit(answer, [], [], f"rewrite hedge: {suffix.strip()!r} added after the answer")


def numerals(t: Transcript, rng: random.Random) -> Edit | None:
    """A small count in digits written as a number word, or the other way (3 名 / 三名; 3 items / three items)."""
    lex = lexicon()
    options = []
    text = mask(t.answer)
    if t.lang == "zh":
        for m in re.finditer(r"(?<![\d.,])(\d{1,2})\s?([" + lex["count_nouns_zh"] + "])", text):
            n = int(m.group(1))
            if 2 <= n <= 99:
                options.append((m.start(), m.end(), zh_numeral(n, two=True) + m.group(2)))
        zh_count = r"(?<![\d一二两三四五六七八九十第])([二两三四五六七八九])([" + lex["count_nouns_zh"] + "])"
        for m in re.finditer(zh_count, text):
            n = "一二三四五六七八九".find(m.group(1).replace("两", "二")) + 1
            options.append((m.start(), m.end(), f"{n} {m.group(2)}"))
    else:
        words = lex["number_words_en"]
        for m in re.finditer(r"(?<![\w.$#,–-])(\d{1,2})(\s+[a-z]+s)\b", text):
            n = int(m.group(1))
            if 2 <= n < len(words) and not _RANGE_BEFORE.search(text, 0, m.start()):  # not "5 to seven days"
                options.append((m.start(), m.end(), words[n] + m.group(2)))
        for m in re.finditer(r"\b(" + "|".join(words[2:]) + r")(\s+[a-z]+s)\b", text, flags=re.IGNORECASE):
            n = words.index(m.group(1).lower())
            if m.group(1)[0].isupper():
                continue
            options.append((m.start(), m.end(), f"{n}{m.group(2)}"))
    if not options:
        return None
    start, end, new = rng.choice(options)
    return Edit(splice(t.answer, start, end, new), [], [], _note("numerals", t.answer[start:end], new))


_APOSTROPHE = re.compile(r"(?<=[A-Za-z])'(?=[A-Za-z])")
_WORD_HYPHEN = re.compile(r"(?<=[A-Za-z0-9])-(?=[A-Za-z0-9])")
_CURLY, _NON_BREAKING = APOSTROPHES[0], HYPHENS[1]
"""The marks `typography` writes, U+2019 and U+2011: ones the checker reads as plain (`typography.plain_marks`)."""


def typography(t: Transcript, rng: random.Random) -> Edit | None:
    """The answer typeset as GPT models write it: apostrophes curly (I’ve), hyphens that join a word or id
    non-breaking (T‑Shirt, INV‑2207; dates, ranges and phone numbers keep theirs), amounts bold (**$86**).

    Every style the answer gives room for is applied, all through the answer, as one model writes it.
    """
    text = mask(t.answer)
    new = list(t.answer)
    done = []
    apostrophes = [m.start() for m in _APOSTROPHE.finditer(text)]
    for i in apostrophes:
        new[i] = _CURLY
    if apostrophes:
        done.append(f"{len(apostrophes)} apostrophes as {_CURLY}")
    hyphens = [m.start() for m in _WORD_HYPHEN.finditer(text)
               if not (text[m.start() - 1].isdigit() and text[m.start() + 1].isdigit())]
    for i in hyphens:
        new[i] = _NON_BREAKING
    if hyphens:
        done.append(f"{len(hyphens)} hyphens as U+2011")
    bold = [tok for tok in amount_tokens(t) if tok.text[0] in "$€£¥￥"
            and t.answer.count("**", 0, tok.start) % 2 == 0  # not inside bold already
            and "*" not in t.answer[tok.start - 1:tok.start] + t.answer[tok.end:tok.end + 1]]
    for tok in reversed(bold):
        new[tok.start:tok.end] = ["**" + "".join(new[tok.start:tok.end]) + "**"]
    if bold:
        done.append(f"{len(bold)} amounts bold")
    if not done:
        return None
    return Edit("".join(new), [], [], "rewrite typography: " + ", ".join(done))
