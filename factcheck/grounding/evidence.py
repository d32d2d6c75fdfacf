"""Normalise tool outputs into an index of evidence: leaves, numbers, dates, statuses."""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cached_property
from typing import Any

from factcheck.config import CheckerConfig
from factcheck.extractors.mentions import Mention, MentionExtractor
from factcheck.extractors.status import StatusExtractor, StatusMention
from factcheck.lexicon import Lexicon, term_key
from factcheck.report import FactKind

_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_PATH_WORDS = re.compile(r"[A-Za-z]+|[\u3400-\u9fff]+")
_LOOKS_JSON = re.compile(r"^\s*[\[{]")
_WHEN = (FactKind.DATE, FactKind.TIME)
_DIGIT = re.compile(r"\d")
_FINITE = re.compile(r"-?\d+(?:\.\d+)?")


@dataclass
class ToolRecord:
    """One tool call as evidence: its name, status and output."""

    index: int
    name: str | None
    status: str
    output: Any
    args: Any = None
    """The arguments the tool ran with (evidence for what was asked, e.g. a quantity)."""
    concepts: frozenset[str] = frozenset()
    """Concepts named by the tool's name (`refund_order` -> refund)."""


@dataclass(slots=True, eq=False)
class Leaf:
    """One value inside a tool output (or a context string), with where it sits."""

    source: str
    index: int
    path: str
    text: str
    start: int = 0
    """Offset of `text` in the index's blob."""
    labels: frozenset[str] = frozenset()
    """Field labels named by the path (`refund_amount` -> refund, amount)."""
    concept: str | None = None
    """Status concept named by the path (`refund_status` -> refund)."""
    count: bool = False
    """True for the length of a list (not a value the tool wrote)."""
    minor_unit: bool = False
    """True when the field holds hundredths (`amount_cents`, `amount_fen`)."""
    numeric: bool = False
    """True for a JSON number (its text is the canonical value)."""


@dataclass(slots=True, eq=False)
class Located:
    """A mention found in the evidence, and the leaf that holds it."""

    mention: Mention
    leaf: Leaf


@dataclass(slots=True, eq=False)
class StatusEvidence:
    """A status that a tool output states, and the leaf that states it."""

    concept: str | None
    polarity: str
    leaf: Leaf
    call: int


@dataclass
class Blob:
    """Leaves joined into one searchable text, lower-cased, with offsets back to leaves."""

    leaves: list[Leaf] = field(default_factory=list)
    first_of: dict[int, Leaf] = field(default_factory=dict)
    """The first leaf of each tool call (or context string)."""
    parts: list[str] = field(default_factory=list)
    length: int = 0

    def add(self, leaf: Leaf) -> None:
        leaf.start = self.length
        self.first_of.setdefault(leaf.index, leaf)
        self.leaves.append(leaf)
        self.parts.append(leaf.text)
        self.length += len(leaf.text) + 1

    @cached_property
    def text(self) -> str:
        return "\n".join(self.parts)

    @cached_property
    def lower(self) -> str:
        return self.text.lower()

    @cached_property
    def _starts(self) -> list[int]:
        return [leaf.start for leaf in self.leaves]

    def leaf_at(self, pos: int) -> Leaf:
        return self.leaves[bisect_right(self._starts, pos) - 1]

    def find_token(self, value: str, url: bool = False) -> Leaf | None:
        """First leaf holding `value` (lower case) as a whole token."""
        hay, pos = self.lower, 0
        while value:
            pos = hay.find(value, pos)
            if pos < 0:
                return None
            before = hay[pos - 1] if pos else " "
            after = hay[pos + len(value)] if pos + len(value) < len(hay) else " "
            if url:
                ok = not (after.isalnum() or after in "-_") and not (before.isalnum() or before in "-_")
            else:
                ok = not (before.isascii() and (before.isalnum() or before in "-_")) and not (
                    after.isascii() and (after.isalnum() or after in "-_")
                )
            if ok:
                return self.leaf_at(pos)
            pos += 1
        return None


