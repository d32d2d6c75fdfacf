"""One walk over a tool output into columns by field shape; leaves are made only when asked for."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice, repeat
from operator import itemgetter
from typing import Any

from factcheck.grounding.json_text import LOOKS_JSON, parse_json

_OPENERS = frozenset("{[ \n\t\r")
_JSON_AFTER_NUL = re.compile(r"\x00\s*[\[{]")
"""Over a column's strings joined by NUL: whether a string after the first may hold JSON (a superset of
`LOOKS_JSON`; a literal first character lets the engine skip ahead)."""
_LIST_INDEX = re.compile(r"\[\d+\]")
# One step of a path: a key (`.fare`) or a list index (`[0]`).
_PATH_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
# Where JSON may start after a line of text: `HTTP 402: {"error": ...}`, `Error [{"code": ...}]`.
_JSON_OPENING = re.compile(r"[{\[]\s*[\"{\[]")
_PREFIX_CHARS = 200
"""Longest text before JSON that `json_after_text` looks through (a status line, not a document)."""
_JSON_DECODER = json.JSONDecoder()
# A number after `=` in plain text, and the key before it: `waiting=61`, `fine_cents=150` (not `50/50`, `9.1C`).
_EQUALS_NUMBER = re.compile(r"=(-?\d{1,15}(?:\.\d{1,15})?)(?![\w.%/:])")
_KEY_BEFORE = re.compile(r"(?<![\w.-])([A-Za-z_][\w-]{0,39})$")
_KEY_CHARS = 40
_KEY_NUMBERS = 200
"""At most this many `key=number` pairs of one text are read as fields."""
_NUMBER_KINDS = frozenset((int, float))


@dataclass(slots=True, eq=False)
class Leaf:
    """One value inside a tool output (or a context string), with where it sits."""

    source: str
    index: int
    path: str
    text: str
    start: int = 0
    """Offset of `text` in a context blob (0 for tool outputs)."""
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


Ref = tuple[int, Any]
"""Where a value sits: (container node, key or list index in it); node -1 is the root."""


class Flat:
    """A tool output (or its args) walked once: values grouped by shape, with their places.

    A shape is the path with list indexes dropped (`items[].price`). Strings are kept
    once per shape (values repeat across the items of a list); numbers, booleans and
    list lengths are kept with their place, so a path is rebuilt only for evidence
    that is reported.
    """

    def __init__(self, call: int, root: str, value: Any, max_depth: int) -> None:
        """Walk `value`.

        Args:
            call: Index of the tool call.
            root: Path prefix: "" for the output, "args" for the arguments.
            value: A parsed output: str, number, bool, None, dict or list.
            max_depth: Containers deeper than this are not read.
        """
        self.call = call
        self.root = root
        self.value = value
        """The walked value, with a JSON text parsed (for document-order walks)."""
        self.max_depth = max_depth
        self.too_deep = False
        """Whether containers deeper than `max_depth` were skipped."""
        self.nodes: list[tuple[Any, Any, bool]] = []
        """Containers: (parent node, key in the parent, is a list). A list of records walked by
        column shares one entry per field among its records: read them with `node()`."""
        self.strings: dict[str, dict[str, Ref]] = {}
        """Shape -> distinct string -> its first place."""
        self.numbers: dict[str, tuple[list[int | float], list[int], list[Any]]] = {}
        """Shape -> the finite JSON numbers, their nodes and keys (parallel columns, document order)."""
        self.bools: list[tuple[bool, int, Any, str]] = []
        """(value, node, key, shape) of each boolean."""
        self.lists: list[tuple[int, int, str]] = []
        """(length, node, shape) of each list."""
        self._paths: dict[int, str] = {}
        self._child_shapes: dict[str, dict[Any, str]] = {}
        if isinstance(value, str):
            parsed = (
                parse_json(value, max_depth) if value[:1] in _OPENERS and LOOKS_JSON.match(value)
                else json_after_text(value)
            )
            if isinstance(parsed, (dict, list)):
                self.value = value = parsed
        if isinstance(value, (dict, list)):
            self._container(value, -1, None, root, 0)
        else:
            self._scalar(value, -1, None, root)
            if isinstance(value, str) and "=" in value:
                self._key_numbers(value, root)

    def _key_numbers(self, text: str, root: str) -> None:
        """The `key=number` pairs of a plain text (a log's `waiting=61`, an error's `fine_cents=150`), as fields.

        Only the first `_KEY_NUMBERS` pairs are read; the text stays a string too.
        """
        for m in islice(_EQUALS_NUMBER.finditer(text), _KEY_NUMBERS):
            name = _KEY_BEFORE.search(text, max(0, m.start() - _KEY_CHARS), m.start())
            if name is None:
                continue
            raw = m.group(1)
            number = float(raw) if "." in raw else int(raw)
            if isinstance(number, float) and not math.isfinite(number):
                continue
            shape = f"{root}.{name[1]}" if root else name[1]
            values, nodes, keys = self.numbers.setdefault(shape, ([], [], []))
            values.append(number)
            nodes.append(-1)
            keys.append(name[1])

    def _container(self, value: dict | list, parent: int, key: Any, shape: str, depth: int) -> None:
        if depth >= self.max_depth:
            self.too_deep = True
            return
        node = len(self.nodes)
        is_list = isinstance(value, list)
        self.nodes.append((parent, key, is_list))
        strings, numbers = self.strings, self.numbers
        if is_list:
            self.lists.append((len(value), node, shape))
            item_shape = shape + "[]"
            if value and type(value[0]) is dict and self._records(value, node, item_shape, depth + 1):
                return
            items: Any = enumerate(value)
        else:
            items = value.items()
            prefix = shape + "." if shape else ""
            child_shapes = self._child_shapes.get(prefix)  # records of a list repeat their keys
            if child_shapes is None:
                child_shapes = self._child_shapes[prefix] = {}
        for k, x in items:
            kind = type(x)
            if is_list:
                s = item_shape
            elif type(k) is str:
                s = child_shapes.get(k)
                if s is None:
                    s = child_shapes[k] = prefix + k
            else:  # 1 and True are one dict key: don't share their shapes
                s = prefix + str(k)
            if kind is str:
                if x[:1] in _OPENERS and LOOKS_JSON.match(x):
                    parsed = parse_json(x, self.max_depth - depth - 1)
                    if isinstance(parsed, (dict, list)):
                        self._container(parsed, node, k, s, depth + 1)
                        continue
                bucket = strings.get(s)
                if bucket is None:
                    strings[s] = {x: (node, k)}
                elif x not in bucket:
                    bucket[x] = (node, k)
            elif kind is int or kind is float and math.isfinite(x):
                column = numbers.get(s)
                if column is None:
                    numbers[s] = ([x], [node], [k])
                else:
                    column[0].append(x)
                    column[1].append(node)
                    column[2].append(k)
            elif kind is dict or kind is list:
                self._container(x, node, k, s, depth + 1)
            else:
                self._scalar(x, node, k, s, depth + 1)

    def _records(self, records: list, node: int, item_shape: str, depth: int) -> bool:
        """Walk a list of flat records column by column, as `_container` would walk it item by item.

        Flat records are dicts with the same str keys, whose values are strings that hold
        no JSON, finite numbers or None, column by column of one kind; a column may also
        hold one nested flat record per record (`"dims": {"w": 3}`). Search results and
        line items look like this, and a column costs a few C-level passes instead of a
        Python step per value. Node numbers are those the item-by-item walk gives.

        Returns:
            False, having changed nothing, when `records` are not flat records.
        """
        if depth >= self.max_depth:
            return False
        outer = _record_columns(records)
        if outer is None:
            return False
        keys, found = outer
        prefix = item_shape + "."
        # (order, shape, key, values, places, is_text, node offset in a record's run of nodes)
        columns: list[tuple[tuple[int, int, int], str, str, list, Any, bool, int]] = []
        nested: list[str] = []
        for position, key, column in found:
            if type(column) is not list:
                if column:
                    columns.append(((column[1][0], position, -1), prefix + key, key, *column, 0))
                continue
            inner = _record_columns(column) if depth + 1 < self.max_depth else None  # nested records
            if inner is None or any(type(c) is list for _, _, c in inner[1]):
                return False
            nested.append(key)
            inner_columns = [
                ((c[1][0], position, q), f"{prefix}{key}.{inner_key}", inner_key, *c, len(nested))
                for q, inner_key, c in inner[1] if c
            ]
            if not _in_key_order(inner_columns, inner[0], column):
                return False
            columns += inner_columns
        if not _in_key_order(columns, keys, records):
            return False
        columns.sort(key=itemgetter(0))  # values enter their shape's column in document order
        stride, first = 1 + len(nested), len(self.nodes)
        # a record's run of nodes: the record, then its nested records; one entry each for the whole list
        run = [(node, _Items(first, stride), False)] + [(_Up(by), key, False) for by, key in enumerate(nested, 1)]
        self.nodes += run * len(records)
        for _, shape, key, values, places, is_text, offset in columns:
            start = first + offset
            if type(places) is range:
                nodes: Any = range(start, start + stride * len(values), stride)
            else:
                nodes = [start + stride * j for j in places]
            if is_text:
                firsts = _first_places(values, nodes, key)
                bucket = self.strings.get(shape)
                if bucket is not None:  # a shape met before keeps its strings' places and order
                    firsts = {**bucket, **firsts}
                    firsts.update(bucket)
                self.strings[shape] = firsts
            else:
                number_column = self.numbers.setdefault(shape, ([], [], []))
                number_column[0].extend(values)
                number_column[1].extend(nodes)
                number_column[2].extend(repeat(key, len(values)))
        return True

    def _scalar(self, value: Any, node: int, key: Any, shape: str, depth: int = 0) -> None:
        """A value other than a plain str or finite number (bool, None, bytes, subclasses, objects)."""
        if isinstance(value, bool):
            self.bools.append((value, node, key, shape))
            return
        if isinstance(value, (dict, list)):
            self._container(value, node, key, shape, depth)
            return
        if value is None:
            return
        if isinstance(value, (int, float)) and math.isfinite(value):
            values, nodes, keys = self.numbers.setdefault(shape, ([], [], []))
            values.append(value)
            nodes.append(node)
            keys.append(key)
            return
        if isinstance(value, (bytes, bytearray)):
            text = bytes(value).decode("utf-8", errors="replace")
        else:
            text = str(value)
        self.strings.setdefault(shape, {}).setdefault(text, (node, key))

    # ---------- places ----------
    def path(self, node: int, key: Any) -> str:
        """Path of the value at `key` in `node` (`items[3].price`)."""
        base = self.node_path(node)
        if key is None:
            return base
        if node >= 0 and self.nodes[node][2]:
            return f"{base}[{key}]"
        return f"{base}.{key}" if base else str(key)

    def node(self, node: int) -> tuple[int, Any, bool]:
        """A container's (parent node, key in the parent, is a list)."""
        parent, key, is_list = self.nodes[node]
        if type(key) is _Items:
            key = (node - key.first) // key.stride
        if type(parent) is _Up:
            parent = node - parent.by
        return parent, key, is_list

    def node_path(self, node: int) -> str:
        """Path of a container (the root's is `root`)."""
        if node < 0:
            return self.root
        path = self._paths.get(node)
        if path is None:
            parent, key, _ = self.node(node)
            path = self._paths[node] = self.path(parent, key)
        return path

    def value_at(self, path: str) -> Any:
        """The walked value at a path of this output (`flights[0].fare`); None when there is none.

        A key holding `.` or `[` is not reached: nothing is read instead.
        """
        return value_in(self.value, path[len(self.root) :].lstrip(".") if self.root else path)

    def zero_fields(self) -> list[tuple[str, int, Any]]:
        """(shape, node, key) of each number field holding only zeros (`delay_min: 0`)."""
        return [
            (shape, nodes[0], keys[0]) for shape, (values, nodes, keys) in self.numbers.items()
            if values and not any(values)
        ]

    def present_fields(self) -> dict[str, tuple[str, int, Any, str]]:
        """Field shape -> (shape, node, key, text) of a value that fills it, for each field holding one.

        A field is filled by a non-empty string or a non-zero number, itself or under it
        (`in_transit` by `in_transit.qty` = 200); the value given is the first such.
        """
        found: dict[str, tuple[str, int, Any, str]] = {}
        for shape, bucket in self.strings.items():
            for text, (node, key) in bucket.items():  # the first that is not blank
                if text.strip():
                    found.setdefault(shape, (shape, node, key, text))
                    break
        for shape, (values, nodes, keys) in self.numbers.items():
            for first, value in enumerate(values):  # the first that is not zero
                if value:
                    found.setdefault(shape, (shape, nodes[first], keys[first], str(value)))
                    break
        for shape, filled in list(found.items()):
            parent = shape.rsplit(".", 1)[0] if "." in shape else ""
            while parent and parent not in found:
                found[parent] = filled
                parent = parent.rsplit(".", 1)[0] if "." in parent else ""
        return found

    def scalars(self) -> Iterator[tuple[str, str, Any, bool]]:
        """(path, shape, value, is_count) of every value in document order.

        A list gives its length (`is_count` True) before its items.
        """
        stack: list[tuple[str, str, Any, int]] = [(self.root, self.root, self.value, 0)]
        while stack:
            path, shape, value, depth = stack.pop()
            if isinstance(value, str) and value[:1] in _OPENERS and LOOKS_JSON.match(value):
                parsed = parse_json(value, self.max_depth - depth)
                if isinstance(parsed, (dict, list)):
                    value = parsed
            if isinstance(value, (dict, list)):
                if depth >= self.max_depth:
                    continue
                if isinstance(value, dict):
                    prefix, shape_prefix = (f"{path}." if path else ""), (f"{shape}." if shape else "")
                    items = [(f"{prefix}{k}", f"{shape_prefix}{k}", v, depth + 1) for k, v in value.items()]
                else:
                    yield path, shape, len(value), True
                    items = [(f"{path}[{j}]", f"{shape}[]", v, depth + 1) for j, v in enumerate(value)]
                items.reverse()
                stack.extend(items)
            else:
                yield path, shape, value, False


