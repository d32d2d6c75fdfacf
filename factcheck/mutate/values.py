"""What a mutation works on: the values in an answer, the records in its tool outputs, and their formats."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cache
from importlib import resources
from typing import Any

_ESCAPES = re.compile(r"\\[nrt\"\\/]")
_ID = re.compile(r"(?<![\w#.])#?[A-Za-z_]*\d{4,}[A-Za-z0-9_]*(?![\w.]?\d)")
_NUMBER = re.compile(
    r"(?<![\w.,/:#-])(?P<cur>[$€£¥￥])?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P<k>k\b)?"
    r"(?![\w:/-]|[.,]\d)"
)
_ZH_AMOUNT_UNITS = ("美元", "元", "欧元", "英镑", "日元", "块")
_URL = re.compile(r"https?://[^\s)\]\"'<>，。）]+")
_DATE_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")


@cache
def lexicon() -> dict[str, Any]:
    """The word tables of `factcheck mutate` (factcheck/data/mutate.json).

    Returns:
        The decoded file.
    """
    return json.loads(resources.files("factcheck.data").joinpath("mutate.json").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Token:
    """A value found in the answer."""

    start: int
    """Offset in the answer."""
    end: int
    """End offset in the answer."""
    text: str
    """The exact text."""
    kind: str
    """`number`, `identifier` or `url`."""
    value: Decimal | None = None
    """The number's value (numbers only)."""
    amount: bool = False
    """True for a number with a currency sign or unit, decimals or thousands separators."""


@dataclass(eq=False)
class Leaf:
    """A scalar in a tool output and where it sits."""

    call: int
    """Index of the tool call."""
    path: tuple[Any, ...]
    """Keys and list indexes from the output's root."""
    value: Any
    """The scalar."""

    @property
    def key(self) -> str | None:
        """The name of the field that holds it (the last string key of the path)."""
        return next((p for p in reversed(self.path) if isinstance(p, str)), None)


@dataclass
class Transcript:
    """One case, read once: the answer's tokens and the outputs' leaves, numbers and text."""

    case: dict[str, Any]
    """The case-format mapping."""
    tokens: list[Token] = field(default_factory=list)
    """Numbers, identifiers and links of the answer, in order."""
    leaves: list[Leaf] = field(default_factory=list)
    """Every scalar of every output."""
    numbers: set[Decimal] = field(default_factory=set)
    """Every number that occurs in the outputs."""
    blob: str = ""
    """The outputs' text, lower-cased, one block per call."""
    json_answer: bool = False
    """True when the answer is a JSON object written as text (`\\n` escapes inside its strings)."""

    @property
    def answer(self) -> str:
        """The answer text."""
        return self.case["answer"]

    @property
    def lang(self) -> str:
        """`zh` for Chinese and mixed answers, else `en`."""
        return "zh" if self.case.get("lang") in ("zh", "mixed") else "en"

    def backed(self, text: str) -> bool:
        """Whether `text` occurs in the outputs (case-insensitive), or as a number whose value does."""
        if text.lower() in self.blob:
            return True
        value = parse_number(text)
        return value is not None and value in self.numbers

    def siblings(self, leaf: Leaf) -> list[Leaf]:
        """Leaves of other records of the same kind: the same field under another list member or call."""
        shape = _shape(leaf.path)
        return [x for x in self.leaves if x is not leaf and _shape(x.path) == shape]


def _shape(path: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple("#" if isinstance(p, int) else p for p in path)


def mask(text: str) -> str:
    """The text with JSON escapes (`\\n`, `\\"`) blanked, same length, so that they read as no value."""
    return _ESCAPES.sub("  ", text)


def parse_number(text: str) -> Decimal | None:
    """The value of a number as written (`$1,240.00`, `1.24k`, `45`), or None."""
    m = re.fullmatch(r"[$€£¥￥]?\s?(\d[\d,]*(?:\.\d+)?)(k)?", text.strip())
    if not m:
        return None
    try:
        value = Decimal(m.group(1).replace(",", ""))
    except InvalidOperation:
        return None
    return value * 1000 if m.group(2) else value


def render_like(value: Decimal, template: str) -> str:
    """Write `value` the way `template` writes its number: currency sign, separators and decimals.

    Args:
        value: The new value.
        template: A number as the answer writes it (`$1,240.00`, `1571.66`, `45`).

    Returns:
        The value in the same format.
    """
    m = re.fullmatch(r"([$€£¥￥]?\s?)(\d[\d,]*)(?:\.(\d+))?", template)
    if not m:
        return str(value)
    sign, whole, frac = m.group(1), m.group(2), m.group(3)
    places = len(frac) if frac else 0
    if not frac and value != value.to_integral_value():
        places = 2
    text = f"{value:,.{places}f}" if "," in whole else f"{value:.{places}f}"
    return sign + text


def scan_answer(answer: str) -> list[Token]:
    """The numbers, identifiers and links of an answer (JSON escapes are no part of any).

    Args:
        answer: The answer text.

    Returns:
        Non-overlapping tokens in order.
    """
    text = mask(answer)
    taken: list[tuple[int, int]] = []
    tokens: list[Token] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in taken)

    for m in _URL.finditer(text):
        url = m.group().rstrip(".,;:!?*")
        tokens.append(Token(m.start(), m.start() + len(url), url, "url"))
        taken.append((m.start(), m.start() + len(url)))
    for m in _DATE_ISO.finditer(text):
        taken.append(m.span())
    for m in _ID.finditer(text):
        if free(*m.span()) and (not m.group().isdigit() or len(m.group()) >= 6):  # 4-5 bare digits: a number
            tokens.append(Token(m.start(), m.end(), m.group(), "identifier"))
            taken.append(m.span())
    for m in _NUMBER.finditer(text):
        if not free(*m.span()):
            continue
        after = text[m.end():m.end() + 2]
        unit = any(after.startswith(u) for u in _ZH_AMOUNT_UNITS)
        amount = bool(m.group("cur") or unit or "." in m.group("num") or "," in m.group("num"))
        value = parse_number(m.group())
        if value is None:
            continue
        tokens.append(Token(m.start(), m.end(), m.group(), "number", value, amount))
        taken.append(m.span())
    return sorted(tokens, key=lambda t: t.start)