class EvidenceIndex:
    """Everything one run's tool outputs and context say, indexed once per check."""

    def __init__(
        self,
        tool_calls: Sequence[Any],
        context: Sequence[str],
        config: CheckerConfig,
        lex: Lexicon,
        mentions: MentionExtractor,
        statuses: StatusExtractor,
    ) -> None:
        self.config = config
        self.lex = lex
        self._mentions = mentions
        self._statuses = statuses
        self.notes: list[str] = []
        self.calls: list[ToolRecord] = []
        self.tools = Blob()
        self.context = Blob()
        self.list_counts: list[tuple[int, Leaf]] = []
        for i, item in enumerate(tool_calls):
            record = self._record(i, item)
            self.calls.append(record)
            self._flatten(record)
            if record.args:
                self._flatten(record, record.args, "args")
        for i, text in enumerate(context):
            if not isinstance(text, str):
                text = _to_text(text, self.notes, f"context[{i}]")
            self.context.add(Leaf("context", i, "", text[: config.max_output_chars]))

    # ---------- normalisation ----------
    def _record(self, i: int, item: Any) -> ToolRecord:
        name, status, output, args = None, "ok", item, None
        if isinstance(item, Mapping) and ("output" in item or "name" in item):
            name = item.get("name")
            output = item.get("output")
            args = item.get("args") if isinstance(item.get("args"), Mapping) else None
            status = "error" if str(item.get("status", "ok")).lower() == "error" else "ok"
        elif hasattr(item, "content") and getattr(item, "type", None) == "tool":
            name = getattr(item, "name", None)
            output = _content_text(item.content)
            status = "error" if getattr(item, "status", "success") == "error" else "ok"
        concepts = frozenset(self.lex.concepts_in(_CAMEL.sub(r"\1_\2", str(name)))) if name else frozenset()
        return ToolRecord(i, str(name) if name is not None else None, status, output, args, concepts)

    def _flatten(self, call: ToolRecord, output: Any = None, root: str = "") -> None:
        """Flatten a tool output (or its args) into leaves, iteratively and depth-limited."""
        output = call.output if not root else output
        if isinstance(output, (bytes, bytearray, str)) or output is None:
            output = _to_text(output, self.notes, f"tool call {call.index}")
            if len(output) > self.config.max_output_chars:
                self.notes.append(
                    f"tool call {call.index} output cut from {len(output):,} to "
                    f"{self.config.max_output_chars:,} characters"
                )
                output = output[: self.config.max_output_chars]
        stack: list[tuple[str, str, Any, int]] = [(root, root, output, 0)]
        max_depth = self.config.max_json_depth
        deep_noted = False
        while stack:
            path, shape, value, depth = stack.pop()
            if isinstance(value, str) and _LOOKS_JSON.match(value):
                parsed = _parse_json(value)
                if parsed is not None:
                    value = parsed
            if isinstance(value, (dict, list)):
                if depth >= max_depth:
                    if not deep_noted:
                        self.notes.append(
                            f"tool call {call.index}: JSON deeper than {max_depth} levels not read below that depth"
                        )
                        deep_noted = True
                    continue
                depth += 1
                if isinstance(value, dict):
                    prefix = f"{path}." if path else ""
                    shape_prefix = f"{shape}." if shape else ""
                    items = [(f"{prefix}{k}", f"{shape_prefix}{k}", v, depth) for k, v in value.items()]
                else:
                    item_shape = f"{shape}[]"
                    items = [(f"{path}[{j}]", item_shape, v, depth) for j, v in enumerate(value)]
                    leaf = self._leaf(call, path or "$", shape, str(len(value)))
                    leaf.labels, leaf.count, leaf.numeric = leaf.labels | {"count"}, True, True
                    self.tools.add(leaf)
                    self.list_counts.append((len(value), leaf))
                items.reverse()
                stack.extend(items)
                continue
            numeric = False
            if isinstance(value, bool):
                text = "true" if value else "false"
            elif value is None:
                text = "null"
            elif isinstance(value, (int, float)):
                text = _number_text(value)
                numeric = _FINITE.fullmatch(text) is not None
            elif isinstance(value, (bytes, bytearray)):
                text = _to_text(value, self.notes, f"tool call {call.index} {path}")
            else:
                text = str(value)
            leaf = self._leaf(call, path, shape, text)
            leaf.numeric = numeric
            self.tools.add(leaf)

    def _leaf(self, call: ToolRecord, path: str, shape: str, text: str) -> Leaf:
        """A leaf at `path`; `shape` is the path with list indexes dropped (`items[].price`)."""
        labels, concept, minor = self._path_info(shape)
        return Leaf("tool", call.index, path, text, labels=labels, concept=concept, minor_unit=minor)

    def _path_info(self, shape: str) -> tuple[frozenset[str], str | None, bool]:
        """Field labels, status concept and minor-unit flag named by a path (cached per lexicon)."""
        cache = self.lex.path_cache
        if shape in cache:
            return cache[shape]
        key = _CAMEL.sub(r"\1_\2", " ".join(shape.replace("[]", "").split(".")[-2:]))
        concepts = self.lex.concepts_in(_CAMEL.sub(r"\1_\2", shape.replace("[]", " ")))
        info = (
            frozenset(self.lex.fields_in(key)),
            concepts[-1] if concepts else None,
            self.lex.minor_units.search(key),
        )
        if len(cache) > 50_000:
            cache.clear()
        cache[shape] = info
        return info

    # ---------- lazily built indexes ----------
    @cached_property
    def tool_mentions(self) -> list[Located]:
        """Numbers, dates and times in the tool outputs, with the labels of their fields."""
        return self._locate(self.tools)

    @cached_property
    def context_mentions(self) -> list[Located]:
        """Numbers, dates and times in the context."""
        return self._locate(self.context)

    @cached_property
    def numbers(self) -> list[Located]:
        return [loc for loc in self.tool_mentions if loc.mention.kind == FactKind.NUMBER]

    @cached_property
    def context_numbers(self) -> list[Located]:
        return [loc for loc in self.context_mentions if loc.mention.kind == FactKind.NUMBER]

    @cached_property
    def number_values(self) -> list[tuple[float, int]]:
        """(value, position in `numbers`) sorted by value, for range look-ups."""
        return sorted((float(loc.mention.value), i) for i, loc in enumerate(self.numbers))

    @cached_property
    def dates_times(self) -> list[Located]:
        return [loc for loc in self.tool_mentions if loc.mention.kind in _WHEN]

    @cached_property
    def context_dates_times(self) -> list[Located]:
        return [loc for loc in self.context_mentions if loc.mention.kind in _WHEN]

    def _locate(self, blob: Blob) -> list[Located]:
        """Numbers, dates and times of a blob's leaves.

        A JSON number is read as it is. The extractor runs once over the distinct
        texts that hold a digit (values repeat across the items of a list); links and
        identifiers it finds are dropped.
        """
        ex = self._mentions
        out: list[Located] = []
        by_text: dict[str, list[Leaf]] = {}
        for leaf in blob.leaves:
            if leaf.numeric:
                value = leaf.text.lstrip("-")  # signs are read as words ("$85 cheaper"), as in text
                exponent = -len(value.split(".")[1]) if "." in value else 0
                _add_number(out, Mention(FactKind.NUMBER, 0, len(value), value, None, exponent, leaf.labels), leaf)
            elif blob is self.context or _DIGIT.search(leaf.text):  # context may spell numbers (三晚)
                by_text.setdefault(leaf.text, []).append(leaf)
        texts = list(by_text)
        starts = []
        offset = 0
        for text in texts:
            starts.append(offset)
            offset += len(text) + 1
        joined = "\n".join(texts)
        for mention in ex.extract(joined, words=blob is self.context):
            if mention.kind not in _WHEN and mention.kind != FactKind.NUMBER:
                continue
            i = bisect_right(starts, mention.start) - 1
            nearby = ex.labels_before(joined, mention, starts[i]) if mention.kind == FactKind.NUMBER else None
            for leaf in by_text[texts[i]]:
                if nearby is None:
                    out.append(Located(mention, leaf))
                else:
                    _add_number(out, replace(mention, labels=leaf.labels | nearby), leaf)
        return out

    def _read_statuses(self, text: str, default: str | None) -> list[StatusMention]:
        """Statuses a tool-output value states (cached per lexicon: values repeat across items and runs)."""
        cache = self.lex.status_cache
        found = cache.get((text, default))
        if found is None:
            found = self._statuses.extract(text, default, claims=False)
            if len(cache) > 50_000:
                cache.clear()
            cache[(text, default)] = found
        return found

    @cached_property
    def statuses(self) -> list[StatusEvidence]:
        """Every status the tool outputs state, in call order."""
        out: list[StatusEvidence] = []
        for leaf in self.tools.leaves:
            if leaf.numeric or leaf.path.startswith("args"):
                continue
            call = self.calls[leaf.index]
            default = leaf.concept or next(iter(sorted(call.concepts)), None)
            if leaf.text in ("true", "false"):
                key = term_key(_CAMEL.sub(r"\1_\2", leaf.path.rsplit(".", 1)[-1]))
                for s in self._read_statuses(key, default):
                    pol = s.polarity if leaf.text == "true" else _negate(s.polarity)
                    out.append(StatusEvidence(s.concept, pol, leaf, call.index))
                continue
            for s in self._read_statuses(leaf.text, default):
                out.append(StatusEvidence(s.concept, s.polarity, leaf, call.index))
        for count, leaf in self.list_counts:
            if leaf.path.startswith("args"):
                continue
            out.append(StatusEvidence("search", "positive" if count else "negative", leaf, leaf.index))
        for call in self.calls:
            if call.status == "error":
                leaf = self.tools.first_of.get(call.index) or Leaf("tool", call.index, "", "")
                for concept in sorted(call.concepts) or [None]:
                    out.append(StatusEvidence(concept, "negative", leaf, call.index))
        return out