@dataclass(frozen=True, slots=True)
class _Items:
    """The key of each record in a list walked by column: `stride` nodes a record from node `first`."""

    first: int
    stride: int


@dataclass(frozen=True, slots=True)
class _Up:
    """The parent of a nested record in a list walked by column: `by` nodes before it."""

    by: int


def _record_columns(records: list) -> tuple[list[str], list[tuple[int, str, Any]]] | None:
    """The keys and columns of dicts with the same str keys, or None when they are not such dicts.

    Each column is `(position, key, _column(values))`, or `(position, key, values)` when
    its values are all dicts.
    """
    keys = list(records[0]) if type(records[0]) is dict else None
    if not keys or any(type(k) is not str for k in keys) or set(map(type, records)) != {dict}:
        return None
    if len(set(map(len, records))) != 1:
        return None
    columns = []
    for position, key in enumerate(keys):
        try:  # every record has as many keys as the first: it has the first's keys or a KeyError
            values = list(map(itemgetter(key), records))
        except KeyError:
            return None
        column = values if type(values[0]) is dict else _column(values)
        if column is None:
            return None
        columns.append((position, key, column))
    return keys, columns


def _in_key_order(columns: list[tuple], keys: list[str], records: list[dict]) -> bool:
    """Whether walking `columns` by their order keys enters values as the item-by-item walk does.

    A column whose first value is not in the first record enters at its first record,
    in that record's key order: then every record must have the first's key order.
    """
    return not any(order[0] for order, *_ in columns) or not any(map(keys.__ne__, map(list, records)))