def _walk(value: Any, call: int, path: tuple[Any, ...], out: list[Leaf]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _walk(v, call, (*path, str(k)), out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _walk(v, call, (*path, i), out)
    elif isinstance(value, str) and value[:1] in "[{":
        try:
            decoded = json.loads(value)
        except ValueError:
            out.append(Leaf(call, path, value))
            return
        _walk(decoded, call, path, out)
    elif value is not None:
        out.append(Leaf(call, path, value))


def numbers_in(text: str) -> set[Decimal]:
    """Every number written in a text."""
    found = set()
    for m in re.finditer(r"\d[\d,]*(?:\.\d+)?", text):
        try:
            found.add(Decimal(m.group().replace(",", "").rstrip(",")))
        except InvalidOperation:
            continue
    return found


def read_transcript(case: dict[str, Any]) -> Transcript:
    """Read a case once for every mutation class.

    Args:
        case: A case-format mapping.

    Returns:
        Its transcript.
    """
    t = Transcript(case=case, tokens=scan_answer(case["answer"]))
    t.json_answer = case["answer"].lstrip().startswith("{")
    blocks = []
    for i, call in enumerate(case.get("tool_calls") or []):
        _walk(call.get("output"), i, (), t.leaves)
        output = call.get("output")
        blocks.append(output if isinstance(output, str) else json.dumps(output, ensure_ascii=False))
    t.blob = "\n".join(blocks).lower()
    for leaf in t.leaves:
        if isinstance(leaf.value, bool):
            continue
        if isinstance(leaf.value, (int, float)):
            t.numbers.add(Decimal(str(leaf.value)))
        elif isinstance(leaf.value, str):
            t.numbers |= numbers_in(leaf.value)
    t.numbers = {n.normalize() for n in t.numbers} | t.numbers
    return t


def number_backed(t: Transcript, value: Decimal) -> bool:
    """Whether a value occurs among the outputs' numbers (any trailing zeros)."""
    return value in t.numbers or value.normalize() in t.numbers


def sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence or line around `[start, end)`: ends at `.!?。！？`, a line break or a `\\n` escape."""
    masked = mask(text)
    a = start
    stops = ".!?。！？\n" + ('"' if text.lstrip().startswith("{") else "")
    while a > 0 and masked[a - 1] not in stops and not text.startswith("\\n", a - 2):
        a -= 1
    b = end
    while b < len(text) and masked[b] not in "!?。！？\n" and not text.startswith("\\n", b) and not (
        masked[b] == "." and (b + 1 >= len(text) or masked[b + 1] in " \n\"")
    ):
        b += 1
    if b < len(text) and masked[b] in ".!?。！？":
        b += 1
    while a < b and masked[a] in " \t\"*-#>" or (a < b and masked[a].isdigit() and masked[a + 1:a + 2] in (".", ")")):
        a += 2 if masked[a].isdigit() else 1
    while b > a and masked[b - 1] in " \t\"*":
        b -= 1
    return a, b


_CONDITIONAL = re.compile(r"\b(if|unless|once|when|can|could|would|will|may|might|must|should|please|only|after|before|"
                          r"no|not|none)\b|如果|除非|可以|能够|只能|请|之后|以前|没有|不", re.IGNORECASE)


def conditional(sentence: str) -> bool:
    """Whether a sentence is conditional, modal, negated or a request rather than a plain statement."""
    return bool(_CONDITIONAL.search(sentence))


def paragraph_end(answer: str, at: int) -> int:
    """Where the paragraph (or list) holding offset `at` ends: before a blank line, else the end of the text
    (of the JSON string it is in, for an answer written as JSON)."""
    ends = [i for i in (answer.find("\n\n", at), answer.find("\\n\\n", at)) if i >= 0]
    if ends:
        return min(ends)
    if answer.lstrip().startswith("{"):
        m = re.compile(r'(?:[^"\\]|\\.)*').match(answer, at)
        return m.end() if m else at
    return len(answer.rstrip())


def keep_case(word: str, like: str) -> str:
    """`word` with the first letter's case of `like`."""
    if like[:1].isupper() and word:
        return word[0].upper() + word[1:]
    return word


def find_words(text: str, phrase: str, lang: str) -> list[tuple[int, int]]:
    """Whole-word (en, case-insensitive) or exact (zh) occurrences of a phrase.

    Args:
        text: Where to look.
        phrase: The phrase.
        lang: `en` or `zh`.

    Returns:
        `(start, end)` of each occurrence.
    """
    masked = mask(text)
    if lang == "zh":
        return [(m.start(), m.end()) for m in re.finditer(re.escape(phrase), masked)]
    pattern = r"(?<![\w-])" + re.escape(phrase) + r"(?![\w-])"
    return [(m.start(), m.end()) for m in re.finditer(pattern, masked, flags=re.IGNORECASE)]