def _add_number(out: list[Located], mention: Mention, leaf: Leaf) -> None:
    """Add a number; a field holding hundredths (`amount_cents`) also gives it in whole units."""
    out.append(Located(mention, leaf))
    if leaf.minor_unit:
        whole = format(Decimal(mention.value).scaleb(-2).normalize(), "f")
        out.append(Located(replace(mention, value=whole, exponent=mention.exponent - 2), leaf))


def _negate(polarity: str) -> str:
    return "negative" if polarity == "positive" else "positive"


def _content_text(content: Any) -> Any:
    """Text of a message's content: a str, or the text parts of content blocks."""
    if isinstance(content, list):
        parts = [
            b if isinstance(b, str) else b.get("text", "") if isinstance(b, Mapping) else str(b)
            for b in content
        ]
        return "\n".join(p for p in parts if p)
    return content


def _to_text(value: Any, notes: list[str], where: str) -> str:
    if value is None:
        return ""
    if isinstance(value, (bytes, bytearray)):
        text = bytes(value).decode("utf-8", errors="replace")
        if "\ufffd" in text:
            notes.append(f"{where}: invalid UTF-8 replaced with U+FFFD")
        return text
    return value if isinstance(value, str) else str(value)


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _number_text(value: int | float) -> str:
    """A JSON number as the answer would write it: 1299.0 -> 1299, 0.15 -> 0.15."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)