def _column(values: list) -> tuple[list, Any, bool] | tuple[()] | None:
    """One field of flat records: (values that are not None, their places, whether they are strings).

    Returns:
        `()` when every value is None; None when the field is not one kind of flat value.
    """
    places: Any = range(len(values))
    try:
        joined = "\x00".join(values)
    except TypeError:
        kinds = set(map(type, values))
        if type(None) in kinds:
            kinds.discard(type(None))
            if not kinds:
                return ()
            places = [j for j, x in enumerate(values) if x is not None]
            values = [values[j] for j in places]
        if kinds != {str}:
            if not kinds <= _NUMBER_KINDS or float in kinds and not all(map(math.isfinite, values)):
                return None
            return values, places, False
        joined = "\x00".join(values)
    if ("{" in joined or "[" in joined) and (LOOKS_JSON.match(values[0]) or _JSON_AFTER_NUL.search(joined)):
        return None
    return values, places, True


def _first_places(values: list[str], nodes: Any, key: str) -> dict[str, Ref]:
    """Each distinct string of a column with its first place, in order of first appearance."""
    distinct = dict.fromkeys(values)
    if len(distinct) <= 16:  # a status or a name: find each once
        return {text: (nodes[values.index(text)], key) for text in distinct}
    refs = list(zip(nodes, repeat(key)))
    firsts = dict(zip(values, refs, strict=True))  # in order of first appearance, with last places
    firsts.update(zip(reversed(values), reversed(refs), strict=True))  # same order, first places
    return firsts


def value_in(value: Any, path: str) -> Any:
    """The value at `path` (`flights[0].fare`, `variants.3111466194.price`) under `value`; None when there is none."""
    for key, index in _PATH_STEP.findall(path):
        if index and isinstance(value, list) and int(index) < len(value):
            value = value[int(index)]
        elif key and isinstance(value, dict):
            value = value.get(key)
        else:
            return None
    return value


def scalars_of(value: Any) -> Iterator[Any]:
    """The scalar values under `value`, nested mappings and lists read too (a record's strings and numbers).

    Args:
        value: A parsed JSON value.

    Returns:
        Its scalars, depth first.
    """
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend(reversed(node))
        else:
            yield node


def record_path(path: str) -> str:
    """The path of the record holding a field: `refunds[0].note` -> `refunds[0]`, `note` -> ``."""
    return path.rsplit(".", 1)[0] if "." in path else ""


def shape_of(path: str) -> str:
    """The shape of a path: its list indexes dropped (`items[3].price` -> `items[].price`)."""
    return _LIST_INDEX.sub("[]", path)


def json_after_text(text: str) -> dict[str, Any] | None:
    """A text that is a short line, then JSON to its end, as `{"text": line, "body": parsed}`.

    Error outputs often read so (`HTTP 402: {"outstanding_cents": 1799}`): the JSON's field
    names then count as they do in any output. None when the JSON does not run to the end,
    or is not an object or a list of objects.
    """
    opening = _JSON_OPENING.search(text, 0, _PREFIX_CHARS + 2)
    if opening is None or opening.start() == 0 or "\n" in text[: opening.start()].strip():
        return None
    try:
        parsed, end = _JSON_DECODER.raw_decode(text, opening.start())
    except (ValueError, RecursionError):
        return None
    if text[end:].strip() or not (
        isinstance(parsed, dict) or isinstance(parsed, list) and parsed and all(isinstance(x, dict) for x in parsed)
    ):
        return None
    return {"text": text[: opening.start()].strip(), "body": parsed}


def number_text(value: int | float) -> str:
    """A JSON number as an answer would write it: 1299.0 -> 1299, 0.15 -> 0.15."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)
